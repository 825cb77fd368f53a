// Owns resource subscriptions: which subscribers (2025 sessions, 2026-07-28 listen streams) watch
// which URI on which connection. The first subscriber subscribes downstream, the last one to leave
// unsubscribes (reference counting).
import type { Connection } from '../servers/connection.js';

/** Who hears a downstream's notifications/resources/updated for a URI it watches. */
export interface ResourceSubscriber {
  notifyResourceUpdated(params: Record<string, unknown>): void;
}

export class SubscriptionRegistry<S> {
  private readonly byConnection = new Map<Connection, Map<string, Set<S>>>();

  /** Adds a subscriber; returns true when it is the first for that URI (subscribe downstream). */
  add(connection: Connection, uri: string, session: S): boolean {
    let uris = this.byConnection.get(connection);
    if (!uris) this.byConnection.set(connection, (uris = new Map()));
    let sessions = uris.get(uri);
    if (!sessions) uris.set(uri, (sessions = new Set()));
    const first = sessions.size === 0;
    sessions.add(session);
    return first;
  }

  /** Removes a subscriber; returns true when it was the last one (unsubscribe downstream). */
  remove(connection: Connection, uri: string, session: S): boolean {
    const uris = this.byConnection.get(connection);
    const sessions = uris?.get(uri);
    if (!uris || !sessions || !sessions.delete(session)) return false;
    if (sessions.size > 0) return false;
    uris.delete(uri);
    if (uris.size === 0) this.byConnection.delete(connection);
    return true;
  }

  subscribers(connection: Connection, uri: string): ReadonlySet<S> {
    return this.byConnection.get(connection)?.get(uri) ?? new Set();
  }

  /** Every (connection, uri) a session holds, for cleanup when it ends. */
  heldBy(session: S): Array<{ connection: Connection; uri: string }> {
    const held: Array<{ connection: Connection; uri: string }> = [];
    for (const [connection, uris] of this.byConnection) {
      for (const [uri, sessions] of uris) if (sessions.has(session)) held.push({ connection, uri });
    }
    return held;
  }

  /** Whether anyone watches a URI on a connection. */
  holds(connection: Connection): boolean {
    return this.byConnection.has(connection);
  }

  /** Forgets everything about a connection (it was stopped). */
  dropConnection(connection: Connection): void {
    this.byConnection.delete(connection);
  }
}
