// Owns `switchboard refresh`: lists servers live (bare capability profile, like the other listing
// commands), saves each listing with change tracking, and reports per server how many tools, prompts,
// resources and templates were added, updated, removed or unchanged compared with the stored listing.
import type { Catalog } from '../catalog/catalog.js';
import { BARE_PROFILE } from '../servers/profile.js';
import { LISTING_KINDS, type ListingKind, type Store } from '../store/index.js';
import { changesFor } from '../store/catalog-changes.js';
import { gatewayFor, loadContext, openStore, type CommonOptions } from './context.js';
import { printJson, table } from './format.js';
import { UsageError } from './inventory.js';
import { ago } from './metrics.js';
import { CredentialStore } from '../auth/credential-store.js';

export interface RefreshOptions extends CommonOptions {
  server?: string;
  force?: boolean;
  json?: boolean;
}

/** A stored listing younger than this is fresh: refresh reports it without starting the server, unless --force. */
export const FRESH_MS = 60_000;

type Hashes = Map<ListingKind, Map<string, string>>;

export interface KindDiff {
  added: string[];
  updated: string[];
  removed: string[];
  unchanged: number;
}

export interface RefreshResult {
  server: string;
  /** listed: listed live and saved; fresh: skipped (listed < 1 min ago); failed: could not list; not_saved: listed, store write failed. */
  status: 'listed' | 'fresh' | 'failed' | 'not_saved';
  /** When the stored listing was saved, in ms since epoch (this run's time for listed servers); null if never. */
  listedAt: number | null;
  error?: string;
  /** Totals over the four kinds; null when the server was not compared (fresh, failed, not_saved). */
  added: number | null;
  updated: number | null;
  removed: number | null;
  unchanged: number | null;
  /** Per kind, with entry names; empty when not compared. */
  kinds: Partial<Record<ListingKind, KindDiff>>;
  /** Hashed fields that differ, per updated entry (`<kind>/<name>`), from the audit log. */
  fields: Record<string, string[]>;
}

function hashes(store: Store, id: string): Hashes {
  return new Map(LISTING_KINDS.map((kind) => [kind, store.catalog.entryHashes(id, kind)]));
}

/** When every kind of the server's listing was last saved (the oldest of the four); undefined if one never was. */
function listedAt(store: Store, id: string): number | undefined {
  const times = LISTING_KINDS.map((kind) => store.catalog.listedAt(id, kind));
  return times.some((t) => t === undefined) ? undefined : Math.min(...(times as number[]));
}

function diff(before: Map<string, string>, after: Map<string, string>): KindDiff {
  const result: KindDiff = { added: [], updated: [], removed: [], unchanged: 0 };
  for (const [name, hash] of after) {
    const old = before.get(name);
    if (old === undefined) result.added.push(name);
    else if (old !== hash) result.updated.push(name);
    else result.unchanged += 1;
  }
  for (const name of before.keys()) if (!after.has(name)) result.removed.push(name);
  return result;
}

function skipped(server: string, status: RefreshResult['status'], at: number | undefined, error?: string): RefreshResult {
  return {
    server,
    status,
    listedAt: at ?? null,
    ...(error !== undefined && { error }),
    added: null,
    updated: null,
    removed: null,
    unchanged: null,
    kinds: {},
    fields: {},
  };
}

function compare(store: Store, catalog: Catalog, key: string, before: Hashes, startedAt: number): RefreshResult {
  const id = catalog.storageKey(key);
  const error = catalog.listing(key).error;
  if (error !== undefined) return skipped(key, 'failed', listedAt(store, id), error);
  const at = listedAt(store, id);
  if (at === undefined || at < startedAt) {
    return skipped(key, 'not_saved', at, 'listed, but the listing could not be saved in the store (see the log)');
  }
  const after = hashes(store, id);
  const result: RefreshResult = { ...skipped(key, 'listed', at), added: 0, updated: 0, removed: 0, unchanged: 0 };
  for (const kind of LISTING_KINDS) {
    const d = diff(before.get(kind)!, after.get(kind)!);
    result.kinds[kind] = d;
    result.added! += d.added.length;
    result.updated! += d.updated.length;
    result.removed! += d.removed.length;
    result.unchanged! += d.unchanged;
  }
  for (const change of changesFor(store.catalog, { server: key, since: startedAt })) {
    if (change.server !== key || change.change !== 'updated') continue;
    const entry = `${change.kind}/${change.name}`;
    if (result.kinds[change.kind]?.updated.includes(change.name)) result.fields[entry] ??= change.diffSummary;
  }
  return result;
}

