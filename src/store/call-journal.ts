// Owns the call journal: the cheap durable write on the hot path of a serving gateway. Each recorded
// call is one line appended (a single write(2)) to a per-process file under <dataDir>/call-journal/
// before the client gets its answer, so a kill -9 right after the answer loses nothing; the lines are
// inserted into SQLite in one transaction per batch a few times a second (and before any read through
// this repository). The journal's byte offset that is in the database is committed in the same
// transaction, so a crash between the insert and the file's removal never counts a call twice.
// Journals of processes that died are recovered by whoever opens the store next.
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { describeError } from './errors.js';
import { checkCall, type MetricsRepository } from './metrics-repository.js';
import type { CallRecord, MetricsFilter, ResetResult, RollupResult, ToolStats, ToolStatsQuery } from './types.js';

export const JOURNAL_DIR = 'call-journal';
const META_PREFIX = 'call-journal:';
const FILE_NAME = /^(\d+)-(\d+)-(\d+)\.jsonl$/;

export interface CallJournalOptions {
  /** Pending calls are inserted at least this often (default 200 ms). */
  flushEveryMs?: number;
  /** ...or as soon as this many are pending (default 2000). */
  maxPending?: number;
  /** A journal file is replaced by a fresh one once it is this big and fully inserted (default 4 MiB). */
  rotateBytes?: number;
  /** Told when a batch could not be inserted (it stays pending and is retried). */
  onError: (message: string) => void;
}

/** Encodes a call as one line; fields in a fixed order, absent ones null. */
function encode(call: CallRecord): Buffer {
  const row = [call.server, call.tool, call.session ?? null, call.startedAt, call.durationMs, call.outcome, call.errorClass ?? null, call.errorMessage ?? null, call.resultBytes ?? null];
  return Buffer.from(`${JSON.stringify(row)}\n`);
}

