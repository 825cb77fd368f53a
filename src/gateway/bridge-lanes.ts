// Owns the downstream connections bridged calls run on (mrtr-bridge.ts). A bridged call needs a
// connection of its own, so that the server's questions come back to that call only; starting a
// process for each call is what made such calls slow. A lane is such a connection, with an owner id
// of its own: one call at a time uses it. When a call ends normally its lane is kept as the warm
// spare for the next call of the same client to the same server with the same capabilities (a lane
// never passes from one client to another: what a server remembers of its client stays with it),
// and a call that finds no spare starts one once its own connection is up; at most one idle spare
// per pair, so calls one after another all run warm and start no process. Spares
// unused for isolatedIdleMs are stopped (connection-release.ts asks), and the lane of a call that
// expired or was stopped is stopped too, never reused.
import { randomUUID } from 'node:crypto';
import type { ClientCapabilities } from '@modelcontextprotocol/server';
import type { Connection } from '../servers/connection.js';
import type { ServerPool } from '../servers/pool.js';
import { profileOf } from '../servers/profile.js';

interface Lane {
  owner: string;
  connection: Connection;
  /** When it became idle. */
  since: number;
}

interface Logger {
  debug(fields: Record<string, unknown>, message: string): void;
}

export class BridgeLanes {
  /** The idle spare per server and capability profile. */
  private readonly spares = new Map<string, Lane>();
  /** Lanes a call uses now, by owner id. */
  private readonly busy = new Map<string, { pair: string; capabilities: ClientCapabilities; serverKey: string }>();

  constructor(
    private readonly pool: ServerPool,
    private readonly log: Logger,
  ) {}

  /**
   * The owner id a bridged call to `serverKey` runs under: the warm spare's when there is one (its
   * connection is up or starting), else a new one (and a spare is started for the next call).
   */
  take(serverKey: string, capabilities: ClientCapabilities, client: string): string {
    const pair = pairOf(serverKey, capabilities, client);
    const spare = this.spares.get(pair);
    this.spares.delete(pair);
    const warm = spare && this.usable(spare) ? spare : undefined;
    if (spare && !warm) void this.stop(spare.owner, capabilities);
    const owner = warm?.owner ?? randomUUID();
    this.busy.set(owner, { pair, capabilities, serverKey });
    // A call that found no spare starts one for the next call, once its own connection is up (two
    // processes starting at once would slow it down). A warm one starts none: its lane comes back.
    if (!warm) void this.pool.connection(serverKey, profileOf(capabilities, owner))?.start().catch(() => undefined).then(() => this.prepare(serverKey, capabilities, pair));
    this.log.debug({ server: serverKey, warm: warm !== undefined }, 'bridged call lane');
    return owner;
  }

  /** A call ended: `settled` (it answered) keeps its lane as the spare if there is none; otherwise it stops. */
  giveBack(owner: string, settled: boolean): void {
    const lane = this.busy.get(owner);
    if (!lane) return;
    this.busy.delete(owner);
    const connection = this.pool.connections(lane.serverKey).find((c) => c.profile.owner === owner);
    const reusable = settled && connection && !this.spares.has(lane.pair) && this.usable({ owner, connection, since: 0 });
    if (reusable) this.spares.set(lane.pair, { owner, connection, since: Date.now() });
    else void this.stop(owner, lane.capabilities);
  }

  /** Whether a connection owner is one of the lanes (busy or spare): the releaser leaves them to this. */
  owns(owner: string): boolean {
    if (this.busy.has(owner)) return true;
    for (const spare of this.spares.values()) if (spare.owner === owner) return true;
    return false;
  }

  /** Stops the spares idle since before `cutoff`. */
  releaseIdle(cutoff: number): void {
    for (const [pair, spare] of this.spares) {
      if (spare.since > cutoff) continue;
      this.spares.delete(pair);
      void this.stop(spare.owner, spare.connection.profile.capabilities);
    }
  }

  /** Forgets every lane (the pool stops the connections). */
  close(): void {
    this.spares.clear();
    this.busy.clear();
  }

  private prepare(serverKey: string, capabilities: ClientCapabilities, pair: string): void {
    if (this.spares.has(pair) || !this.pool.has(serverKey)) return;
    const owner = randomUUID();
    const connection = this.pool.connection(serverKey, profileOf(capabilities, owner));
    if (!connection) return;
    this.spares.set(pair, { owner, connection, since: Date.now() });
    connection.start().catch((error: Error) => this.log.debug({ server: serverKey, err: error.message }, 'a spare for bridged calls did not start'));
  }

  /** Up or on its way up, and still the pool's. */
  private usable(lane: Lane): boolean {
    const state = lane.connection.state;
    return (state === 'connected' || state === 'connecting' || state === 'degraded') && this.pool.connections(lane.connection.key).includes(lane.connection);
  }

  private stop(owner: string, capabilities: ClientCapabilities): Promise<unknown> {
    return this.pool.releaseProfile(profileOf(capabilities, owner).key).catch(() => undefined);
  }
}

function pairOf(serverKey: string, capabilities: ClientCapabilities, client: string): string {
  return JSON.stringify([serverKey, profileOf(capabilities, undefined).key, client]);
}
