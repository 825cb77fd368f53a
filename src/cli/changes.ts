// Owns `switchboard changes`: the catalog audit log (what each server added, updated or removed, and
// when), newest first, read from the store without starting any server.
import path from 'node:path';
import { DEFAULT_DB_FILE, type CatalogChange, type CatalogRepository, type ListingKind } from '../store/index.js';
import type { CommonOptions } from './context.js';
import { printJson, table } from './format.js';
import { UsageError } from './inventory.js';
import { dataDirOf, openExistingStore, parseSince, utcTime } from './metrics.js';

export interface ChangesOptions extends CommonOptions {
  since?: string;
  server?: string;
  limit?: string;
  json?: boolean;
}

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

/** A positive whole number from a --limit style option, or UsageError. */
export function parseLimit(value: string | undefined, label = '--limit'): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`${label} must be a whole number of rows >= 1 (got "${value}")`);
  return n;
}

const KIND_LABEL: Record<ListingKind, string> = { tools: 'tool', prompts: 'prompt', resources: 'resource', resourceTemplates: 'template' };

export async function changesCommand(options: ChangesOptions): Promise<void> {
  const since = options.since === undefined ? undefined : parseSince(options.since);
  const limit = parseLimit(options.limit) ?? DEFAULT_CHANGES_LIMIT;
  const dataDir = dataDirOf(options);
  const store = openExistingStore(dataDir);
  let rows: CatalogChange[] = [];
  try {
    if (store) rows = changesFor(store.catalog, { since, server: options.server, limit });
  } finally {
    store?.close();
  }
  if (options.json) return printJson(rows); // the store's CatalogChange rows, as GET /api/changes gives them

  if (rows.length === 0) {
    const scope = [options.server && `server "${options.server}"`, since !== undefined && `since ${utcTime(since)}`].filter(Boolean);
    const file = path.join(dataDir, DEFAULT_DB_FILE);
    const where = store ? `in ${file}` : `(no store yet at ${file}; "switchboard serve" or "switchboard refresh" creates it)`;
    process.stdout.write(`No catalog changes recorded${scope.length ? ` for ${scope.join(', ')}` : ''} ${where}.\n`);
    return;
  }
  process.stdout.write(
    `${table(
      ['TIME', 'SERVER', 'KIND', 'NAME', 'CHANGE', 'FIELDS'],
      rows.map((r) => [utcTime(r.at), r.server, KIND_LABEL[r.kind], r.name, r.change, r.diffSummary.join(', ')]),
      80,
    )}\n`,
  );
  const more = rows.length === limit ? ` (the newest ${limit}; use --limit or --since to see others)` : '';
  process.stdout.write(`${rows.length} change(s)${more}\n`);
}
