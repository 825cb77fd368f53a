// Owns what the gateway reports about its servers: one state per server (the best of its connections,
// one per client capability profile), why it is not serving (its connection's last error, else its
// last listing's), which need a login, and which are down.
import { loginHint } from '../auth/errors.js';
import type { Catalog } from '../catalog/catalog.js';
import type { ConnectionStatus } from '../servers/connection.js';
import type { ServerPool } from '../servers/pool.js';

export interface ServerStatus {
  key: string;
  transport: string;
  state: string;
  error: string | null;
  connections: ConnectionStatus[];
}

const BEST_FIRST = ['connected', 'degraded', 'connecting', 'circuit-open', 'failed', 'configured', 'stopped'];

/** One state for a server with several connections (one per profile): the best of them. */
export function serverState(pool: ServerPool, key: string): string {
  const states = pool.connections(key).map((c) => c.state as string);
  return BEST_FIRST.find((state) => states.includes(state)) ?? 'configured';
}

/**
 * Every configured server: one state ("configured" when no connection runs), why it is not serving
 * when it is not, and its connections. bare: the bare profile's catalog, whose listing errors explain
 * a server that never connected.
 */
export function serverStatuses(pool: ServerPool, bare: Catalog | undefined): ServerStatus[] {
  return pool.keys().map((key) => {
    const connections = pool.connections(key).map((c) => c.status());
    const state = serverState(pool, key);
    const transport = pool.config(key)!.transport;
    if (pool.needsLogin(key)) return { key, transport, state: 'needs-login', error: loginHint(key), connections };
    const serving = state === 'connected' || state === 'degraded';
    const error = serving ? null : (connections.find((c) => c.lastError)?.lastError ?? bare?.listing(key).error ?? null);
    return { key, transport, state: error && state === 'configured' ? 'failed' : state, error, connections };
  });
}

/** Servers that are configured but not serving because they failed (a server not started yet is not down). */
export function downServers(statuses: ServerStatus[]): Array<{ key: string; state: string; error: string | null }> {
  return statuses
    .filter((s) => s.state === 'failed' || s.state === 'circuit-open' || s.state === 'needs-login' || (s.error !== null && s.state !== 'connected' && s.state !== 'degraded'))
    .map(({ key, state, error }) => ({ key, state, error }));
}
