// Owns `switchboard login <server>` and `switchboard logout <server>`: the OAuth login of a remote
// server (src/auth/login.ts) with the URL printed and a browser opened, and removing what it stored.
import { CredentialStore } from '../auth/credential-store.js';
import { openBrowser } from '../auth/browser.js';
import { login } from '../auth/login.js';
import type { RemoteServerConfig } from '../config/index.js';
import { loadContext, type CommonOptions } from './context.js';
import { UsageError } from './errors.js';
import { printJson } from './format.js';

async function remoteServer(options: CommonOptions, key: string): Promise<{ server: RemoteServerConfig; store: CredentialStore }> {
  const context = await loadContext(options, 'warn');
  const server = context.config.servers.find((s) => s.key === key);
  if (!server) {
    const remote = context.config.servers.filter((s) => s.transport !== 'stdio').map((s) => s.key);
    throw new UsageError(`Unknown server "${key}" in ${context.config.file}. Remote servers there: ${remote.join(', ') || 'none'}.`);
  }
  if (server.transport === 'stdio') throw new UsageError(`"${key}" is a stdio server; a login is for remote (http, sse) servers. Give a stdio server its credentials in "env".`);
  return { server, store: new CredentialStore(context.dataDir) };
}

export async function loginCommand(key: string, options: CommonOptions & { timeout?: string; browser?: boolean; json?: boolean }): Promise<void> {
  const timeoutSeconds = options.timeout === undefined ? 300 : Number(options.timeout);
  if (!Number.isFinite(timeoutSeconds) || timeoutSeconds <= 0) throw new UsageError(`--timeout must be a number of seconds above 0 (got "${options.timeout}")`);
  const { server, store } = await remoteServer(options, key);
  if (Object.keys(server.headers).some((h) => h.toLowerCase() === 'authorization')) {
    process.stderr.write(`switchboard: note: "${key}" has its own Authorization header in the config, which is sent instead of a login; remove it to use the login.\n`);
  }
  const outcome = await login(server, store, {
    timeoutMs: timeoutSeconds * 1000,
    onAuthorizationUrl(url, redirectUrl) {
      const opened = options.browser !== false && openBrowser(url);
      // With --json, stdout carries only the result.
      (options.json ? process.stderr : process.stdout).write(
        `${opened ? 'Opening your browser to log in to' : 'Open this URL in a browser to log in to'} ${key}:\n\n  ${url}\n\n` +
          `Waiting up to ${timeoutSeconds} s for the browser to come back to ${redirectUrl} ...\n`,
      );
    },
  });
  if (options.json) return printJson({ server: key, ...outcome, expiresAt: outcome.expiresAt ? new Date(outcome.expiresAt).toISOString() : null });
  const expiry = outcome.expiresAt ? `the access token expires at ${new Date(outcome.expiresAt).toISOString()}` : 'the access token has no stated expiry';
  const refresh = outcome.refreshToken ? 'Switchboard refreshes it with the refresh token' : 'no refresh token was issued, so you will need to log in again when it expires';
  const client = { registered: 'a client registered for Switchboard', reused: 'the client registered before', configured: 'the configured client id' }[outcome.client];
  process.stdout.write(`Logged in to ${key} (${client}${outcome.scope ? `, scope "${outcome.scope}"` : ''}): ${expiry}; ${refresh}.\nSaved to ${outcome.file} (mode 0600). A running gateway uses it on its next connection to ${key}.\n`);
}

export async function logoutCommand(key: string, options: CommonOptions & { json?: boolean }): Promise<void> {
  const { server, store } = await remoteServer(options, key);
  const file = store.fileFor(server);
  const removed = store.remove(server);
  if (options.json) return printJson({ server: key, removed, file });
  process.stdout.write(removed ? `Logged out of ${key}: removed ${file}.\n` : `No login stored for ${key} (looked for ${file}).\n`);
}
