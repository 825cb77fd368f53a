// Owns reading the catalog audit log the way users name servers: by key, including the listings kept
// per capability profile (`key [sampling]`) and per server identity (`key #hash`), newest first, with
// the identity suffix hidden. Shared by `switchboard changes`/`refresh` and GET /api/changes.
import type { CatalogRepository } from './catalog-repository.js';
import type { CatalogChange } from './types.js';

export const DEFAULT_CHANGES_LIMIT = 1000;

/**
 * Audit rows newest first. A server key matches its own rows and those of its per-capability-profile listings
 * (`key [sampling]`, ...), which the store keeps under their own names.
 */
export function changesFor(catalog: CatalogRepository, query: { since?: number; server?: string; limit?: number }): CatalogChange[] {
  const limit = query.limit ?? DEFAULT_CHANGES_LIMIT;
  if (query.server === undefined) return catalog.changes({ since: query.since, limit }).map(shownServer);
  const key = query.server;
  // Listings are stored as `key`, `key [profile]`, and per server identity `key #hash` / `key [profile] #hash`.
  const names = [key, ...catalog.servers().filter((name) => name.startsWith(`${key} [`) || name.startsWith(`${key} #`))];
  const rows = names.flatMap((server) => catalog.changes({ since: query.since, server, limit }));
  rows.sort((a, b) => b.at - a.at || b.id - a.id);
  return rows.slice(0, limit).map(shownServer);
}

/** Users see the server key (and profile), not the identity suffix listings are stored under. */
function shownServer(change: CatalogChange): CatalogChange {
  return { ...change, server: change.server.replace(/ #[0-9a-f]{8}$/, '') };
}
