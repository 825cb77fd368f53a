// Owns the SDK OAuthClientProvider used by `switchboard login`: it holds, in memory for one login,
// what the SDK's auth() discovers and issues (discovery state, PKCE verifier, client registration,
// tokens), reuses a stored dynamic registration when its redirect URI still fits, uses the client
// id from the config when there is one (no registration then), and leaves out the RFC 8707
// `resource` parameter when the config says `sendResource: false`.
import { randomBytes } from 'node:crypto';
import type { OAuthClientInformationContext, OAuthClientMetadata, OAuthClientProvider, OAuthDiscoveryState, StoredOAuthClientInformation, StoredOAuthTokens } from '@modelcontextprotocol/client';
import type { RemoteServerConfig } from '../config/index.js';
import type { CredentialRecord, StoredClient } from './credential-store.js';

export class LoginProvider implements OAuthClientProvider {
  /** Where auth() sent the user agent: the URL to open in a browser. */
  authorizationUrl: URL | undefined;
  /** The `state` sent with the authorization request; the callback must bring it back. */
  readonly expectedState = randomBytes(24).toString('base64url');
  registered: StoredClient | undefined;
  issued: StoredOAuthTokens | undefined;
  discovery: OAuthDiscoveryState | undefined;
  resource: string | undefined;
  /** Present only with `sendResource: false`: selects no resource indicator at all. */
  validateResourceURL?: (serverUrl: string | URL, resource?: string) => Promise<URL | undefined>;
  private verifier: string | undefined;

  constructor(
    private readonly config: RemoteServerConfig,
    private readonly redirect: string,
    previous: CredentialRecord | undefined,
  ) {
    if (config.oauth?.sendResource === false) this.validateResourceURL = async () => undefined;
    // A registration made for another redirect URI (another port) would be refused: register again then.
    if (!config.oauth?.clientId && previous?.client?.redirect_uris?.includes(redirect)) this.registered = previous.client;
  }

  get redirectUrl(): string {
    return this.redirect;
  }

  get clientMetadata(): OAuthClientMetadata {
    const scope = this.config.oauth?.scopes?.join(' ');
    return {
      client_name: 'Switchboard',
      redirect_uris: [this.redirect],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      ...(scope && { scope }),
    };
  }

  state(): string {
    return this.expectedState;
  }

  clientInformation(ctx?: OAuthClientInformationContext): StoredOAuthClientInformation | undefined {
    const oauth = this.config.oauth;
    if (oauth?.clientId) return { client_id: oauth.clientId, ...(oauth.clientSecret && { client_secret: oauth.clientSecret }), ...(ctx?.issuer && { issuer: ctx.issuer }) };
    if (!this.registered) return undefined;
    return this.registered as StoredOAuthClientInformation;
  }

  saveClientInformation(info: StoredOAuthClientInformation): void {
    if (!this.config.oauth?.clientId) this.registered = info as StoredClient;
  }

  /** A login always asks the user again (auth() is called with forceReauthorization); tokens only once issued. */
  tokens(): StoredOAuthTokens | undefined {
    return this.issued;
  }

  saveTokens(tokens: StoredOAuthTokens): void {
    this.issued = tokens;
  }

  redirectToAuthorization(url: URL): void {
    this.authorizationUrl = url;
  }

  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }

  codeVerifier(): string {
    if (!this.verifier) throw new Error('no PKCE code verifier: the authorization request was not started');
    return this.verifier;
  }

  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.discovery = state;
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.discovery;
  }

  saveResourceUrl(resource: string): void {
    this.resource = resource;
  }
}
