// Owns the feed of list changes for clients without a session: 2026-07-28 clients hear of them on
// their `subscriptions/listen` streams, not as notifications to a session. A change names the
// catalog (capability profile) and server it came from, or says the default toolset changed.
import type { ListKind } from '../servers/listing.js';

export interface ListChange {
  /** The catalog's capability profile key (unset: not a catalog change). */
  profileKey?: string;
  /** The server whose listing changed (unset: not one server's change). */
  server?: string;
  kinds: ListKind[];
  /** The gateway's default toolset was equipped or unequipped (toolset mode follows it). */
  toolsetDefault?: boolean;
}

export type ListChangeListener = (change: ListChange) => void;

export class ListChangeFeed {
  private readonly listeners = new Set<ListChangeListener>();

  /** Registers a listener; the returned function removes it. */
  subscribe(listener: ListChangeListener): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  publish(change: ListChange): void {
    for (const listener of this.listeners) listener(change);
  }

  get size(): number {
    return this.listeners.size;
  }
}
