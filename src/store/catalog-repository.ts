// Owns catalog persistence: each server's last listings, their content hashes, and the audit log of changes.
import type Database from 'better-sqlite3';
import { contentHash, entryKey } from './content-hash.js';
import { diffSummary } from './diff-summary.js';
import { StoreError, describeError } from './errors.js';
import {
  LISTING_KINDS,
  type CatalogChange,
  type ChangeSummary,
  type ChangeType,
  type ChangesQuery,
  type ListingEntry,
  type ListingKind,
} from './types.js';

/** Catalog storage behind an interface a Postgres store can implement too. */
export interface CatalogRepository {
  /**
   * Replaces the stored listing of one server and kind, compares content hashes with the previous one and, in the
   * same transaction, appends an audit row per added, updated and removed entry. Entries are keyed by name (uri
   * for resources, uriTemplate for templates); when a key repeats, its first occurrence is the one tracked.
   */
  saveListing(server: string, kind: ListingKind, entries: ListingEntry[]): ChangeSummary;
  /** The entries last saved for this server and kind, as saved (JSON round-trip); undefined if never saved. */
  loadListing(server: string, kind: ListingKind): ListingEntry[] | undefined;
  /** When a listing of this server (of this kind, if given) was last saved; undefined if never. */
  listedAt(server: string, kind?: ListingKind): number | undefined;
  /** Content hash per entry key of the stored listing (empty if never saved). */
  entryHashes(server: string, kind: ListingKind): Map<string, string>;
  /** Servers with at least one stored listing, sorted. */
  servers(): string[];
  /** Audit rows, newest first. */
  changes(query?: ChangesQuery): CatalogChange[];
  /** Deletes the server's stored listings (its audit rows stay). */
  forgetServer(server: string): void;
}

export interface CatalogRepositoryOptions {
  clock: () => number;
}

const DEFAULT_CHANGES_LIMIT = 1000;

interface StoredEntry {
  name: string;
  hash: string;
  entry: string;
}

interface ChangeRow {
  id: number;
  server: string;
  kind: ListingKind;
  name: string;
  change: ChangeType;
  old_hash: string | null;
  new_hash: string | null;
  at: number;
  diff_summary: string;
}

export class SqliteCatalogRepository implements CatalogRepository {
  private readonly db: Database.Database;
  private readonly clock: () => number;
  private readonly stmt;
  private readonly changesStatements = new Map<string, Database.Statement>();

