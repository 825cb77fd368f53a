// Owns what counts as secret in one server's configuration: its env values, its header values, its OAuth client secret and
// the credential parts of its URL; the redactor built from them is applied to its lastError, its
// logged failures and stderr lines, and every URL shown for it.
import type { ServerConfig } from '../config/index.js';
import { redactorFor } from '../logging/redact.js';

export function secretValuesOf(config: ServerConfig): string[] {
  if (config.transport === 'stdio') return Object.values(config.env);
  const values = Object.values(config.headers).flatMap((v) => [v, v.replace(/^(Bearer|Basic|Token)\s+/i, '')]);
  if (config.oauth?.clientSecret) values.push(config.oauth.clientSecret);
  try {
    const url = new URL(config.url);
    if (url.password) values.push(decodeURIComponent(url.password));
    if (url.username && url.password) values.push(decodeURIComponent(url.username));
  } catch {
    // validated at load; nothing to add
  }
  return values;
}

export function serverRedactor(config: ServerConfig): (text: string) => string {
  return redactorFor(secretValuesOf(config));
}
