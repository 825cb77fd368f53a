// Owns the login flow for one remote server: ask the server (its 401 names the protected-resource
// metadata), let the SDK's auth() discover the authorization server, register a client (or use the
// configured one) and build the PKCE authorization URL, show that URL (and open a browser), take the
// loopback callback, exchange the code with the verifier, and store the result for the gateway.
import { auth, extractWWWAuthenticateParams } from '@modelcontextprotocol/client';
import type { RemoteServerConfig } from '../config/index.js';
import { CredentialFileError, expiryOf, type CredentialRecord, type CredentialStore } from './credential-store.js';
import { LoginProvider } from './login-provider.js';
import { listenForCallback, type LoopbackRedirect } from './loopback.js';

export interface LoginOptions {
  timeoutMs: number;
  /** Called with the authorization URL once it is known (print it, open a browser). */
  onAuthorizationUrl(url: string, redirectUrl: string): void;
}

export interface LoginOutcome {
  file: string;
  expiresAt: number | undefined;
  refreshToken: boolean;
  scope: string | undefined;
  /** How the client was known: registered now (RFC 7591), a registration reused, or the configured client id. */
  client: 'registered' | 'reused' | 'configured';
  /** Whether the server asked for a login (answered 401) before we had one. */
  challenged: boolean;
}

export interface Challenge {
  status: number;
  resourceMetadataUrl?: URL;
  scope?: string;
}

/** One unauthenticated request, as the gateway would send it first: its 401 says where the metadata is. */
export async function challengeOf(config: RemoteServerConfig, timeoutMs = 15_000): Promise<Challenge> {
  const headers = new Headers(config.headers);
  headers.delete('authorization');
  let response: Response;
  if (config.transport === 'sse') {
    headers.set('accept', 'text/event-stream');
    response = await fetch(config.url, { headers, signal: AbortSignal.timeout(timeoutMs) });
  } else {
    headers.set('accept', 'application/json, text/event-stream');
    headers.set('content-type', 'application/json');
    const body = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'switchboard-login', version: '0' } } };
    response = await fetch(config.url, { method: 'POST', headers, body: JSON.stringify(body), signal: AbortSignal.timeout(timeoutMs) });
  }
  await response.body?.cancel().catch(() => undefined);
  return { status: response.status, ...(response.status === 401 ? extractWWWAuthenticateParams(response) : {}) };
}

/** The port of a stored registration's loopback redirect, so it can be reused. */
function registeredPort(previous: CredentialRecord | undefined): number | undefined {
  const uri = previous?.client?.redirect_uris?.find((u) => u.startsWith('http://127.0.0.1:'));
  const port = uri ? Number(new URL(uri).port) : NaN;
  return Number.isInteger(port) && port > 0 ? port : undefined;
}

async function openRedirect(config: RemoteServerConfig, previous: CredentialRecord | undefined): Promise<LoopbackRedirect> {
  if (config.oauth?.redirectPort !== undefined) {
    return listenForCallback(config.oauth.redirectPort).catch((error: Error) => {
      throw new Error(`cannot listen on 127.0.0.1:${config.oauth!.redirectPort} for the login redirect (oauth.redirectPort): ${error.message}`);
    });
  }
  const reuse = registeredPort(previous);
  if (reuse) {
    const redirect = await listenForCallback(reuse).catch(() => undefined);
    if (redirect) return redirect;
  }
  return listenForCallback(0);
}

export async function login(config: RemoteServerConfig, store: CredentialStore, options: LoginOptions): Promise<LoginOutcome> {
  let previous: CredentialRecord | undefined;
  try {
    previous = store.read(config);
  } catch (error) {
    if (!(error instanceof CredentialFileError)) throw error;
    previous = undefined; // a damaged file is replaced by this login
  }
  let challenge: Challenge;
  try {
    challenge = await challengeOf(config);
  } catch (error) {
    throw new Error(`cannot reach ${config.url}: ${(error as Error).message}`, { cause: error });
  }
  const redirect = await openRedirect(config, previous);
  try {
    const provider = new LoginProvider(config, redirect.redirectUrl, previous);
    const reused = provider.registered !== undefined;
    const scope = config.oauth?.scopes?.join(' ') || challenge.scope;
    const common = { serverUrl: config.url, ...(challenge.resourceMetadataUrl && { resourceMetadataUrl: challenge.resourceMetadataUrl }), ...(scope && { scope }) };
    const started = await auth(provider, { ...common, forceReauthorization: true });
    if (started !== 'REDIRECT' || !provider.authorizationUrl) throw new Error('the authorization server did not start an authorization-code flow');
    options.onAuthorizationUrl(provider.authorizationUrl.href, redirect.redirectUrl);
    const callback = await redirect.wait(provider.expectedState, options.timeoutMs);
    const finished = await auth(provider, { ...common, authorizationCode: callback.code, ...(callback.iss && { iss: callback.iss }) });
    if (finished !== 'AUTHORIZED' || !provider.issued) throw new Error('the authorization server issued no tokens');
    const tokens = provider.issued;
    const expiresAt = expiryOf(tokens);
    const record: CredentialRecord = {
      version: 1,
      serverUrl: config.url,
      serverKey: config.key,
      authorizationServerUrl: provider.discovery?.authorizationServerUrl ?? new URL('/', config.url).href,
      ...(provider.discovery && { discovery: provider.discovery as unknown as Record<string, unknown> }),
      ...(provider.resource && { resource: provider.resource }),
      ...(!config.oauth?.clientId && provider.registered && { client: provider.registered }),
      tokens: tokens as CredentialRecord['tokens'],
      ...(expiresAt !== undefined && { expiresAt }),
      savedAt: new Date().toISOString(),
    };
    const file = store.write(config, record);
    return {
      file,
      expiresAt,
      refreshToken: typeof tokens.refresh_token === 'string',
      scope: tokens.scope,
      client: config.oauth?.clientId ? 'configured' : reused ? 'reused' : 'registered',
      challenged: challenge.status === 401,
    };
  } finally {
    await redirect.close();
  }
}