function decode(line: string): CallRecord | undefined {
  let row: unknown;
  try {
    row = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (!Array.isArray(row) || row.length !== 9) return undefined;
  const [server, tool, session, startedAt, durationMs, outcome, errorClass, errorMessage, resultBytes] = row as [string, string, string | null, number, number, CallRecord['outcome'], string | null, string | null, number | null];
  return {
    server,
    tool,
    startedAt,
    durationMs,
    outcome,
    ...(session !== null && { session }),
    ...(errorClass !== null && { errorClass }),
    ...(errorMessage !== null && { errorMessage }),
    ...(resultBytes !== null && { resultBytes }),
  };
}

/** Journal files this process is writing right now (never recovered, even by a second store in this process). */
const LIVE_FILES = new Set<string>();

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

class JournalMeta {
  private readonly get: Database.Statement;
  private readonly set: Database.Statement;
  private readonly drop: Database.Statement;
  constructor(readonly db: Database.Database) {
    this.get = db.prepare('SELECT value FROM store_meta WHERE key = ?').pluck();
    this.set = db.prepare('INSERT INTO store_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value');
    this.drop = db.prepare('DELETE FROM store_meta WHERE key = ?');
  }
  offset(file: string): number {
    const value = this.get.get(META_PREFIX + file) as string | undefined;
    return value === undefined ? 0 : Number(value);
  }
  setOffset(file: string, offset: number): void {
    this.set.run(META_PREFIX + file, String(offset));
  }
  forget(file: string): void {
    this.drop.run(META_PREFIX + file);
  }
  files(): string[] {
    return (this.db.prepare('SELECT key FROM store_meta WHERE key LIKE ?').pluck().all(`${META_PREFIX}%`) as string[]).map((k) => k.slice(META_PREFIX.length));
  }
}

/**
 * Inserts the calls of journals left by processes that are gone (crashed or killed), then deletes
 * those files. Safe when several processes open the store at once (each file is taken inside a write
 * transaction that re-reads its offset). Returns the number of calls recovered.
 */
export function recoverCallJournals(db: Database.Database, metrics: MetricsRepository, dataDir: string): { calls: number; skippedLines: number } {
  const dir = path.join(dataDir, JOURNAL_DIR);
  const meta = new JournalMeta(db);
  let calls = 0;
  let skippedLines = 0;
  const present = new Set<string>();
  if (existsSync(dir)) {
    for (const file of readdirSync(dir)) {
      const match = FILE_NAME.exec(file);
      if (!match) continue;
      present.add(file);
      const pid = Number(match[1]);
      if (LIVE_FILES.has(file) || (pid !== process.pid && isAlive(pid))) continue; // a running gateway's journal
      const full = path.join(dir, file);
      const content = readFileSync(full);
      const end = content.lastIndexOf(0x0a) + 1; // a torn last line was never answered
      db.transaction(() => {
        const from = meta.offset(file);
        if (from < end) {
          for (const line of content.subarray(from, end).toString('utf8').split('\n')) {
            if (!line) continue;
            const call = decode(line);
            if (!call) {
              skippedLines++;
              continue;
            }
            try {
              metrics.recordCall(call);
              calls++;
            } catch {
              skippedLines++;
            }
          }
        }
        meta.setOffset(file, Math.max(from, end));
      }).immediate();
      unlinkSync(full);
      meta.forget(file);
      present.delete(file);
    }
  }
  // Offsets of files already removed (a crash between the removal and this cleanup).
  for (const file of meta.files()) if (!present.has(file)) meta.forget(file);
  return { calls, skippedLines };
}

/** The metrics repository of a serving gateway: calls go to the journal, reads see every journaled call. */
export class JournaledMetricsRepository implements MetricsRepository {
  readonly retentionDays: number;
  private readonly dir: string;
  private readonly meta: JournalMeta;
  private readonly maxPending: number;
  private readonly rotateBytes: number;
  private readonly timer: NodeJS.Timeout;
  private readonly started = Date.now();
  private sequence = 0;
  private file = '';
  private fd = -1;
  private written = 0;
  private pending: CallRecord[] = [];
  private closed = false;

  constructor(
    private readonly db: Database.Database,
    private readonly inner: MetricsRepository,
    dataDir: string,
    private readonly options: CallJournalOptions,
  ) {
    this.retentionDays = inner.retentionDays;
    this.dir = path.join(dataDir, JOURNAL_DIR);
    this.meta = new JournalMeta(db);
    this.maxPending = options.maxPending ?? 2000;
    this.rotateBytes = options.rotateBytes ?? 4 * 1024 * 1024;
    mkdirSync(this.dir, { recursive: true });
    this.open();
    this.timer = setInterval(() => this.flush(), options.flushEveryMs ?? 200);
    this.timer.unref();
  }

  private open(): void {
    this.file = `${process.pid}-${this.started}-${this.sequence++}.jsonl`;
    this.fd = openSync(path.join(this.dir, this.file), 'a');
    this.written = 0;
    LIVE_FILES.add(this.file);
  }

  recordCall(call: CallRecord): number {
    if (this.closed) return this.inner.recordCall(call);
    checkCall(call);
    const line = encode(call);
    writeSync(this.fd, line);
    this.written += line.length;
    this.pending.push(call);
    if (this.pending.length >= this.maxPending) this.flush();
    return 0;
  }

  /** Inserts the pending calls now (one transaction); returns how many. */
  flush(): number {
    if (this.pending.length === 0 || !this.db.open) return 0;
    const batch = this.pending;
    const upTo = this.written;
    this.pending = [];
    try {
      this.db.transaction(() => {
        for (const call of batch) this.inner.recordCall(call);
        this.meta.setOffset(this.file, upTo);
      })();
    } catch (error) {
      this.pending = batch.concat(this.pending); // still in the journal; tried again at the next flush
      this.options.onError(`could not insert ${batch.length} journaled call(s): ${describeError(error)}`);
      return 0;
    }
    if (this.written >= this.rotateBytes && this.pending.length === 0) {
      this.retire();
      this.open();
    }
    return batch.length;
  }

  /** Removes the current file, every line of which is in the database. */
  private retire(): void {
    LIVE_FILES.delete(this.file);
    closeSync(this.fd);
    unlinkSync(path.join(this.dir, this.file));
    this.meta.forget(this.file);
  }

  toolStats(query?: ToolStatsQuery): ToolStats[] {
    this.flush();
    return this.inner.toolStats(query);
  }

  rollup(now?: number): RollupResult {
    this.flush();
    return this.inner.rollup(now);
  }

  reset(filter?: MetricsFilter): ResetResult {
    this.flush();
    return this.inner.reset(filter);
  }

  /** Inserts what is pending and removes the journal; later calls go straight to the database. */
  close(): void {
    if (this.closed) return;
    clearInterval(this.timer);
    this.flush();
    this.closed = true;
    if (this.pending.length === 0) this.retire();
    else {
      LIVE_FILES.delete(this.file);
      closeSync(this.fd); // left for recovery at the next open
    }
  }
}
