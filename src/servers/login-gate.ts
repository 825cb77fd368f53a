// Owns what one connection knows about its server's login (src/auth): the stored-token auth its
// transport sends (remote servers without an Authorization header of their own), whether the server
// refused us for good (shared by every connection to it through the credential store, until someone
// runs `switchboard login` or `logout`), and recording such a refusal.
import type { RemoteServerConfig, ServerConfig } from '../config/index.js';
import type { Logger } from '../logging/logger.js';
import type { CredentialStore } from '../auth/credential-store.js';
import { loginReason } from '../auth/errors.js';
import { StoredTokenAuth } from '../auth/stored-token-auth.js';

export class LoginGate {
  private readonly remote: RemoteServerConfig | undefined;

  constructor(
    config: ServerConfig,
    private readonly credentials: CredentialStore | undefined,
    private readonly log: Logger,
    private readonly redact: (text: string) => string,
  ) {
    const ownAuthorization = config.transport !== 'stdio' && Object.keys(config.headers).some((name) => name.toLowerCase() === 'authorization');
    this.remote = config.transport === 'stdio' || ownAuthorization || !credentials ? undefined : config;
  }

  /** A fresh stored-token auth for one transport, or undefined when logins do not apply. */
  auth(): StoredTokenAuth | undefined {
    return this.remote && this.credentials ? new StoredTokenAuth(this.remote, this.credentials, this.log) : undefined;
  }

  /** The server refused us for good and nobody has logged in (or out) since. */
  get blocked(): boolean {
    return this.remote !== undefined && this.credentials!.loginNeeded(this.remote);
  }

  /** Records a terminal refusal: calls fail at once until the credentials file changes. */
  refused(error: unknown): void {
    if (this.remote) this.credentials!.markLoginNeeded(this.remote);
    this.log.warn({ reason: this.redact(loginReason(error)) }, 'the server needs a login');
  }
}
