// Owns `switchboard changes`: the catalog audit log (what each server added, updated or removed, and
// when), newest first, read from the store without starting any server.
import path from 'node:path';
import { changesFor, DEFAULT_CHANGES_LIMIT } from '../store/catalog-changes.js';
import { parseLimit } from '../store/query-bounds.js';
import { DEFAULT_DB_FILE, type CatalogChange, type ListingKind } from '../store/index.js';
import type { CommonOptions } from './context.js';
import { printJson, table } from './format.js';
import { dataDirOf, openExistingStore, parseSince, utcTime } from './metrics.js';

export interface ChangesOptions extends CommonOptions {
  since?: string;
  server?: string;
  limit?: string;
  json?: boolean;
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
