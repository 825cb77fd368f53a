// Remote servers that need a login: `switchboard login` through the real CLI against a local OAuth
// authorization server and protected MCP server (test/fixtures/oauth-server.ts), the stored tokens
// (0600), calls through the gateway with them, refresh of an expired token, a revoked login that
// stops with the login hint and no retry storm, a legacy SSE server, a pre-registered client,
// `sendResource: false`, and one refresh for connections that need one at once.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, statSync, writeFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startOAuthFixture, type OAuthFixture, type OAuthFixtureOptions } from '../fixtures/oauth-server.js';
import { CLI, REPO, connectHttp, startHttpGateway, waitFor, writeConfig, type RunningGateway } from '../helpers/gateway.js';
import { runCli } from '../cli/run-cli.js';
import { pino } from 'pino';
import { loadConfig, type RemoteServerConfig } from '../../src/config/index.js';
import { CredentialStore } from '../../src/auth/credential-store.js';
import { StoredTokenAuth } from '../../src/auth/stored-token-auth.js';

const ANY = z.any();
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function fixture(options: OAuthFixtureOptions = {}): Promise<OAuthFixture> {
  const started = await startOAuthFixture(options);
  cleanups.push(() => started.close());
  return started;
}

async function setUp(options: OAuthFixtureOptions = {}, oauth?: Record<string, unknown>) {
  const auth = await fixture(options);
  const config = await writeConfig({ remote: { type: 'http', url: auth.mcpUrl, ...(oauth && { oauth }) } });
  return { auth, config, dataDir: path.join(path.dirname(config), 'data') };
}

