// The credentials file of a remote server's login: 0600 in a 0700 folder, replaced atomically (no
// temporary file left, a reader sees the old or the new record), one file per server URL, a damaged
// file named with what to do, and the "needs a login" mark that lasts until the file changes.
import { mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CredentialFileError, CredentialStore, type CredentialRecord } from '../../src/auth/credential-store.js';
import { tempDir } from '../helpers/gateway.js';

const server = { url: 'https://mcp.example.com/mcp' };
const record = (access: string): CredentialRecord => ({
  version: 1,
  serverUrl: server.url,
  serverKey: 'example',
  authorizationServerUrl: 'https://auth.example.com/',
  tokens: { access_token: access, token_type: 'Bearer', refresh_token: 'r' },
  expiresAt: 1,
  savedAt: new Date(0).toISOString(),
});

describe('CredentialStore', () => {
  it('writes 0600 files in a 0700 folder, atomically, one per server URL', async () => {
    const store = new CredentialStore(await tempDir());
    const file = store.write(server, record('a'));
    store.write(server, record('b'));
    expect(store.read(server)?.tokens?.access_token).toBe('b');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(store.folder).mode & 0o777).toBe(0o700);
    expect(readdirSync(store.folder)).toEqual([path.basename(file)]);
    expect(store.fileFor({ url: 'https://other.example.com/mcp' })).not.toBe(file);
    expect(store.remove(server)).toBe(true);
    expect(store.read(server)).toBeUndefined();
    expect(store.remove(server)).toBe(false);
  });

  it('names a damaged file and says what to do', async () => {
    const store = new CredentialStore(await tempDir());
    mkdirSync(store.folder, { recursive: true });
    writeFileSync(store.fileFor(server), '{"version": 1, "tokens"');
    expect(() => store.read(server)).toThrow(CredentialFileError);
    expect(() => store.read(server)).toThrow(/is not valid JSON \(remove it with switchboard logout and log in again\)/);
  });

  it('remembers that a server needs a login until its file changes', async () => {
    const store = new CredentialStore(await tempDir());
    expect(store.loginNeeded(server)).toBe(false);
    store.markLoginNeeded(server);
    expect(store.loginNeeded(server)).toBe(true);
    store.write(server, record('new'));
    expect(store.loginNeeded(server)).toBe(false);
  });
});
