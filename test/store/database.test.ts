import { readFileSync, readdirSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { LATEST_VERSION, MIGRATIONS, StoreError, openDatabase, type Migration } from '../../src/store/index.js';
import { tempStores, thrown } from './helpers.js';

const stores = tempStores();
afterEach(() => stores.cleanup());

const V1_TABLES = ['catalog_changes', 'catalog_entries', 'catalog_listings', 'metrics_calls', 'metrics_daily', 'store_meta'];
const LATEST_TABLES = [...V1_TABLES, 'gateway_state', 'toolsets', 'search_queries', 'search_vectors',
  'optimize_candidates', 'optimize_canonical_tools', 'optimize_eval_runs', 'optimize_golden_prompts', 'optimize_promotions', 'server_handshakes', 'tool_pins'].sort();
/** The schema as the first release wrote it: for upgrade tests. */
const ONLY_V1 = MIGRATIONS.slice(0, 1);

function tables(db: Database.Database): string[] {
  // sqlite_stat* tables appear once PRAGMA optimize (run on close) has analysed a database.
  return (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").all() as { name: string }[]).map(
    (r) => r.name,
  );
}

describe('openDatabase', () => {
  it('creates the data dir and migrates an empty file to the latest schema with the documented pragmas', () => {
    const dataDir = path.join(stores.dir(), 'nested', 'data');
    const store = stores.open({}, dataDir);
    expect(store.path).toBe(path.join(dataDir, 'switchboard.db'));
    expect(store.schemaVersion).toBe(LATEST_VERSION);
    expect(store.db.pragma('user_version', { simple: true })).toBe(LATEST_VERSION);
    expect(store.journalMode).toBe('wal');
    expect(store.db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(store.db.pragma('synchronous', { simple: true })).toBe(1); // NORMAL
    expect(store.db.pragma('busy_timeout', { simple: true })).toBe(5000);
    expect(store.db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(tables(store.db)).toEqual(LATEST_TABLES);
  });

  it('refuses a zero-byte file (a database that lost its content is never silently re-initialized) and honours fileName', () => {
    const dir = stores.dir();
    writeFileSync(path.join(dir, 'other.db'), '');
    expect(() => stores.open({ fileName: 'other.db' }, dir)).toThrow(/other\.db exists but is empty \(0 bytes\).*Restore it from a backup, or move it away/);
    expect(readFileSync(path.join(dir, 'other.db')).length).toBe(0);
    expect(readdirSync(dir)).not.toContain('switchboard.db');
  });

  it('refuses a SQLite file of another program and leaves it untouched', () => {
    const dir = stores.dir();
    const foreign = new Database(path.join(dir, 'switchboard.db'));
    foreign.exec("CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL); INSERT INTO invoices (total) VALUES (9.5)");
    foreign.close();
    const before = readFileSync(path.join(dir, 'switchboard.db'));
    expect(() => stores.open({}, dir)).toThrow(/a SQLite database of another program \(tables: invoices\)/);
    expect(readFileSync(path.join(dir, 'switchboard.db')).equals(before)).toBe(true);
  });

  it('reopens a file without re-running migrations and keeps its data', () => {
    const dir = stores.dir();
    const first = openDatabase(dir);
    first.catalog.saveListing('fs', 'tools', [{ name: 'read', inputSchema: { type: 'object' } }]);
    first.close();
    first.close(); // idempotent

    const again = stores.open({}, dir);
    expect(again.schemaVersion).toBe(LATEST_VERSION);
    expect(again.catalog.loadListing('fs', 'tools')).toEqual([{ name: 'read', inputSchema: { type: 'object' } }]);
    expect(again.catalog.changes()).toHaveLength(1);
  });

  it('upgrades a file from every earlier schema version to the latest, keeping its data', () => {
    // Listings keyed by server identity (`key #hash`) are kept; ones keyed by a bare name are dropped by the
    // identity migration (they may belong to another project's server of that name), their audit rows kept.
    const byIdentity = MIGRATIONS.find((m) => m.name === 'listings_by_server_identity')!.version;
    for (let from = 1; from < LATEST_VERSION; from++) {
      const dir = stores.dir();
      const old = openDatabase(dir, { migrations: MIGRATIONS.slice(0, from) });
      old.catalog.saveListing('fs #0a1b2c3d', 'tools', [{ name: 'read', inputSchema: { type: 'object' } }]);
      old.catalog.saveListing('x', 'tools', [{ name: 'echo', inputSchema: { type: 'object' } }]);
      old.close();
      const store = stores.open({}, dir);
      expect(store.schemaVersion).toBe(LATEST_VERSION);
      expect(tables(store.db)).toEqual(LATEST_TABLES);
      expect(store.catalog.loadListing('fs #0a1b2c3d', 'tools')).toHaveLength(1);
      expect(store.catalog.loadListing('x', 'tools') ?? []).toHaveLength(from < byIdentity ? 0 : 1);
      expect(store.catalog.changes({ server: 'x' })).toHaveLength(1);
      store.toolsets.save({ name: 'dev', tools: [{ server: 'fs', tool: 'read' }] });
      expect(store.toolsets.get('dev')?.tools).toEqual([{ server: 'fs', tool: 'read' }]);
    }
  });

  it('upgrades with migrations appended later, each in its own transaction', () => {
    const dir = stores.dir();
    openDatabase(dir, { migrations: ONLY_V1 }).close();
    const next: Migration = {
      version: 2,
      name: 'extra',
      up: (db) => db.exec('CREATE TABLE extra (name TEXT PRIMARY KEY)'),
    };
    const store = stores.open({ migrations: [...ONLY_V1, next] }, dir);
    expect(store.schemaVersion).toBe(2);
    expect(tables(store.db)).toContain('extra');
  });

  it('rolls a failing migration back completely and leaves the file at the previous version', () => {
    const dir = stores.dir();
    openDatabase(dir, { migrations: ONLY_V1 }).close();
    const broken: Migration = {
      version: 2,
      name: 'broken',
      up(db) {
        db.exec('CREATE TABLE half_done (x INTEGER)');
        db.exec('INSERT INTO no_such_table VALUES (1)');
      },
    };
    const err = thrown(() => openDatabase(dir, { migrations: [...ONLY_V1, broken] }));
    expect(err).toBeInstanceOf(StoreError);
    expect((err as StoreError).code).toBe('migration_failed');
    expect((err as StoreError).message).toMatch(/migration 2 \(broken\) failed and was rolled back: no such table: no_such_table/);

    const store = stores.open({ migrations: ONLY_V1 }, dir);
    expect(store.schemaVersion).toBe(1);
    expect(tables(store.db)).toEqual(V1_TABLES);
  });

  it('refuses a file written by a newer Switchboard and leaves it byte-identical', () => {
    const dir = stores.dir();
    const file = path.join(dir, 'switchboard.db');
    const newer = new Database(file);
    newer.pragma('journal_mode = WAL');
    newer.exec('CREATE TABLE from_the_future (x TEXT); INSERT INTO from_the_future VALUES (1)');
    newer.pragma(`user_version = ${LATEST_VERSION + 1}`);
    newer.close();
    const before = readFileSync(file);
    const filesBefore = readdirSync(dir);

    const err = thrown(() => openDatabase(dir));
    expect(err).toBeInstanceOf(StoreError);
    expect((err as StoreError).code).toBe('newer_schema');
    expect((err as StoreError).message).toContain(
      `switchboard.db was written by a newer Switchboard (schema v${LATEST_VERSION + 1}, this one knows v${LATEST_VERSION}); ` +
        'upgrade Switchboard or use another --data-dir',
    );
    expect((err as StoreError).path).toBe(file);
    expect(readFileSync(file).equals(before)).toBe(true);
    expect(readdirSync(dir)).toEqual(filesBefore);
  });

  it('refuses a file that is not a database, naming the path, and does not change it', () => {
    const dir = stores.dir();
    const file = path.join(dir, 'switchboard.db');
    const text = '{"mcpServers": {}}\n'.repeat(50);
    writeFileSync(file, text);
    const err = thrown(() => openDatabase(dir));
    expect(err).toBeInstanceOf(StoreError);
    expect((err as StoreError).code).toBe('not_a_database');
    expect((err as StoreError).message).toBe(
      `${file} is not a Switchboard database (not a SQLite file, or damaged); move it away or use another --data-dir`,
    );
    expect(readFileSync(file, 'utf8')).toBe(text);
  });

  it('refuses a damaged SQLite file with the same clear error', () => {
    const dir = stores.dir();
    const file = path.join(dir, 'switchboard.db');
    const bytes = Buffer.alloc(4096, 0x5a);
    Buffer.from('SQLite format 3\0', 'latin1').copy(bytes);
    writeFileSync(file, bytes);
    const err = thrown(() => openDatabase(dir));
    expect((err as StoreError).code).toBe('not_a_database');
    expect((err as StoreError).message).toContain(file);
  });

  it('says which data dir cannot be created', () => {
    const dir = stores.dir();
    writeFileSync(path.join(dir, 'a-file'), 'x');
    const err = thrown(() => openDatabase(path.join(dir, 'a-file', 'data')));
    expect(err).toBeInstanceOf(StoreError);
    expect((err as StoreError).code).toBe('open_failed');
    expect((err as StoreError).message).toMatch(/cannot create the data dir .*a-file\/data: .*choose another --data-dir/);
  });

  it('says so when the database file is a folder', () => {
    const dir = stores.dir();
    mkdirSync(path.join(dir, 'switchboard.db'));
    const err = thrown(() => openDatabase(dir));
    expect(err).toBeInstanceOf(StoreError);
    expect((err as StoreError).message).toContain(path.join(dir, 'switchboard.db'));
  });
});

describe('migrations list', () => {
  it('is numbered 1..N without gaps and LATEST_VERSION is the last', () => {
    MIGRATIONS.forEach((m, i) => expect(m.version).toBe(i + 1));
    expect(LATEST_VERSION).toBe(MIGRATIONS.length);
  });

  it('rejects a list with a gap before touching the file', () => {
    const dir = stores.dir();
    const gap: Migration = { version: 3, name: 'gap', up: () => undefined };
    expect(() => openDatabase(dir, { migrations: [...ONLY_V1, gap] })).toThrow(/entry 1 \("gap"\) has version 3, expected 2/);
    expect(readdirSync(dir)).toEqual([]);
  });
});
