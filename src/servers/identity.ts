// Owns a server's identity: what makes two config entries the same server whatever their key
// (command, args, cwd and the names of its env variables; or URL; and the tool selection, which
// shapes what is listed). Env values are left out: they are mostly secrets and paths (a rotated
// token is the same server). Cached listings belong to an identity, so two projects that both name
// a server "x" never share them.
import { createHash } from 'node:crypto';
import type { ServerConfig } from '../config/index.js';

/** A short stable hash of the server's identity (8 hex characters). */
export function serverIdentity(config: ServerConfig): string {
  const selection = { enabledTools: config.enabledTools ?? null, disabledTools: config.disabledTools ?? null };
  const what =
    config.transport === 'stdio'
      ? { transport: 'stdio', command: config.command, args: config.args, cwd: config.cwd ?? null, env: Object.keys(config.env).sort(), ...selection }
      : { transport: config.transport, url: config.url, ...selection };
  return createHash('sha256').update(JSON.stringify(what)).digest('hex').slice(0, 8);
}
