// Owns doctor's login checks for remote servers: a stored login (and whether its access token can
// still be renewed), or, with none stored, one unauthenticated request whose 401 says the server
// needs `switchboard login <server>`. Sends no token anywhere.
import { CredentialFileError, CredentialStore } from '../auth/credential-store.js';
import { challengeOf } from '../auth/login.js';
import type { LoadedConfig, RemoteServerConfig } from '../config/index.js';
import type { Check } from './doctor-check.js';

/** How long doctor waits for a remote server's answer. */
const PROBE_TIMEOUT_MS = 3000;

async function loginCheck(server: RemoteServerConfig, store: CredentialStore): Promise<Check | undefined> {
  const area = `server ${server.key}`;
  const fix = `switchboard login ${server.key}`;
  if (Object.keys(server.headers).some((h) => h.toLowerCase() === 'authorization')) return undefined; // its own credentials
  let record;
  try {
    record = store.read(server);
  } catch (error) {
    if (error instanceof CredentialFileError) return { area, status: 'warn', message: error.message, fix: `switchboard logout ${server.key}, then ${fix}` };
    throw error;
  }
  if (record?.tokens) {
    const expired = record.expiresAt !== undefined && record.expiresAt <= Date.now();
    if (expired && !record.tokens.refresh_token) return { area, status: 'warn', message: 'the stored login has expired and cannot be renewed (no refresh token)', fix };
    const until = record.expiresAt === undefined ? '' : expired ? ' (access token expired; renewed on next use)' : ` (access token valid until ${new Date(record.expiresAt).toISOString()})`;
    return { area, status: 'ok', message: `logged in${until}` };
  }
  try {
    const challenge = await challengeOf(server, PROBE_TIMEOUT_MS);
    if (challenge.status === 401) return { area, status: 'warn', message: `${server.key} needs a login (the server answered 401)`, fix };
    return server.oauth ? { area, status: 'info', message: 'no login stored (the server answered without one)' } : undefined;
  } catch (error) {
    return { area, status: 'info', message: `login not checked: ${server.url} did not answer (${(error as Error).message})` };
  }
}

export async function loginChecks(config: LoadedConfig, dataDir: string): Promise<Check[]> {
  const store = new CredentialStore(dataDir);
  const remote = config.servers.filter((s): s is RemoteServerConfig => s.transport !== 'stdio' && !s.disabled);
  const checks = await Promise.all(remote.map((server) => loginCheck(server, store)));
  return checks.filter((c): c is Check => c !== undefined);
}