export async function refreshCommand(options: RefreshOptions): Promise<void> {
  const context = await loadContext(options, 'warn');
  const configured = context.config.servers;
  let selected: string[];
  if (options.server !== undefined) {
    const entry = configured.find((s) => s.key === options.server);
    if (!entry) throw new UsageError(`Unknown server "${options.server}". Configured: ${configured.map((s) => s.key).join(', ') || 'none'}.`);
    if (entry.disabled) throw new UsageError(`Server "${entry.key}" is disabled in ${context.config.file}; enable it to refresh it.`);
    selected = [entry.key];
  } else {
    selected = configured.filter((s) => !s.disabled).map((s) => s.key);
  }

  const store = openStore(context.dataDir);
  const gateway = gatewayFor(context.config, { connectTimeoutMs: 20_000, lazy: false }, { store, credentials: new CredentialStore(context.dataDir) });
  let results: RefreshResult[];
  try {
    await gateway.applyServers(configured);
    const catalog = gateway.catalogFor(BARE_PROFILE);
    const now = Date.now();
    const fresh = new Set(
      options.force
        ? []
        : selected.filter((key) => {
            const at = listedAt(store, catalog.storageKey(key));
            return at !== undefined && at <= now && now - at < FRESH_MS;
          }),
    );
    const live = selected.filter((key) => !fresh.has(key));
    const before = new Map(live.map((key) => [key, hashes(store, catalog.storageKey(key))]));
    const startedAt = Date.now();
    if (live.length) await catalog.ensure(live);
    results = selected.map((key) =>
      fresh.has(key) ? skipped(key, 'fresh', listedAt(store, catalog.storageKey(key))) : compare(store, catalog, key, before.get(key)!, startedAt),
    );
  } finally {
    await gateway.close();
    store.close();
  }

  if (results.some((r) => r.status === 'failed' || r.status === 'not_saved')) process.exitCode = 1;
  if (options.json) return printJson(results);
  if (results.length === 0) {
    process.stdout.write(`No enabled servers in ${context.config.file}.\n`);
    return;
  }
  const count = (n: number | null) => (n === null ? '-' : String(n));
  const now = Date.now();
  const status = (r: RefreshResult): string => {
    switch (r.status) {
      case 'listed':
        return 'listed live';
      case 'fresh':
        return `fresh: listed ${ago(r.listedAt!, now)}, not started (--force re-lists it)`;
      case 'failed':
        return `failed: ${r.error}`;
      case 'not_saved':
        return `not saved: ${r.error}`;
    }
  };
  process.stdout.write(
    `${table(
      ['SERVER', 'ADDED', 'UPDATED', 'REMOVED', 'UNCHANGED', 'STATUS'],
      results.map((r) => [r.server, count(r.added), count(r.updated), count(r.removed), count(r.unchanged), status(r)]),
      100,
    )}\n`,
  );
  const singular: Record<ListingKind, string> = { tools: 'tool', prompts: 'prompt', resources: 'resource', resourceTemplates: 'template' };
  for (const r of results) {
    const lines: string[] = [];
    for (const kind of LISTING_KINDS) {
      const d = r.kinds[kind];
      if (!d) continue;
      for (const name of d.added) lines.push(`  + ${singular[kind]} ${name}`);
      for (const name of d.updated) {
        const fields = r.fields[`${kind}/${name}`];
        lines.push(`  ~ ${singular[kind]} ${name}${fields?.length ? ` (${fields.join(', ')})` : ''}`);
      }
      for (const name of d.removed) lines.push(`  - ${singular[kind]} ${name}`);
    }
    if (lines.length) process.stdout.write(`${r.server}:\n${lines.join('\n')}\n`);
  }
}