  constructor(db: Database.Database, options: CatalogRepositoryOptions) {
    this.db = db;
    this.clock = options.clock;
    this.stmt = {
      storedEntries: db.prepare<[string, string], StoredEntry>(
        'SELECT name, hash, entry FROM catalog_entries WHERE server = ? AND kind = ? ORDER BY position',
      ),
      upsertListing: db.prepare<[string, string, number, string]>(
        `INSERT INTO catalog_listings (server, kind, listed_at, entries) VALUES (?, ?, ?, ?)
         ON CONFLICT (server, kind) DO UPDATE SET listed_at = excluded.listed_at, entries = excluded.entries`,
      ),
      deleteEntries: db.prepare<[string, string]>('DELETE FROM catalog_entries WHERE server = ? AND kind = ?'),
      insertEntry: db.prepare<[string, string, string, number, string, string]>(
        'INSERT INTO catalog_entries (server, kind, name, position, hash, entry) VALUES (?, ?, ?, ?, ?, ?)',
      ),
      insertChange: db.prepare<[string, string, string, ChangeType, string | null, string | null, number, string]>(
        `INSERT INTO catalog_changes (server, kind, name, change, old_hash, new_hash, at, diff_summary)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      listing: db.prepare<[string, string], { entries: string }>(
        'SELECT entries FROM catalog_listings WHERE server = ? AND kind = ?',
      ),
      listedAt: db.prepare<[string], { at: number | null }>(
        'SELECT MAX(listed_at) AS at FROM catalog_listings WHERE server = ?',
      ),
      listedAtKind: db.prepare<[string, string], { at: number }>(
        'SELECT listed_at AS at FROM catalog_listings WHERE server = ? AND kind = ?',
      ),
      servers: db.prepare<[], { server: string }>('SELECT DISTINCT server FROM catalog_listings ORDER BY server'),
      forget: db.prepare<[string]>('DELETE FROM catalog_listings WHERE server = ?'),
    };
  }

  saveListing(server: string, kind: ListingKind, entries: ListingEntry[]): ChangeSummary {
    const where = `saveListing(${JSON.stringify(server)}, ${JSON.stringify(kind)})`;
    checkServer(server, where);
    checkKind(kind, where);
    if (!Array.isArray(entries)) throw new StoreError('invalid_input', `${where}: entries must be an array`);
    // Pure work first, outside the write transaction.
    const fresh = new Map<string, { position: number; hash: string; entry: ListingEntry; json: string }>();
    entries.forEach((entry, i) => {
      if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
        throw new StoreError('invalid_input', `${where}: entry ${i} is not an object`);
      }
      const key = entryKey(kind, entry, `${where}: entry ${i}`);
      if (fresh.has(key)) return;
      fresh.set(key, { position: i, ...serialize(entry, kind, `${where}: entry ${i}`) });
    });
    const listingJson = JSON.stringify(entries);
    const at = this.clock();

    const save = this.db.transaction((): ChangeSummary => {
      const stored = new Map(this.stmt.storedEntries.all(server, kind).map((row) => [row.name, row]));
      const summary: ChangeSummary = { added: [], updated: [], removed: [], unchanged: 0 };
      for (const [name, next] of fresh) {
        const before = stored.get(name);
        if (!before) {
          summary.added.push(name);
          this.stmt.insertChange.run(server, kind, name, 'added', null, next.hash, at, '[]');
        } else if (before.hash !== next.hash) {
          summary.updated.push(name);
          const diff = diffSummary(kind, JSON.parse(before.entry) as ListingEntry, next.entry);
          this.stmt.insertChange.run(server, kind, name, 'updated', before.hash, next.hash, at, JSON.stringify(diff));
        } else {
          summary.unchanged += 1;
        }
      }
      for (const [name, before] of stored) {
        if (fresh.has(name)) continue;
        summary.removed.push(name);
        this.stmt.insertChange.run(server, kind, name, 'removed', before.hash, null, at, '[]');
      }
      this.stmt.upsertListing.run(server, kind, at, listingJson);
      this.stmt.deleteEntries.run(server, kind);
      for (const [name, next] of fresh) {
        this.stmt.insertEntry.run(server, kind, name, next.position, next.hash, next.json);
      }
      return summary;
    });
    return save.immediate();
  }

  loadListing(server: string, kind: ListingKind): ListingEntry[] | undefined {
    const row = this.stmt.listing.get(server, kind);
    return row ? (JSON.parse(row.entries) as ListingEntry[]) : undefined;
  }

  listedAt(server: string, kind?: ListingKind): number | undefined {
    const at = kind === undefined ? this.stmt.listedAt.get(server)?.at : this.stmt.listedAtKind.get(server, kind)?.at;
    return at ?? undefined;
  }

  entryHashes(server: string, kind: ListingKind): Map<string, string> {
    return new Map(this.stmt.storedEntries.all(server, kind).map((row) => [row.name, row.hash]));
  }

  servers(): string[] {
    return this.stmt.servers.all().map((row) => row.server);
  }

  changes(query: ChangesQuery = {}): CatalogChange[] {
    const limit = query.limit ?? DEFAULT_CHANGES_LIMIT;
    if (!Number.isInteger(limit) || limit < 1) {
      throw new StoreError('invalid_input', `changes(): limit must be a positive integer, got ${limit}`);
    }
    const conditions: string[] = [];
    const params: Array<string | number> = [];
    if (query.since !== undefined) {
      conditions.push('at >= ?');
      params.push(query.since);
    }
    if (query.server !== undefined) {
      conditions.push('server = ?');
      params.push(query.server);
    }
    const whereSql = conditions.length ? `WHERE ${conditions.join(' AND ')}` : '';
    const statement = this.changesStatement(whereSql);
    return (statement.all(...params, limit) as ChangeRow[]).map(toChange);
  }

  forgetServer(server: string): void {
    this.stmt.forget.run(server); // catalog_entries follow by ON DELETE CASCADE
  }

  private changesStatement(whereSql: string): Database.Statement {
    let statement = this.changesStatements.get(whereSql);
    if (!statement) {
      statement = this.db.prepare(
        `SELECT id, server, kind, name, change, old_hash, new_hash, at, diff_summary
         FROM catalog_changes ${whereSql} ORDER BY at DESC, id DESC LIMIT ?`,
      );
      this.changesStatements.set(whereSql, statement);
    }
    return statement;
  }
}

function serialize(
  entry: ListingEntry,
  kind: ListingKind,
  where: string,
): { hash: string; entry: ListingEntry; json: string } {
  try {
    return { hash: contentHash(kind, entry), entry, json: JSON.stringify(entry) };
  } catch (err) {
    throw new StoreError('invalid_input', `${where} cannot be stored as JSON: ${describeError(err)}`, { cause: err });
  }
}

function toChange(row: ChangeRow): CatalogChange {
  return {
    id: row.id,
    server: row.server,
    kind: row.kind,
    name: row.name,
    change: row.change,
    oldHash: row.old_hash,
    newHash: row.new_hash,
    at: row.at,
    diffSummary: JSON.parse(row.diff_summary) as string[],
  };
}

function checkServer(server: unknown, where: string): void {
  if (typeof server !== 'string' || server === '') {
    throw new StoreError('invalid_input', `${where}: server must be a non-empty string (the key in .mcp.json)`);
  }
}

function checkKind(kind: unknown, where: string): void {
  if (!LISTING_KINDS.includes(kind as ListingKind)) {
    throw new StoreError('invalid_input', `${where}: kind must be one of ${LISTING_KINDS.join(', ')}`);
  }
}
