// Owns the configured HTTP clients: resolving a bearer token to a client in constant time (every
// client's hash is compared, equal-length digests, timingSafeEqual), and each client's scope.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { ClientSettings } from '../config/index.js';
import { ConfigError } from '../config/index.js';
import { ClientScope } from '../views/scope.js';
import { digestOf, hashToken } from './tokens.js';

export interface AuthenticatedClient {
  readonly name: string;
  readonly settings: ClientSettings;
  readonly scope: ClientScope;
}

interface Known extends AuthenticatedClient {
  readonly digest: Buffer;
}

export class ClientRegistry {
  private readonly known: Known[];

  /** `env` supplies tokens named by `tokenEnv`; a missing variable is a configuration error. */
  constructor(clients: readonly ClientSettings[], env: NodeJS.ProcessEnv = process.env, file?: string) {
    const seen = new Set<string>();
    this.known = clients.map((settings, index) => {
      if (seen.has(settings.name)) throw new ConfigError(`client "${settings.name}" is listed twice; names must be unique`, { file: file ?? '', field: `switchboard.clients[${index}].name` });
      seen.add(settings.name);
      let hash = settings.tokenHash;
      if (!hash && settings.tokenEnv) {
        const token = env[settings.tokenEnv];
        if (!token) throw new ConfigError(`client "${settings.name}": environment variable ${settings.tokenEnv} (tokenEnv) is not set or empty`, { file: file ?? '', field: `switchboard.clients[${index}].tokenEnv` });
        hash = hashToken(token);
      }
      return { name: settings.name, settings, scope: new ClientScope(settings.name, settings.servers, settings.tools), digest: digestOf(hash!) };
    });
  }

  /** True when any client is configured: then every MCP and admin request needs a token. */
  get enabled(): boolean {
    return this.known.length > 0;
  }

  /** The client a bearer token belongs to; undefined for none (or for no token at all). */
  authenticate(token: string | undefined): AuthenticatedClient | undefined {
    if (!token) return undefined;
    const digest = createHash('sha256').update(token, 'utf8').digest();
    let match: Known | undefined;
    // No early exit: the time taken does not depend on which client (if any) matched.
    for (const client of this.known) {
      if (timingSafeEqual(digest, client.digest) && !match) match = client;
    }
    return match;
  }
}

/** The token of an `Authorization: Bearer <token>` header; undefined when absent or another scheme. */
export function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^Bearer[ ]+([\x21-\x7e]{1,512})\s*$/i.exec(header);
  return match?.[1];
}
