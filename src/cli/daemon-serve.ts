// Owns what `serve --daemon` does beyond a plain `serve --http`: the shims' client (the token a
// shim presents, from the environment the starter set, never from the config), and the daemon's
// state file written once it listens and removed (with its lock) when it stops.
import type { ClientSettings } from '../config/index.js';
import { DAEMON_TOKEN_ENV } from '../daemon/control.js';
import { clearState, daemonPaths, releaseLock, writeState } from '../daemon/files.js';
import { VERSION } from '../config/version.js';
import { hashToken } from '../http/tokens.js';
import { UsageError } from './errors.js';

/** The configured clients plus `local`, the client every shim of this data dir authenticates as. */
export function daemonClients(configured: readonly ClientSettings[]): ClientSettings[] {
  const token = process.env[DAEMON_TOKEN_ENV];
  if (!token) throw new UsageError(`--daemon is started by "switchboard daemon start" (or "switchboard connect"), which sets ${DAEMON_TOKEN_ENV}`);
  delete process.env[DAEMON_TOKEN_ENV]; // never inherited by the servers the daemon starts
  // Shared by every local client: no per-client rate or session limits that ten editors would hit.
  const local: ClientSettings = { name: 'local', tokenHash: hashToken(token), admin: true, requestsPerMinute: 1_000_000, maxSessions: 100_000 };
  return [...configured.filter((c) => c.name !== 'local'), local];
}

export function daemonListening(dataDir: string, url: string, config: string): void {
  writeState(daemonPaths(dataDir), { pid: process.pid, url, startedAt: Date.now(), config, version: VERSION });
}

export function daemonStopping(dataDir: string): void {
  const paths = daemonPaths(dataDir);
  clearState(paths, process.pid);
  releaseLock(paths, process.pid);
}
