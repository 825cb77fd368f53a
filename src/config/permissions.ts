// Owns the warning about a config file that other users of the machine can read while it holds
// secrets (server env or header values, client token hashes).
import { statSync } from 'node:fs';
import type { LoadedConfig } from './types.js';

export function readableByOthersWarning(config: LoadedConfig): string | undefined {
  if (process.platform === 'win32') return undefined;
  const secrets = config.servers.some((s) => (s.transport === 'stdio' ? Object.keys(s.env).length > 0 : Object.keys(s.headers).length > 0)) || config.settings.clients.length > 0;
  if (!secrets) return undefined;
  let mode: number;
  try {
    mode = statSync(config.file).mode;
  } catch {
    return undefined;
  }
  if ((mode & 0o044) === 0) return undefined;
  return `${config.file} holds secrets (server env or header values, client token hashes) and other users can read it (mode ${(mode & 0o777).toString(8)}); run: chmod 600 ${config.file}`;
}
