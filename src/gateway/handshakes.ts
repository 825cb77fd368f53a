// Owns what a per-server endpoint answers to initialize: the server's own capabilities and
// instructions, remembered from its last connection (in memory and in the store, per server
// identity), so a client's initialize never waits on a server start. Only a server never seen
// before is waited for, at most listTimeoutMs; after that the session opens with the gateway's
// default capabilities and a warning is logged.
import type { ServerCapabilities } from '@modelcontextprotocol/server';
import type { Logger } from 'pino';
import type { Connection } from '../servers/connection.js';
import { serverIdentity } from '../servers/identity.js';
import type { HandshakeRepository } from '../store/index.js';

export interface ServerHandshake {
  capabilities: ServerCapabilities;
  instructions?: string;
}

export class HandshakeCache {
  private readonly known = new Map<string, ServerHandshake>();

  constructor(
    private readonly repository: HandshakeRepository | undefined,
    private readonly log: Logger,
  ) {}

  /** A connection came up: remember what the server answered (memory and store). */
  remember(connection: Connection): void {
    const capabilities = connection.serverCapabilities;
    if (!capabilities) return;
    const id = storageKey(connection);
    const handshake: ServerHandshake = { capabilities, ...(connection.instructions !== undefined && { instructions: connection.instructions }) };
    this.known.set(id, handshake);
    try {
      this.repository?.save(id, handshake as { capabilities: Record<string, unknown>; instructions?: string });
    } catch (error) {
      this.log.warn({ server: connection.key, err: (error as Error).message }, 'could not save the server\'s handshake; remembered in memory only');
    }
  }

  /** The handshake the server gave at its last connection, if it was ever seen. */
  lookup(connection: Connection): ServerHandshake | undefined {
    const id = storageKey(connection);
    const known = this.known.get(id);
    if (known) return known;
    try {
      const stored = this.repository?.load(id);
      if (!stored) return undefined;
      const handshake: ServerHandshake = { capabilities: stored.capabilities as ServerCapabilities, ...(stored.instructions !== undefined && { instructions: stored.instructions }) };
      this.known.set(id, handshake);
      return handshake;
    } catch (error) {
      this.log.warn({ server: connection.key, err: (error as Error).message }, 'could not read the server\'s remembered handshake');
      return undefined;
    }
  }

  /**
   * What to answer a client's initialize on `connection`'s per-server endpoint: the live handshake
   * when the server is up, else the remembered one; a server never seen is started and waited for
   * at most `boundMs` (it keeps starting for the session). Undefined: nothing known in time.
   */
  async forInitialize(connection: Connection, boundMs: number): Promise<ServerHandshake | undefined> {
    if (connection.serverCapabilities && (connection.state === 'connected' || connection.state === 'degraded')) {
      return { capabilities: connection.serverCapabilities, ...(connection.instructions !== undefined && { instructions: connection.instructions }) };
    }
    const remembered = this.lookup(connection);
    if (remembered) return remembered;
    let failed = false;
    const started = connection.start().then(
      () => ({ capabilities: connection.serverCapabilities!, ...(connection.instructions !== undefined && { instructions: connection.instructions }) }) as ServerHandshake,
      (error: Error) => {
        failed = true;
        this.log.warn({ server: connection.key, err: error.message }, 'server unavailable; per-server session opened with default capabilities');
        return undefined;
      },
    );
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), boundMs)));
    const answer = await Promise.race([started, bound]);
    clearTimeout(timer);
    if (!answer && !failed) {
      this.log.warn({ server: connection.key, waitedMs: boundMs }, 'server never seen before and not up within listTimeoutMs; per-server session opened with default capabilities (later sessions get its own)');
    }
    return answer;
  }
}

/** Per server identity, as cached listings are (another project's server "x" is another server). */
function storageKey(connection: Connection): string {
  return `${connection.key} #${serverIdentity(connection.config)}`;
}
