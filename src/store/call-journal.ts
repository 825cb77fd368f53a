// Owns the call journal: the cheap durable write on the hot path of a serving gateway. Each recorded
// call is one line appended (a single write(2)) to a per-process file under <dataDir>/call-journal/
// before the client gets its answer, so a kill -9 right after the answer loses nothing. The lines are
// inserted into SQLite in batches by a worker thread (or a timer) a few times a second, and before any
// read through this repository. The byte offset that is in the database is committed in the same
// transaction as the rows, so neither a crash nor two inserters racing ever count a call twice.
// Journals of processes that died are recovered by whoever opens the store next. Reading files back
// and inserting them is journal-ingest.ts.
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, futimesSync, mkdirSync, openSync, readdirSync, statSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { describeError } from './errors.js';
import { FILE_NAME, JournalMeta, ingestJournal, ingestWriterJournals, isFullyInserted, journalFilesOf, removeJournal } from './journal-ingest.js';
import { startIngestWorker } from './journal-worker-host.js';
import { MAX_ERROR_MESSAGE, checkCall, type MetricsRepository } from './metrics-repository.js';
import type { CallRecord, MetricsFilter, ResetResult, RollupResult, ToolStats, ToolStatsQuery } from './types.js';

export const JOURNAL_DIR = 'call-journal';
/** Which host (and so, usually, which PID namespace) wrote a journal: a hash of the host name. */
export const HOST_TAG = fnvHex(hostname());
/** Writers refresh their file's mtime this often, so other hosts sharing the folder can tell they live. */
const HEARTBEAT_MS = 30_000;
/** A journal of another host is taken as abandoned only when its mtime is this old. */
const FOREIGN_STALE_MS = 10 * 60_000;

function fnvHex(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, '0');
}

export interface CallJournalOptions {
  /** Journaled calls are inserted at least this often (default 200 ms). */
  flushEveryMs?: number;
  /** A journal file is replaced by a fresh one once it is this big and fully inserted (default 4 MiB). */
  rotateBytes?: number;
  /** Insert on a worker thread with its own connection (default: a timer on the calling thread). */
  worker?: boolean;
  /** Told when journaled calls could not be inserted (they stay in the journal and are retried). */
  onError: (message: string) => void;
}

