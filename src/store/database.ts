// Owns opening the SQLite file: data dir, pragmas, schema-version checks, migrations, and the Store handle.
import { closeSync, mkdirSync, openSync, readSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import Database from 'better-sqlite3';
import { SqliteToolsetRepository, type ToolsetRepository } from './toolset-repository.js';
import { SqliteCatalogRepository, type CatalogRepository } from './catalog-repository.js';
import { StoreError, describeError } from './errors.js';
import { SqliteMetricsRepository, checkRetentionDays, type MetricsRepository } from './metrics-repository.js';
import { SqliteLearnedQueryRepository, SqliteVectorRepository, type LearnedQueryRepository, type VectorRepository } from './search-repository.js';
import { JournaledMetricsRepository, recoverCallJournals, type CallJournalOptions } from './call-journal.js';
import { SqliteOptimizeRepository, type OptimizeRepository } from './optimize-repository.js';
import { SqlitePinRepository, type PinRepository } from './pin-repository.js';
import { SqliteHandshakeRepository, type HandshakeRepository } from './handshake-repository.js';
import { MIGRATIONS, checkMigrations, migrate, schemaVersion, type Migration } from './migrations.js';

export const DEFAULT_DB_FILE = 'switchboard.db';

export interface OpenDatabaseOptions {
  /** File name inside the data dir (default "switchboard.db"). */
  fileName?: string;
  /** Current time in ms since epoch (default Date.now); injected by tests. */
  clock?: () => number;
  /** Options for the metrics repository (retention of raw call rows). */
  metrics?: { retentionDays?: number };
  /**
   * Record calls through a journal file (one append per call, inserted in batches): for the serving
   * gateway, where the per-call SQLite commit is the cost. Journals of dead processes are always recovered.
   */
  callJournal?: CallJournalOptions;
  /** Options for learned search queries (their half-life in days). */
  search?: { halfLifeDays?: number };
  /** Migrations to apply instead of the built-in list (tests of later versions). */
  migrations?: readonly Migration[];
}

export interface Store {
  readonly db: Database.Database;
  /** Absolute path of the database file. */
  readonly path: string;
  /** The schema version after migrations. */
  readonly schemaVersion: number;
  /** "wal" normally; another value when the file system cannot do WAL (then writes are still transactional). */
  readonly journalMode: string;
  readonly catalog: CatalogRepository;
  readonly metrics: MetricsRepository;
  readonly toolsets: ToolsetRepository;
  readonly vectors: VectorRepository;
  readonly learnedQueries: LearnedQueryRepository;
  /** Description optimization: canonical tools, promotions, candidates, golden prompts, eval runs. */
  readonly optimize: OptimizeRepository;
  /** Pinned tool definitions (definition pinning, src/catalog/pinning.ts). */
  readonly pins: PinRepository;
  /** What each server answered to initialize at its last connection (per-server endpoints answer from it). */
  readonly handshakes: HandshakeRepository;
  /** Problems met while opening that did not stop it (e.g. a call journal that could not be recovered yet). */
  readonly warnings: string[];
  /** Closes the connection (idempotent). Using a repository afterwards throws. */
  close(): void;
}

const SQLITE_HEADER = Buffer.from('SQLite format 3\0', 'latin1');

let addon: string | null | undefined;
/**
 * better-sqlite3's addon where its install (a build or a prebuilt download) puts it, named directly:
 * the package's own lookup (the `bindings` package) tries a dozen paths first, ~2 ms of every start.
 * Undefined when it is not there, and that lookup finds it (or says what is missing). Unlike that
 * lookup, a Release build is taken over a Debug one beside it (only a developer of better-sqlite3
 * would have both).
 */
function addonFile(): string | undefined {
  if (addon === undefined) {
    try {
      // resolve() throws when the file is not there: no separate existence check.
      addon = createRequire(import.meta.url).resolve('better-sqlite3/build/Release/better_sqlite3.node');
    } catch {
      addon = null;
    }
  }
  return addon ?? undefined;
}

/**
 * Opens (creating if needed) `<dataDir>/switchboard.db`, refuses files it must not touch, migrates to the latest
 * schema and returns the Store. Throws StoreError with code open_failed, not_a_database, newer_schema or
 * migration_failed; in the refusal cases the file is left exactly as it was.
 */
export function openDatabase(dataDir: string, options: OpenDatabaseOptions = {}): Store {
  const dir = path.resolve(dataDir);
  const file = path.join(dir, options.fileName ?? DEFAULT_DB_FILE);
  const migrations = options.migrations ?? MIGRATIONS;
  checkMigrations(migrations);
  checkRetentionDays(options.metrics?.retentionDays); // bad options fail before the file is touched
  const latest = migrations.length ? migrations[migrations.length - 1].version : 0;

  try {
    mkdirSync(dir, { recursive: true });
  } catch (err) {
    throw openFailed(dir, `cannot create the data dir ${dir}: ${describeError(err)}; choose another --data-dir`, err);
  }
  checkHeader(file);

  let db: Database.Database;
  try {
    db = new Database(file, { nativeBinding: addonFile() });
  } catch (err) {
    const reason = describeError(err);
    throw openFailed(file, `cannot open ${file}: ${reason}; check its permissions or use another --data-dir`, err);
  }
  try {
    // Read-only until we know we may write: a newer schema must not be touched (not even switched to WAL).
    db.pragma('busy_timeout = 5000');
    const found = readVersion(db, file);
    if (found === 0) refuseForeign(db, file);
    if (found > latest) {
      throw new StoreError(
        'newer_schema',
        `${path.basename(file)} was written by a newer Switchboard (schema v${found}, this one knows v${latest}); ` +
          `upgrade Switchboard or use another --data-dir (file: ${file})`,
        { path: file },
      );
    }
    const journalMode = String(db.pragma('journal_mode = WAL', { simple: true }));
    db.pragma('synchronous = NORMAL'); // in WAL: a committed transaction survives a process crash
    db.pragma('foreign_keys = ON');
    const version = migrate(db, file, migrations);
    return createStore(db, dir, file, version, journalMode, options);
  } catch (err) {
    db.close();
    if (err instanceof StoreError) throw err;
    throw asOpenError(err, file);
  }
}

function createStore(
  db: Database.Database,
  dir: string,
  file: string,
  version: number,
  journalMode: string,
  options: OpenDatabaseOptions,
): Store {
  const clock = options.clock ?? Date.now;
  const catalog = new SqliteCatalogRepository(db, { clock });
  const direct = new SqliteMetricsRepository(db, { clock, retentionDays: options.metrics?.retentionDays });
  let recovery: string[];
  try {
    const report = recoverCallJournals(db, direct, dir);
    recovery = [
      ...report.errors.map((e) => `call journal not recovered yet (tried again at the next start): ${e}`),
      ...report.movedAside.map((m) => `call journal with unparseable lines moved aside, not deleted: ${m}`),
    ];
  } catch (err) {
    throw openFailed(dir, `cannot recover the call journals in ${dir}/call-journal: ${describeError(err)}; check that folder's permissions`, err);
  }
  const journaled = options.callJournal ? new JournaledMetricsRepository(db, direct, dir, options.callJournal) : undefined;
  const metrics = journaled ?? direct;
  return {
    db,
    path: file,
    schemaVersion: version,
    journalMode,
    catalog,
    metrics,
    toolsets: new SqliteToolsetRepository(db, clock),
    warnings: recovery,
    vectors: new SqliteVectorRepository(db, clock),
    learnedQueries: new SqliteLearnedQueryRepository(db, { clock, halfLifeDays: options.search?.halfLifeDays }),
    optimize: new SqliteOptimizeRepository(db, clock),
    pins: new SqlitePinRepository(db, clock),
    handshakes: new SqliteHandshakeRepository(db, clock),
    close() {
      if (!db.open) return;
      journaled?.close();
      try {
        db.pragma('optimize');
      } catch {
        // best effort: never keep a close from happening
      }
      db.close();
    },
  };
}

/** Refuses, before SQLite sees it, a non-empty file that does not start with the SQLite header. */
function checkHeader(file: string): void {
  let size: number;
  try {
    size = statSync(file).size;
  } catch {
    return; // does not exist yet: SQLite creates it
  }
  // SQLite would take an empty file as a new database; here it means one that lost its content
  // (truncated, or replaced by a failed copy), and silently starting over would hide the loss.
  if (size === 0) {
    throw new StoreError(
      'not_a_database',
      `${file} exists but is empty (0 bytes): the recorded calls, toolsets and catalog it held are gone from it. ` +
        'Restore it from a backup, or move it away to start with a new database (Switchboard creates one when the file is absent).',
      { path: file },
    );
  }
  const head = Buffer.alloc(SQLITE_HEADER.length);
  let read = 0;
  try {
    const fd = openSync(file, 'r');
    try {
      read = readSync(fd, head, 0, head.length, 0);
    } finally {
      closeSync(fd);
    }
  } catch (err) {
    const reason = describeError(err);
    throw openFailed(file, `cannot read ${file}: ${reason}; check its permissions or use another --data-dir`, err);
  }
  if (read < head.length || !head.equals(SQLITE_HEADER)) throw notADatabase(file);
}

/** A SQLite file at version 0 with tables of its own belongs to another program: never migrate it. */
function refuseForeign(db: Database.Database, file: string): void {
  const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all() as Array<{ name: string }>).map((t) => t.name);
  if (tables.length === 0) return;
  throw new StoreError(
    'not_a_database',
    `${file} is a SQLite database of another program (tables: ${tables.slice(0, 5).join(', ')}${tables.length > 5 ? ', ...' : ''}), not a Switchboard one; it was left untouched. Use another --data-dir or move the file away.`,
    { path: file },
  );
}

function readVersion(db: Database.Database, file: string): number {
  try {
    return schemaVersion(db);
  } catch (err) {
    throw asOpenError(err, file);
  }
}

function openFailed(target: string, message: string, cause: unknown): StoreError {
  return new StoreError('open_failed', message, { cause, path: target });
}

function notADatabase(file: string, cause?: unknown): StoreError {
  return new StoreError(
    'not_a_database',
    `${file} is not a Switchboard database (not a SQLite file, or damaged); move it away or use another --data-dir`,
    { cause, path: file },
  );
}

function asOpenError(err: unknown, file: string): StoreError {
  const code = (err as { code?: unknown })?.code;
  if (code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT') return notADatabase(file, err);
  if (code === 'SQLITE_BUSY') {
    return openFailed(file, `${file} is locked by another process (waited 5 s); stop it or use another --data-dir`, err);
  }
  const reason = describeError(err);
  return openFailed(file, `cannot open ${file}: ${reason}; check the file and its folder, or use another --data-dir`, err);
}

