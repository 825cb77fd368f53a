// Owns the schema history: an ordered, append-only list of migrations and the code that applies them.
import type Database from 'better-sqlite3';
import { StoreError, describeError } from './errors.js';

export interface Migration {
  /** 1, 2, 3, ...: the schema version (PRAGMA user_version) once this migration has run. */
  version: number;
  /** Short snake_case description, shown in errors. */
  name: string;
  /** Applies the change. Runs inside a transaction together with the user_version bump. */
  up(db: Database.Database): void;
}

/**
 * Every schema change ever made, oldest first. Never edit or reorder a shipped migration: append a new one
 * with the next version (a released database may already be at any earlier version).
 */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'catalog_and_call_metrics',
    up(db) {
      db.exec(`
        CREATE TABLE store_meta (
          key   TEXT PRIMARY KEY,
          value TEXT NOT NULL
        );

        -- The last listing of each server and kind, verbatim (JSON array), and when it was saved.
        CREATE TABLE catalog_listings (
          server    TEXT    NOT NULL,
          kind      TEXT    NOT NULL CHECK (kind IN ('tools', 'prompts', 'resources', 'resourceTemplates')),
          listed_at INTEGER NOT NULL,
          entries   TEXT    NOT NULL,
          PRIMARY KEY (server, kind)
        );

        -- One row per entry key of the last listing, with its content hash (first occurrence of a key wins).
        CREATE TABLE catalog_entries (
          server   TEXT    NOT NULL,
          kind     TEXT    NOT NULL,
          name     TEXT    NOT NULL,
          position INTEGER NOT NULL,
          hash     TEXT    NOT NULL,
          entry    TEXT    NOT NULL,
          PRIMARY KEY (server, kind, name),
          FOREIGN KEY (server, kind) REFERENCES catalog_listings (server, kind) ON DELETE CASCADE
        );

        -- Audit log: every added, updated or removed entry; never pruned by forgetServer.
        CREATE TABLE catalog_changes (
          id           INTEGER PRIMARY KEY,
          server       TEXT    NOT NULL,
          kind         TEXT    NOT NULL,
          name         TEXT    NOT NULL,
          change       TEXT    NOT NULL CHECK (change IN ('added', 'updated', 'removed')),
          old_hash     TEXT,
          new_hash     TEXT,
          at           INTEGER NOT NULL,
          diff_summary TEXT    NOT NULL
        );
        CREATE INDEX catalog_changes_at ON catalog_changes (at);
        CREATE INDEX catalog_changes_server_at ON catalog_changes (server, at);

        -- Raw forwarded calls; rolled up into metrics_daily and deleted after the retention period.
        -- No secondary index on purpose: each one adds a page write to every insert (the hot path), while the
        -- readers (stats, rollup) scan at most retention-days of rows anyway.
        CREATE TABLE metrics_calls (
          id            INTEGER PRIMARY KEY,
          server        TEXT    NOT NULL,
          tool          TEXT    NOT NULL,
          session       TEXT,
          started_at    INTEGER NOT NULL,
          duration_ms   REAL    NOT NULL,
          outcome       TEXT    NOT NULL
            CHECK (outcome IN ('ok', 'tool_error', 'protocol_error', 'timeout', 'server_down', 'cancelled')),
          error_class   TEXT,
          error_message TEXT,
          result_bytes  INTEGER
        );

        -- One row per server, tool and UTC day (YYYY-MM-DD); kept forever.
        CREATE TABLE metrics_daily (
          server         TEXT    NOT NULL,
          tool           TEXT    NOT NULL,
          day            TEXT    NOT NULL,
          calls          INTEGER NOT NULL,
          successes      INTEGER NOT NULL,
          failures       INTEGER NOT NULL,
          cancelled      INTEGER NOT NULL,
          total_ms       REAL    NOT NULL,
          p50            REAL    NOT NULL,
          p95            REAL    NOT NULL,
          p99            REAL    NOT NULL,
          last_error     TEXT,
          last_error_at  INTEGER,
          last_called_at INTEGER NOT NULL,
          PRIMARY KEY (server, tool, day)
        );
      `);
    },
  },
  {
    version: 2,
    name: 'toolsets',
    up(db) {
      db.exec(`
        -- Saved toolsets: a name, an optional description and the tool references (JSON array).
        CREATE TABLE toolsets (
          name        TEXT    PRIMARY KEY,
          description TEXT,
          tools       TEXT    NOT NULL,
          created_at  INTEGER NOT NULL,
          updated_at  INTEGER NOT NULL
        );

        -- Small pieces of gateway state that must survive a restart (the equipped toolset, ...).
        CREATE TABLE gateway_state (
          key   TEXT PRIMARY KEY,
          value TEXT NOT NULL
        );
      `);
    },
  },
  {
    version: 3,
    name: 'search',
    up(db) {
      db.exec(`
        -- Embedding vectors of tool texts, keyed by the embedding model and the sha256 of the embedded text,
        -- so a tool is re-embedded only when its text (or the model) changes. vector: float32 little-endian.
        CREATE TABLE search_vectors (
          model        TEXT    NOT NULL,
          content_hash TEXT    NOT NULL,
          dimensions   INTEGER NOT NULL,
          vector       BLOB    NOT NULL,
          created_at   INTEGER NOT NULL,
          PRIMARY KEY (model, content_hash)
        ) WITHOUT ROWID;

        -- Learning from use: queries that led a session to call a tool (server + original tool name), with a
        -- weight that grows on repeats and fades with age (see src/search/learning.ts).
        CREATE TABLE search_queries (
          server     TEXT    NOT NULL,
          tool       TEXT    NOT NULL,
          query      TEXT    NOT NULL,
          weight     REAL    NOT NULL,
          updated_at INTEGER NOT NULL,
          PRIMARY KEY (server, tool, query)
        ) WITHOUT ROWID;
      `);
    },
  },
  {
    version: 4,
    name: 'optimization',
    up(db) {
      db.exec(`
        -- Description optimization (src/optimize). The canonical tool as its server last listed it, captured
        -- on first listing; hash: content hash of the tool (name, description, schemas, annotations).
        CREATE TABLE optimize_canonical_tools (
          server      TEXT    NOT NULL,
          tool        TEXT    NOT NULL,
          hash        TEXT    NOT NULL,
          definition  TEXT    NOT NULL,
          captured_at INTEGER NOT NULL,
          updated_at  INTEGER NOT NULL,
          PRIMARY KEY (server, tool)
        ) WITHOUT ROWID;

        -- Promoted descriptions with their evaluation record; history kept (reverted_at set on revert).
        -- stale = 1: the server changed the tool after the promotion (canonical_hash no longer matches).
        CREATE TABLE optimize_promotions (
          id             INTEGER PRIMARY KEY,
          server         TEXT    NOT NULL,
          tool           TEXT    NOT NULL,
          description    TEXT    NOT NULL,
          candidate_id   TEXT,
          canonical_hash TEXT    NOT NULL,
          evaluation     TEXT,
          forced         INTEGER NOT NULL DEFAULT 0,
          stale          INTEGER NOT NULL DEFAULT 0,
          stale_reason   TEXT,
          promoted_at    INTEGER NOT NULL,
          reverted_at    INTEGER
        );
        CREATE UNIQUE INDEX optimize_promotions_active ON optimize_promotions (server, tool) WHERE reverted_at IS NULL;

        CREATE TABLE optimize_candidates (
          id          TEXT    PRIMARY KEY,
          server      TEXT    NOT NULL,
          tool        TEXT    NOT NULL,
          description TEXT    NOT NULL,
          example     TEXT,
          source      TEXT    NOT NULL,
          lint        TEXT    NOT NULL,
          created_at  INTEGER NOT NULL
        );
        CREATE INDEX optimize_candidates_tool ON optimize_candidates (server, tool);

        CREATE TABLE optimize_golden_prompts (
          id          TEXT    PRIMARY KEY,
          server      TEXT    NOT NULL,
          tool        TEXT    NOT NULL,
          category    TEXT    NOT NULL CHECK (category IN ('direct', 'indirect', 'negative')),
          prompt      TEXT    NOT NULL,
          should_call INTEGER NOT NULL,
          notes       TEXT,
          split       TEXT    NOT NULL CHECK (split IN ('optimize', 'holdout')),
          source      TEXT    NOT NULL,
          created_at  INTEGER NOT NULL
        );
        CREATE INDEX optimize_golden_prompts_tool ON optimize_golden_prompts (server, tool);

        -- One row per (subject, prompt, repeat) of an evaluation batch. subject: a candidate id, "canonical",
        -- "paraphrase" (the null control) or "paraphrase:<candidate id>".
        CREATE TABLE optimize_eval_runs (
          id          INTEGER PRIMARY KEY,
          batch       TEXT    NOT NULL,
          server      TEXT    NOT NULL,
          tool        TEXT    NOT NULL,
          subject     TEXT    NOT NULL,
          prompt_id   TEXT    NOT NULL,
          repeat      INTEGER NOT NULL,
          backend     TEXT    NOT NULL,
          model       TEXT    NOT NULL,
          arm         TEXT    NOT NULL,
          tool_called INTEGER NOT NULL,
          called_tool TEXT,
          correct     INTEGER NOT NULL,
          error       TEXT,
          duration_ms REAL    NOT NULL,
          tokens      INTEGER,
          created_at  INTEGER NOT NULL
        );
        CREATE INDEX optimize_eval_runs_batch ON optimize_eval_runs (batch);
        CREATE INDEX optimize_eval_runs_tool ON optimize_eval_runs (server, tool);
      `);
    },
  },
  {
    version: 5,
    name: 'call_correlation',
    up(db) {
      db.exec(`
        -- Related requests share a correlation id (a discovery and its execute, a call and its fallback retry).
        ALTER TABLE metrics_calls ADD COLUMN correlation_id TEXT;
      `);
    },
  },
  {
    version: 6,
    name: 'listings_by_server_identity',
    up(db) {
      // Cached listings are now stored per server identity (`key #hash`, see src/servers/identity.ts).
      // Listings stored under a bare key may belong to another project's server of the same name: drop
      // them (they are re-listed on next use); the audit log (catalog_changes) is kept.
      db.exec(`
        DELETE FROM catalog_entries WHERE server NOT LIKE '% #%';
        DELETE FROM catalog_listings WHERE server NOT LIKE '% #%';
      `);
    },
  },
  {
    version: 7,
    name: 'tool_definition_pins',
    up(db) {
      db.exec(`
        -- Definition pinning (src/catalog/pinning.ts): the approved definition of each tool per server identity
        -- (key + hash of command/args/env names or URL), pinned when first seen. seen_*: the latest definition
        -- that differs from the pin (NULL while the server lists the pinned one); approval copies it over.
        CREATE TABLE tool_pins (
          server          TEXT    NOT NULL,
          identity        TEXT    NOT NULL,
          tool            TEXT    NOT NULL,
          hash            TEXT    NOT NULL,
          definition      TEXT    NOT NULL,
          pinned_at       INTEGER NOT NULL,
          approved_at     INTEGER,
          seen_hash       TEXT,
          seen_definition TEXT,
          seen_at         INTEGER,
          PRIMARY KEY (server, identity, tool)
        ) WITHOUT ROWID;
      `);
    },
  },
  {
    version: 8,
    name: 'server_handshakes',
    up(db) {
      db.exec(`
        -- What each server answered to initialize at its last connection (per server identity,
        -- \`key #hash\`), so a per-server endpoint can answer a client's initialize without starting it.
        CREATE TABLE server_handshakes (
          server       TEXT    PRIMARY KEY,
          capabilities TEXT    NOT NULL,
          instructions TEXT,
          seen_at      INTEGER NOT NULL
        );
      `);
    },
  },
  {
    version: 9,
    name: 'metrics_by_server_identity',
    up(db) {
      // Recorded calls belong to the server identity they were made to (src/servers/identity.ts), as
      // cached listings do: another project's server "x" is another server. Rows recorded before this
      // version have identity '' (unknown): they are kept (they are the user's history and
      // `switchboard metrics` without a config still shows them), but no configured server counts them.
      // metrics_daily is rebuilt because the identity joins its primary key.
      db.exec(`
        ALTER TABLE metrics_calls ADD COLUMN identity TEXT NOT NULL DEFAULT '';

        CREATE TABLE metrics_daily_by_identity (
          server         TEXT    NOT NULL,
          identity       TEXT    NOT NULL DEFAULT '',
          tool           TEXT    NOT NULL,
          day            TEXT    NOT NULL,
          calls          INTEGER NOT NULL,
          successes      INTEGER NOT NULL,
          failures       INTEGER NOT NULL,
          cancelled      INTEGER NOT NULL,
          total_ms       REAL    NOT NULL,
          p50            REAL    NOT NULL,
          p95            REAL    NOT NULL,
          p99            REAL    NOT NULL,
          last_error     TEXT,
          last_error_at  INTEGER,
          last_called_at INTEGER NOT NULL,
          PRIMARY KEY (server, identity, tool, day)
        );
        INSERT INTO metrics_daily_by_identity
          (server, identity, tool, day, calls, successes, failures, cancelled, total_ms, p50, p95, p99, last_error, last_error_at, last_called_at)
          SELECT server, '', tool, day, calls, successes, failures, cancelled, total_ms, p50, p95, p99, last_error, last_error_at, last_called_at
          FROM metrics_daily;
        DROP TABLE metrics_daily;
        ALTER TABLE metrics_daily_by_identity RENAME TO metrics_daily;
      `);
    },
  },
];

