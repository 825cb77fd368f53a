// Owns how the gateway authenticates to one remote server with the credentials `switchboard login`
// stored: the SDK transport asks it for the access token before every request (refreshed first when
// it is about to expire) and calls it on a 401 (it refreshes once, or adopts a token another process
// saved). Refreshes are single-flight per server across every connection of the process (the
// credential store runs them). A failure only a person can fix (no login, the refresh token refused) is a
// LoginRequiredError, which stops retries. Tokens go to this server only and are never logged.
import { OAuthError, OAuthErrorCode, refreshAuthorization, type AuthProvider, type AuthorizationServerMetadata, type FetchLike } from '@modelcontextprotocol/client';
import type { RemoteServerConfig } from '../config/index.js';
import type { Logger } from '../logging/logger.js';
import { expiryOf, type CredentialRecord, type CredentialStore } from './credential-store.js';
import { LoginRequiredError } from './errors.js';

/** An access token this close to its expiry is refreshed before it is sent. */
const REFRESH_AHEAD_MS = 30_000;
type UnauthorizedContext = Parameters<NonNullable<AuthProvider['onUnauthorized']>>[0];
/**
 * fetch for token requests whose error answers the SDK can read: it checks `instanceof Response`
 * against the global class, which @hono/node-server (the HTTP face) replaces with its own, so an
 * error answer from fetch would be misread as "[object Response]". Rebuilt under the global class.
 */
const tokenFetch: FetchLike = async (input, init) => {
  const response: Response = await fetch(input, init);
  if (response.ok || (response as unknown) instanceof Response) return response;
  return new Response(await response.text(), { status: response.status, statusText: response.statusText, headers: response.headers });
};

/** OAuth errors that say the authorization server itself is in trouble: not the user's to fix. */
const TRANSIENT_OAUTH_ERRORS = new Set<string>([OAuthErrorCode.ServerError, OAuthErrorCode.TemporarilyUnavailable]);

export class StoredTokenAuth implements AuthProvider {
  private record: CredentialRecord | undefined;
  private loaded = false;
  private refreshing: Promise<void> | undefined;
  /** The Authorization header each response was answered to, so a 401 for an old token just retries. */
  private readonly sentWith = new WeakMap<Response, string | null>();

  constructor(
    private readonly config: RemoteServerConfig,
    private readonly store: CredentialStore,
    private readonly log: Logger,
  ) {}

  /** Whether a login is stored (read from disk on first use). */
  get hasLogin(): boolean {
    return this.current()?.tokens !== undefined;
  }

  async token(): Promise<string | undefined> {
    const record = this.current();
    if (!record?.tokens) return undefined;
    if (record.expiresAt !== undefined && record.expiresAt - REFRESH_AHEAD_MS <= Date.now() && record.tokens.refresh_token) {
      await this.refreshOnce('the access token expires');
    }
    return this.record?.tokens?.access_token;
  }

  async onUnauthorized(ctx: UnauthorizedContext): Promise<void> {
    const refused = this.sentWith.get(ctx.response);
    await ctx.response.text().catch(() => undefined);
    if (this.refreshing) {
      await this.refreshing;
      return;
    }
    // Another process (switchboard login, another gateway) may have saved a newer token.
    this.reload();
    const stored = this.record?.tokens;
    if (!stored) throw new LoginRequiredError(this.config.key, 'no stored login');
    if (refused !== undefined && refused !== `Bearer ${stored.access_token}`) return; // refused an older token: retry with this one
    if (!stored.refresh_token) throw new LoginRequiredError(this.config.key, 'the access token was refused and there is no refresh token');
    await this.refreshOnce('the server refused the access token (401)');
  }

  /** fetch that remembers which token each response answered. */
  observe(fetchImpl: FetchLike): FetchLike {
    return async (input, init) => {
      const response = await fetchImpl(input, init);
      if (response.status === 401) this.sentWith.set(response, new Headers(init?.headers).get('authorization'));
      return response;
    };
  }

  private current(): CredentialRecord | undefined {
    if (!this.loaded) this.reload();
    return this.record;
  }

  private reload(): void {
    this.record = this.store.read(this.config);
    this.loaded = true;
  }

  /**
   * One refresh at a time per server, whichever connection asks: concurrent requests (of this
   * connection or another) share the one running; afterwards each takes what it stored.
   */
  private refreshOnce(why: string): Promise<void> {
    const found = this.record?.tokens?.access_token;
    this.refreshing ??= this.store
      .refreshOnce(this.config, () => this.refresh(why, found))
      .then(() => this.reload())
      .finally(() => {
        this.refreshing = undefined;
      });
    return this.refreshing;
  }

  /** Refreshes the stored login, unless it already holds a newer access token than `found` (refreshed meanwhile). */
  private async refresh(why: string, found: string | undefined): Promise<void> {
    this.reload();
    const record = this.record;
    if (record?.tokens && record.tokens.access_token !== found) return;
    const refreshToken = record?.tokens?.refresh_token;
    if (!record || !refreshToken) throw new LoginRequiredError(this.config.key, 'no refresh token');
    const clientInformation = this.config.oauth?.clientId ? { client_id: this.config.oauth.clientId, ...(this.config.oauth.clientSecret && { client_secret: this.config.oauth.clientSecret }) } : record.client;
    if (!clientInformation) throw new LoginRequiredError(this.config.key, 'no client registration stored');
    this.log.info({ why }, 'refreshing the access token');
    let tokens;
    try {
      tokens = await refreshAuthorization(record.authorizationServerUrl, {
        metadata: record.discovery?.authorizationServerMetadata as AuthorizationServerMetadata | undefined,
        clientInformation,
        refreshToken,
        ...(record.resource && { resource: new URL(record.resource) }),
        fetchFn: tokenFetch,
      });
    } catch (error) {
      if (error instanceof OAuthError && !TRANSIENT_OAUTH_ERRORS.has(error.code)) return this.refused(record, error);
      throw new Error(`cannot refresh the access token of ${this.config.key} at ${record.authorizationServerUrl}: ${(error as Error).message}`, { cause: error });
    }
    const next: CredentialRecord = { ...record, tokens: { ...tokens, ...(record.tokens?.issuer && { issuer: record.tokens.issuer }) }, savedAt: new Date().toISOString() };
    const expiresAt = expiryOf(tokens);
    if (expiresAt === undefined) delete next.expiresAt;
    else next.expiresAt = expiresAt;
    this.store.write(this.config, next);
    this.record = next;
    this.log.info({ expiresAt: expiresAt ? new Date(expiresAt).toISOString() : null }, 'access token refreshed');
  }

  /** The authorization server refused the refresh token: unless a newer login was saved meanwhile, a login is needed. */
  private refused(used: CredentialRecord, error: OAuthError): void {
    this.reload();
    const latest = this.record;
    if (latest?.tokens && latest.tokens.refresh_token !== used.tokens?.refresh_token) return; // someone logged in or refreshed meanwhile
    if (latest) {
      const { tokens: _dropped, expiresAt: _gone, ...rest } = latest;
      this.store.write(this.config, { ...rest, savedAt: new Date().toISOString() });
      this.reload();
    }
    this.log.warn({ error: error.code }, 'the authorization server refused the refresh token; a login is needed');
    throw new LoginRequiredError(this.config.key, `the authorization server refused the refresh token (${error.code})`);
  }
}