/** Runs `switchboard login` as a user would, with no browser: reads the printed URL and follows it the way a browser does. */
async function loginThroughCli(config: string, dataDir: string, key = 'remote', env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [CLI, 'login', key, '--config', config, '--data-dir', dataDir, '--timeout', '120'], { cwd: REPO, env: { ...process.env, NO_COLOR: '1', BROWSER: 'none', ...env } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  cleanups.push(async () => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  const url = await waitFor(() => {
    if (child.exitCode !== null) throw new Error(`login exited with ${child.exitCode}: ${stderr}${stdout}`);
    return /^\s+(http:\/\/\S+\/authorize\?\S+)$/m.exec(stdout)?.[1];
  }, 'the authorization URL', 60_000);
  const authorize = await fetch(url, { redirect: 'manual' });
  expect(authorize.status).toBe(302);
  const callback = await fetch(authorize.headers.get('location')!);
  expect(callback.status).toBe(200);
  expect(await callback.text()).toContain('logged in');
  return { code: await exited, stdout, stderr };
}

function tokensFile(dataDir: string): string {
  const folder = path.join(dataDir, 'oauth');
  const files = readdirSync(folder).filter((f) => f.endsWith('.json'));
  expect(files).toHaveLength(1);
  return path.join(folder, files[0]!);
}

function stored(dataDir: string): { tokens?: { access_token: string; refresh_token?: string }; expiresAt?: number } {
  return JSON.parse(readFileSync(tokensFile(dataDir), 'utf8'));
}

async function gateway(config: string): Promise<RunningGateway> {
  const running = await startHttpGateway(config);
  cleanups.push(() => running.close());
  return running;
}

async function callWhoami(url: string): Promise<{ text?: string; error?: string }> {
  const { client, close } = await connectHttp(url);
  try {
    const result = await client.request({ method: 'tools/call', params: { name: 'remote_whoami', arguments: {} } }, ANY);
    const text = result.content?.[0]?.text as string | undefined;
    return result.isError ? { error: text } : { text };
  } catch (error) {
    return { error: (error as Error).message };
  } finally {
    await close();
  }
}

const grants = (auth: OAuthFixture, type: string) => auth.seen.filter((r) => r.path === '/token' && r.params.grant_type === type);

describe('switchboard login and remote servers that need one', () => {
  it('logs in end to end (discovery from the 401, dynamic registration, PKCE), stores the tokens 0600, and the gateway calls with them', async () => {
    const { auth, config, dataDir } = await setUp();

    // Before the login: the server's 401 says what to do.
    const before = await runCli(['servers', '--json', '--config', config], dataDir);
    expect(before.code).toBe(1);
    const row = (JSON.parse(before.stdout) as Array<{ key: string; lastError: string; needsLogin?: boolean }>).find((r) => r.key === 'remote')!;
    expect(row.lastError).toBe('remote needs a login: run switchboard login remote');
    expect(row.needsLogin).toBe(true);

    type Doctor = { checks: Array<{ area: string; status: string; message: string; fix?: string }> };
    const doctorBefore = JSON.parse((await runCli(['doctor', '--json', '--config', config], dataDir)).stdout) as Doctor;
    expect(doctorBefore.checks).toContainEqual(expect.objectContaining({ area: 'server remote', status: 'warn', fix: 'switchboard login remote' }));

    const login = await loginThroughCli(config, dataDir);
    expect(login.code, login.stderr).toBe(0);
    expect(login.stdout).toContain('Logged in to remote (a client registered for Switchboard');
    const doctorAfter = JSON.parse((await runCli(['doctor', '--json', '--config', config], dataDir)).stdout) as Doctor;
    expect(doctorAfter.checks).toContainEqual(expect.objectContaining({ area: 'server remote', status: 'ok', message: expect.stringMatching(/^logged in \(access token valid until /) }));
    expect(login.stdout).not.toContain(stored(dataDir).tokens!.access_token);

    const file = tokensFile(dataDir);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    expect(stored(dataDir).tokens?.refresh_token).toBeTruthy();

    expect(auth.seen.some((r) => r.path === '/register')).toBe(true);
    const authorize = auth.seen.find((r) => r.path === '/authorize')!;
    expect(authorize.params).toMatchObject({ code_challenge_method: 'S256', resource: auth.mcpUrl, scope: 'mcp:read' });
    expect(authorize.params.state).toBeTruthy();
    expect(grants(auth, 'authorization_code')[0]!.params).toMatchObject({ resource: auth.mcpUrl });
    expect(grants(auth, 'authorization_code')[0]!.params.code_verifier).toBeTruthy();

    const running = await gateway(config);
    expect(await callWhoami(running.url)).toEqual({ text: 'you are logged in' });
    expect(auth.authorized).toBeGreaterThan(0);
    expect(running.log.text()).not.toContain(stored(dataDir).tokens!.access_token);

    const servers = await runCli(['servers', '--json', '--config', config], dataDir);
    expect(servers.code, servers.stderr).toBe(0);

    const logout = await runCli(['logout', 'remote', '--config', config], dataDir);
    expect(logout.stdout).toContain('Logged out of remote');
    expect(readdirSync(path.dirname(file)).filter((f) => f.endsWith('.json'))).toHaveLength(0);
  });

  it('refreshes an access token the server no longer accepts (401), and one that has expired before it is sent', async () => {
    const { auth, config, dataDir } = await setUp();
    expect((await loginThroughCli(config, dataDir)).code).toBe(0);
    const running = await gateway(config);
    expect(await callWhoami(running.url)).toEqual({ text: 'you are logged in' });

    // The server ends every token: the gateway's next request gets a 401, refreshes once and retries.
    const first = stored(dataDir).tokens!.access_token;
    auth.expireAccessTokens();
    expect(await callWhoami(running.url)).toEqual({ text: 'you are logged in' });
    expect(grants(auth, 'refresh_token')).toHaveLength(1);
    expect(stored(dataDir).tokens!.access_token).not.toBe(first);

    // A token past its expiry (as stored) is refreshed before it is sent: the server sees no 401 for it.
    const record = JSON.parse(readFileSync(tokensFile(dataDir), 'utf8'));
    writeFileSync(tokensFile(dataDir), JSON.stringify({ ...record, expiresAt: Date.now() - 1000 }), { mode: 0o600 });
    const unauthorizedBefore = auth.unauthorized;
    const result = await runCli(['call', 'remote_whoami', '{}', '--config', config], dataDir);
    expect(result.stdout + result.stderr).toContain('you are logged in');
    expect(grants(auth, 'refresh_token')).toHaveLength(2);
    expect(auth.unauthorized).toBe(unauthorizedBefore);
  });

  it('a revoked login fails with the login hint, with no retries, and recovers after a new login', async () => {
    const { auth, config, dataDir } = await setUp();
    expect((await loginThroughCli(config, dataDir)).code).toBe(0);
    const running = await gateway(config);
    expect(await callWhoami(running.url)).toEqual({ text: 'you are logged in' });

    auth.revokeEverything();
    const failed = await callWhoami(running.url);
    expect(failed.error).toContain('remote needs a login: run switchboard login remote');
    const refreshes = grants(auth, 'refresh_token').length;
    expect(refreshes).toBe(1); // one refresh attempt, refused
    const unauthorized = auth.unauthorized;
    const requests = auth.seen.length;

    // Later calls fail at once: no request to either server, no backoff loop, no circuit breaker.
    for (let i = 0; i < 3; i++) expect((await callWhoami(running.url)).error).toContain('remote needs a login: run switchboard login remote');
    expect(auth.unauthorized).toBe(unauthorized);
    expect(auth.seen.length).toBe(requests);
    const state = (await (await fetch(`${running.url}/api/servers`)).json()) as { servers: Array<{ key: string; state: string; error: string | null }> };
    expect(state.servers.find((s) => s.key === 'remote')).toMatchObject({ state: 'needs-login', error: 'remote needs a login: run switchboard login remote' });

    // A new login is picked up by the running gateway on the next call.
    expect((await loginThroughCli(config, dataDir)).code).toBe(0);
    await waitFor(async () => (await callWhoami(running.url)).text === 'you are logged in', 'the gateway to use the new login');
  });

  it('uses a pre-registered client id and secret (no dynamic registration) and refreshes with them', async () => {
    process.env.SWITCHBOARD_TEST_OAUTH_SECRET = 'preset-secret';
    const { auth, config, dataDir } = await setUp({ registration: false, clients: [{ id: 'preset', secret: 'preset-secret' }] }, { clientId: 'preset', clientSecret: '${SWITCHBOARD_TEST_OAUTH_SECRET}' });
    const login = await loginThroughCli(config, dataDir);
    expect(login.code, login.stderr).toBe(0);
    expect(login.stdout).toContain('the configured client id');
    expect(auth.seen.some((r) => r.path === '/register')).toBe(false);
    expect(auth.seen.find((r) => r.path === '/authorize')!.params.client_id).toBe('preset');
    expect(readFileSync(tokensFile(dataDir), 'utf8')).not.toContain('preset-secret');

    auth.expireAccessTokens();
    const result = await runCli(['call', 'remote_whoami', '{}', '--config', config], dataDir);
    expect(result.stdout + result.stderr).toContain('you are logged in');
    expect(grants(auth, 'refresh_token')).toHaveLength(1);
  });

  it('logs in to a legacy HTTP+SSE server and calls it with the token, refreshed after a 401', async () => {
    const auth = await fixture();
    const config = await writeConfig({ legacy: { type: 'sse', url: auth.sseUrl } });
    const dataDir = path.join(path.dirname(config), 'data');
    const login = await loginThroughCli(config, dataDir, 'legacy');
    expect(login.code, login.stderr).toBe(0);
    expect(auth.seen.find((r) => r.path === '/authorize')!.params.resource).toBe(auth.sseUrl);
    const first = await runCli(['call', 'legacy_whoami', '{}', '--config', config], dataDir);
    expect(first.stdout + first.stderr).toContain('you are logged in');
    auth.expireAccessTokens();
    const second = await runCli(['call', 'legacy_whoami', '{}', '--config', config], dataDir);
    expect(second.stdout + second.stderr).toContain('you are logged in');
    expect(grants(auth, 'refresh_token')).toHaveLength(1);
  });

  it('refuses a callback whose state does not match, and gives up when the browser never comes back', async () => {
    const { config, dataDir } = await setUp();
    const child = spawn(process.execPath, [CLI, 'login', 'remote', '--config', config, '--data-dir', dataDir], { cwd: REPO, env: { ...process.env, NO_COLOR: '1', BROWSER: 'none' } });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    cleanups.push(async () => {
      if (child.exitCode === null) child.kill('SIGKILL');
    });
    const url = await waitFor(() => /^\s+(http:\/\/\S+\/authorize\?\S+)$/m.exec(output)?.[1], 'the authorization URL', 60_000);
    const location = new URL((await fetch(url, { redirect: 'manual' })).headers.get('location')!);
    location.searchParams.set('state', 'forged');
    expect((await fetch(location)).status).toBe(400);
    expect(await exited).toBe(1);
    expect(output).toContain('its state does not match');
    expect(existsSync(path.join(dataDir, 'oauth'))).toBe(false);

    const timedOut = await runCli(['login', 'remote', '--no-browser', '--timeout', '1', '--config', config], dataDir);
    expect(timedOut.code).toBe(1);
    expect(timedOut.stderr).toContain('no answer from the browser within 1 s');
  });

  it('a server whose own Authorization header is refused says so, and gets no stored login', async () => {
    const auth = await fixture();
    const config = await writeConfig({ remote: { type: 'http', url: auth.mcpUrl, headers: { Authorization: 'Bearer not-a-valid-token' } } });
    const dataDir = path.join(path.dirname(config), 'data');
    const servers = await runCli(['servers', '--json', '--config', config], dataDir);
    expect(servers.code).toBe(1);
    const row = (JSON.parse(servers.stdout) as Array<{ key: string; lastError: string; needsLogin: boolean }>).find((r) => r.key === 'remote')!;
    expect(row.lastError).toBe(`${auth.mcpUrl} refused the "Authorization" header of the config (HTTP 401): renew that token, or remove the header and run switchboard login remote`);
    expect(row.needsLogin).toBe(false);
    expect(row.lastError).not.toContain('not-a-valid-token');
  });

  it('sendResource: false leaves the resource parameter out everywhere (an identity provider that rejects it)', async () => {
    const { auth, config, dataDir } = await setUp({ rejectResource: true }, { sendResource: false });
    const login = await loginThroughCli(config, dataDir);
    expect(login.code, login.stderr).toBe(0);
    auth.expireAccessTokens();
    const result = await runCli(['call', 'remote_whoami', '{}', '--config', config], dataDir);
    expect(result.stdout + result.stderr).toContain('you are logged in');
    expect(grants(auth, 'refresh_token')).toHaveLength(1);
    expect(auth.seen.filter((r) => 'resource' in r.params)).toEqual([]);
  });

  it('connections that need a refresh at once share one refresh request (the rotated refresh token is used once)', async () => {
    const { auth, config, dataDir } = await setUp();
    expect((await loginThroughCli(config, dataDir)).code).toBe(0);
    const record = JSON.parse(readFileSync(tokensFile(dataDir), 'utf8'));
    writeFileSync(tokensFile(dataDir), JSON.stringify({ ...record, expiresAt: Date.now() - 1000 }), { mode: 0o600 });
    // Three connections to the server, as the gateway builds them: one store, an auth each.
    const server = (await loadConfig(config)).servers.find((s) => s.key === 'remote') as RemoteServerConfig;
    const store = new CredentialStore(dataDir);
    const log = pino({ level: 'silent' });
    const [first, second, late] = [0, 1, 2].map(() => new StoredTokenAuth(server, store, log));
    expect(late!.hasLogin).toBe(true); // read the expired login before the refresh

    const tokens = await Promise.all([first!.token(), second!.token()]);
    expect(grants(auth, 'refresh_token')).toHaveLength(1);
    const refreshed = stored(dataDir).tokens!.access_token;
    expect(refreshed).not.toBe(record.tokens.access_token);
    expect(tokens).toEqual([refreshed, refreshed]);

    // A connection that still holds the expired login takes the refreshed one instead of refreshing again.
    expect(await late!.token()).toBe(refreshed);
    expect(grants(auth, 'refresh_token')).toHaveLength(1);
  });
});