/** The schema version this code writes. */
export const LATEST_VERSION: number = MIGRATIONS[MIGRATIONS.length - 1].version;

/** Throws unless versions run 1, 2, 3, ... without gaps (a broken list is a programming error). */
export function checkMigrations(migrations: readonly Migration[]): void {
  migrations.forEach((m, i) => {
    if (m.version !== i + 1) {
      throw new Error(`migration list is broken: entry ${i} ("${m.name}") has version ${m.version}, expected ${i + 1}`);
    }
  });
}

export function schemaVersion(db: Database.Database): number {
  return db.pragma('user_version', { simple: true }) as number;
}

/**
 * Applies every migration newer than the file's user_version, each in its own IMMEDIATE transaction that also
 * bumps user_version, so a crash or error leaves the file at the last complete version. Re-reads the version
 * inside the transaction, so two processes starting together do not both migrate. Returns the final version.
 */
export function migrate(db: Database.Database, file: string, migrations: readonly Migration[] = MIGRATIONS): number {
  checkMigrations(migrations);
  for (const migration of migrations) {
    const apply = db.transaction(() => {
      if (schemaVersion(db) >= migration.version) return;
      migration.up(db);
      db.pragma(`user_version = ${migration.version}`);
    });
    try {
      apply.immediate();
    } catch (err) {
      throw new StoreError(
        'migration_failed',
        `${file}: migration ${migration.version} (${migration.name}) failed and was rolled back: ${describeError(err)}. ` +
          'The file is unchanged from schema v' +
          `${migration.version - 1}; report this with the message above, or use another --data-dir`,
        { cause: err, path: file },
      );
    }
  }
  return schemaVersion(db);
}
