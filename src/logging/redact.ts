// Owns redacting tool arguments before they are logged: values under keys that name a secret
// (token, password, apiKey, authorization, cookie, ...) are replaced, at any depth. Reusable by
// anything that must show arguments without their secrets.

const SECRET_KEY = /(^|[-_])(pass|pwd)$|passw(or)?d|passphrase|secret|token(?!s)|api[-_]?key|^auth$|authori[sz]ation|authentication|credential|cookie|session[-_]?id|private[-_]?key|signature|bearer|access[-_]?key/i;

export const REDACTED = '[redacted]';

/** True when a key's name says its value is a secret. */
export function isSecretKey(key: string): boolean {
  return SECRET_KEY.test(key);
}

/** A copy of `value` with every secret-named key's value replaced by "[redacted]" (circular-safe). */
export function redactSecrets(value: unknown, seen: WeakSet<object> = new WeakSet()): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (seen.has(value)) return '[Circular]';
  seen.add(value);
  if (Array.isArray(value)) return value.map((item) => redactSecrets(item, seen));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) out[key] = isSecretKey(key) ? REDACTED : redactSecrets(item, seen);
  return out;
}
