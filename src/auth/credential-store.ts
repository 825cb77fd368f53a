// Owns the OAuth credentials Switchboard keeps for remote servers: one JSON file per server in
// <data dir>/oauth (folder 0700, files 0600), keyed by the server's URL (its identity as an OAuth
// resource: the same login serves every project that names the server, whatever the key or tool
// selection). Writes are atomic (a private temporary file renamed over the old one), so a reader
// in another process (the daemon, `switchboard servers`) never sees half a file.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, statSync, chmodSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { RemoteServerConfig } from '../config/index.js';
import { writeFileAtomic } from '../config/atomic-file.js';

const tokensSchema = z.looseObject({
  access_token: z.string().min(1),
  token_type: z.string().min(1),
  refresh_token: z.string().min(1).optional(),
  scope: z.string().optional(),
  expires_in: z.number().optional(),
  issuer: z.string().optional(),
});

const clientSchema = z.looseObject({
  client_id: z.string().min(1),
  client_secret: z.string().optional(),
  redirect_uris: z.array(z.string()).optional(),
  issuer: z.string().optional(),
});

export const credentialRecordSchema = z.object({
  version: z.literal(1),
  serverUrl: z.string(),
  /** The key the server had when these were saved (for people reading the folder). */
  serverKey: z.string(),
  authorizationServerUrl: z.string(),
  /** What discovery found (RFC 9728 and RFC 8414 documents), so refreshes need no discovery. */
  discovery: z.record(z.string(), z.unknown()).optional(),
  /** The RFC 8707 resource indicator sent at login (absent when none was sent). */
  resource: z.string().optional(),
  /** A dynamically registered client (absent when the config names a client id). */
  client: clientSchema.optional(),
  tokens: tokensSchema.optional(),
  /** When the access token expires (ms since the epoch); absent when the server did not say. */
  expiresAt: z.number().optional(),
  savedAt: z.string(),
});
export type CredentialRecord = z.infer<typeof credentialRecordSchema>;
export type StoredTokens = z.infer<typeof tokensSchema>;
export type StoredClient = z.infer<typeof clientSchema>;

/** What identifies a server's credentials: its URL (16 hex characters of its SHA-256). */
export function credentialIdentity(serverUrl: string): string {
  return createHash('sha256').update(new URL(serverUrl).href).digest('hex').slice(0, 16);
}

export class CredentialFileError extends Error {
  override readonly name = 'CredentialFileError';
}

export class CredentialStore {
  readonly folder: string;
  /** Servers found to need a login, by file: the file's stamp then (in memory, for every connection of this process). */
  private readonly refused = new Map<string, string>();
  /** Token refreshes running now, by file: every connection of this process to a server shares one. */
  private readonly refreshes = new Map<string, Promise<void>>();

  constructor(dataDir: string) {
    this.folder = path.join(dataDir, 'oauth');
  }

  fileFor(config: Pick<RemoteServerConfig, 'url'>): string {
    return path.join(this.folder, `${credentialIdentity(config.url)}.json`);
  }

  /** The stored record, or undefined when there is none. A damaged file is an error naming it. */
  read(config: Pick<RemoteServerConfig, 'url'>): CredentialRecord | undefined {
    const file = this.fileFor(config);
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw new CredentialFileError(`cannot read ${file}: ${(error as Error).message}`, { cause: error });
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      throw new CredentialFileError(`${file} is not valid JSON (remove it with switchboard logout and log in again)`, { cause: error });
    }
    const result = credentialRecordSchema.safeParse(parsed);
    if (!result.success) throw new CredentialFileError(`${file} is not a Switchboard credentials file (${result.error.issues[0]?.message}); remove it with switchboard logout and log in again`);
    return result.data;
  }

  /** Replaces the record atomically; the file is 0600 and its folder 0700 from the first byte. */
  write(config: Pick<RemoteServerConfig, 'url'>, record: CredentialRecord): string {
    mkdirSync(this.folder, { recursive: true, mode: 0o700 });
    chmodSync(this.folder, 0o700);
    const file = this.fileFor(config);
    writeFileAtomic(file, `${JSON.stringify(record, null, 2)}\n`, 0o600);
    return file;
  }

  /** Removes the record; true when there was one. */
  remove(config: Pick<RemoteServerConfig, 'url'>): boolean {
    const file = this.fileFor(config);
    try {
      statSync(file);
    } catch {
      return false;
    }
    rmSync(file, { force: true });
    return true;
  }

  /** Remembers that the server refused us for good with the credentials as they are now. */
  markLoginNeeded(config: Pick<RemoteServerConfig, 'url'>): void {
    this.refused.set(this.fileFor(config), this.stamp(config));
  }

  /** Whether the server refused us and nobody has logged in (or out) since. */
  loginNeeded(config: Pick<RemoteServerConfig, 'url'>): boolean {
    const file = this.fileFor(config);
    const then = this.refused.get(file);
    if (then === undefined) return false;
    if (this.stamp(config) === then) return true;
    this.refused.delete(file);
    return false;
  }

  /**
   * Runs `refresh` for a server's credentials unless one is running already in this process; then
   * waits for that one instead. A refresh token the authorization server rotates is good for one
   * use: two connections refreshing with it at once would have one refused (or, where reuse is taken
   * for theft, the whole login revoked).
   */
  refreshOnce(config: Pick<RemoteServerConfig, 'url'>, refresh: () => Promise<void>): Promise<void> {
    const file = this.fileFor(config);
    let running = this.refreshes.get(file);
    if (!running) {
      running = refresh().finally(() => this.refreshes.delete(file));
      this.refreshes.set(file, running);
    }
    return running;
  }

  /** Changes whenever the record is written or removed: whether a login happened since a failure. */
  stamp(config: Pick<RemoteServerConfig, 'url'>): string {
    try {
      const s = statSync(this.fileFor(config));
      return `${s.ino}:${s.mtimeMs}:${s.size}`;
    } catch {
      return 'none';
    }
  }
}

/** The expiry time of tokens just issued (ms since the epoch), when the server gave expires_in. */
export function expiryOf(tokens: { expires_in?: number }, now = Date.now()): number | undefined {
  return typeof tokens.expires_in === 'number' && tokens.expires_in > 0 ? now + tokens.expires_in * 1000 : undefined;
}