/** Encodes a call as one line; fields in a fixed order, absent ones null. */
function encode(call: CallRecord): string {
  const message = call.errorMessage;
  const stored = message !== undefined && message.length > MAX_ERROR_MESSAGE ? `${message.slice(0, MAX_ERROR_MESSAGE - 1)}…` : message;
  const row = [call.server, call.tool, call.session ?? null, Math.trunc(call.startedAt), call.durationMs, call.outcome, call.errorClass ?? null, stored ?? null, call.resultBytes ?? null];
  return `${JSON.stringify(row)}\n`;
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

/** Whether the writer of a journal file may still be running (then its file is left alone). */
function writerMayLive(dir: string, file: string, match: RegExpExecArray): boolean {
  if (LIVE_FILES.has(file)) return true;
  const pid = Number(match[1]);
  if (match[2] === HOST_TAG) return pid !== process.pid && isAlive(pid);
  // Another host (a container sharing the folder): its PIDs mean nothing here; trust the heartbeat.
  try {
    return Date.now() - statSync(path.join(dir, file)).mtimeMs < FOREIGN_STALE_MS;
  } catch {
    return false;
  }
}

export interface RecoveryReport {
  calls: number;
  skippedLines: number;
  /** Files that could not be recovered now (left in place, tried again at the next open). */
  errors: string[];
}

/**
 * Inserts the calls of journals left by processes that are gone (crashed or killed), then deletes
 * those files. Safe when several processes open the store at once. A file that fails is reported and
 * left for the next open; the others are still recovered.
 */
export function recoverCallJournals(db: Database.Database, metrics: MetricsRepository, dataDir: string): RecoveryReport {
  const dir = path.join(dataDir, JOURNAL_DIR);
  const report: RecoveryReport = { calls: 0, skippedLines: 0, errors: [] };
  if (existsSync(dir)) {
    for (const file of readdirSync(dir)) {
      const match = FILE_NAME.exec(file);
      if (!match || writerMayLive(dir, file, match)) continue;
      try {
        const got = ingestJournal(db, metrics, dir, file);
        report.calls += got.calls;
        report.skippedLines += got.skippedLines;
        // A torn last line was never answered: the file goes with it.
        removeJournal(db, dir, file);
      } catch (error) {
        report.errors.push(`${path.join(dir, file)}: ${describeError(error)}`);
      }
    }
  }
  // Offsets of files already removed (a crash between the removal and forgetting the offset). Checked
  // under the write lock: a file is removed before its offset is forgotten and an offset is only ever
  // set while its file exists, so a missing file here really is gone.
  const meta = new JournalMeta(db);
  db.transaction(() => {
    for (const file of meta.files()) if (!existsSync(path.join(dir, file))) meta.forget(file);
  }).immediate();
  return report;
}

/**
 * The metrics repository of a serving gateway: a call is one appended line; the lines are inserted by
 * a worker thread with its own connection (off the thread that answers clients; it also checkpoints
 * the WAL), or, when no worker can run, by a timer on this thread. Reads insert what is left first.
 */
export class JournaledMetricsRepository implements MetricsRepository {
  readonly retentionDays: number;
  private readonly dir: string;
  private readonly rotateBytes: number;
  private readonly started = Date.now();
  private readonly prefix = `${process.pid}-${HOST_TAG}-${this.started}-${randomBytes(3).toString('hex')}-`;
  private readonly heartbeat: NodeJS.Timeout;
  private ingester: { stop(): void };
  private sequence = 0;
  private file = '';
  private fd = -1;
  private written = 0;
  private closed = false;

  constructor(
    private readonly db: Database.Database,
    private readonly inner: MetricsRepository,
    dataDir: string,
    private readonly options: CallJournalOptions,
  ) {
    this.retentionDays = inner.retentionDays;
    this.dir = path.join(dataDir, JOURNAL_DIR);
    this.rotateBytes = options.rotateBytes ?? 4 * 1024 * 1024;
    mkdirSync(this.dir, { recursive: true });
    this.open();
    const everyMs = options.flushEveryMs ?? 200;
    const onWorkerGone = () => {
      if (!this.closed) this.ingester = this.timer(everyMs); // keep inserting, on this thread now
    };
    this.ingester = (options.worker && startIngestWorker({ dbPath: db.name, dir: this.dir, prefix: this.prefix, everyMs }, options.onError, onWorkerGone)) || this.timer(everyMs);
    this.heartbeat = setInterval(() => {
      try {
        const now = new Date();
        futimesSync(this.fd, now, now);
      } catch (error) {
        options.onError(`call journal heartbeat: ${describeError(error)}`);
      }
    }, HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  private timer(everyMs: number): { stop(): void } {
    const timer = setInterval(() => this.flush(), everyMs);
    timer.unref();
    return { stop: () => clearInterval(timer) };
  }

  private open(): void {
    this.file = `${this.prefix}${this.sequence++}.jsonl`;
    this.fd = openSync(path.join(this.dir, this.file), 'a');
    this.written = 0;
    LIVE_FILES.add(this.file);
  }

  recordCall(call: CallRecord): number {
    if (this.closed) return this.inner.recordCall(call);
    checkCall(call);
    const line = encode(call);
    const wrote = writeSync(this.fd, line); // a string: no Buffer made here (the cold path of a call is what this costs)
    if (wrote !== line.length && wrote !== Buffer.byteLength(line)) this.finishWrite(line, wrote);
    this.written += line.length; // UTF-16 units: close enough to bytes for deciding when to rotate
    if (this.written >= this.rotateBytes) this.rotate();
    return 0;
  }

  /** A short write (a full disk, a signal): write the rest, or fail the call's recording loudly. */
  private finishWrite(line: string, wrote: number): void {
    const bytes = Buffer.from(line);
    for (let at = wrote; at < bytes.length; ) {
      const n = writeSync(this.fd, bytes, at);
      if (n <= 0) throw new Error(`call journal: could not write to ${path.join(this.dir, this.file)}`);
      at += n;
    }
  }

  /** Inserts what this writer's journal files hold beyond their committed offsets, now, on this thread; returns how many calls (-1: failed). */
  flush(): number {
    if (!this.db.open || this.closed) return 0;
    try {
      return ingestWriterJournals(this.db, this.inner, this.dir, this.prefix);
    } catch (error) {
      this.options.onError(`could not insert journaled calls: ${describeError(error)} (they stay in ${this.dir} and are tried again)`);
      return -1;
    }
  }

  /**
   * Starts a fresh file once the current one is big. Nothing is inserted here (this runs on the path
   * of a call): the old file gets no more lines, and whoever inserts it next (the worker, a read, the
   * close) removes it once it is fully inserted.
   */
  private rotate(): void {
    const old = this.fd;
    LIVE_FILES.delete(this.file);
    this.open();
    closeSync(old);
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

  /** Stops the worker, inserts the rest and removes the journal; later calls go straight to the database. */
  close(): void {
    if (this.closed) return;
    this.ingester.stop();
    clearInterval(this.heartbeat);
    const inserted = this.flush() >= 0;
    this.closed = true;
    closeSync(this.fd);
    LIVE_FILES.delete(this.file);
    if (!inserted) return; // left for recovery at the next open
    try {
      for (const file of journalFilesOf(this.dir, this.prefix)) if (isFullyInserted(this.db, this.dir, file)) removeJournal(this.db, this.dir, file);
    } catch (error) {
      this.options.onError(`could not remove the journal: ${describeError(error)} (it is recovered at the next start)`);
    }
  }
}
