// Owns the call journal: the cheap durable write on the hot path of a serving gateway. Each recorded
// call is one line appended to a per-process file under <dataDir>/call-journal/ before the client
// gets its answer (copied into a memory-mapped file, or one write(2) where the native addon is
// missing: journal-sinks.ts), so a kill -9 right after the answer loses nothing. The lines are
// inserted into SQLite in batches by a timer on the same thread once a second, and before any read
// through this repository (an ingest worker thread was measured and removed: it cost ~10 MB of RSS
// and gained nothing at 32 concurrent sessions, docs/metrics.md). The byte offset that is in the database is committed in the same
// transaction as the rows, so neither a crash nor two inserters racing ever count a call twice.
// Journals of processes that died are recovered by whoever opens the store next. Reading files back
// and inserting them is journal-ingest.ts.
import { randomBytes } from 'node:crypto';
import { existsSync, futimesSync, mkdirSync, readdirSync, renameSync, statSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { describeError } from './errors.js';
import { FILE_NAME, JournalMeta, ingestJournal, ingestWriterJournals, isFullyInserted, journalFilesOf, removeJournal } from './journal-ingest.js';
import { journalMapping, type JournalMapper } from './journal-mmap.js';
import { AppendSink, MappedSink, type JournalSink } from './journal-sinks.js';
import { LineEncoder } from './journal-line.js';
import { checkCall, type MetricsRepository } from './metrics-repository.js';
import type { CallRecord, MetricsFilter, RecentCallsQuery, ResetResult, RollupResult, StoredCall, ToolCounts, ToolStats, ToolStatsQuery } from './types.js';

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
  /** Journaled calls are inserted at least this often (default 1000 ms: each batch costs a refill of
   * cold caches, so five a second took ~40 % more CPU per call than one). */
  flushEveryMs?: number;
  /** A journal file is replaced by a fresh one once it is this big (default 4 MiB; a mapped file is created this big). */
  rotateBytes?: number;
  /** Append by copying into a memory-mapped file when the native addon is there (default true); false: write(2). */
  mapped?: boolean;
  /** The mapping to use instead of the native addon's (tests inject failures). */
  mapper?: JournalMapper;
  /** Told when journaled calls could not be inserted (they stay in the journal and are retried). */
  onError: (message: string) => void;
  /** Told when the journal works in a slower way than it could (no memory mapping); default onError. */
  onWarning?: (message: string) => void;
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
  /** Files with lines that could not be parsed: their good lines were inserted, and the file was moved here (never deleted). */
  movedAside: string[];
}

/** Where journal files with unparseable lines are kept for a person to look at. */
export const REJECTED_JOURNAL_DIR = 'call-journal-rejected';

/**
 * Inserts the calls of journals left by processes that are gone (crashed or killed), then deletes
 * those files. Safe when several processes open the store at once. A file that fails is reported and
 * left for the next open; the others are still recovered.
 */
export function recoverCallJournals(db: Database.Database, metrics: MetricsRepository, dataDir: string): RecoveryReport {
  const dir = path.join(dataDir, JOURNAL_DIR);
  const report: RecoveryReport = { calls: 0, skippedLines: 0, errors: [], movedAside: [] };
  if (existsSync(dir)) {
    for (const file of readdirSync(dir)) {
      const match = FILE_NAME.exec(file);
      if (!match || writerMayLive(dir, file, match)) continue;
      try {
        const got = ingestJournal(db, metrics, dir, file);
        report.calls += got.calls;
        report.skippedLines += got.skippedLines;
        if (got.skippedLines > 0) {
          // Lines that could not be parsed may be someone's data: keep the file where a person can see it.
          const aside = path.join(dataDir, REJECTED_JOURNAL_DIR);
          mkdirSync(aside, { recursive: true });
          const target = path.join(aside, `${file}.${Date.now()}`);
          renameSync(path.join(dir, file), target);
          report.movedAside.push(`${target} (${got.skippedLines} unparseable line(s); ${got.calls} good call(s) recorded)`);
        }
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
 * a timer on this thread. Reads insert what is left first.
 */
export class JournaledMetricsRepository implements MetricsRepository {
  readonly retentionDays: number;
  private readonly dir: string;
  private readonly rotateBytes: number;
  private readonly started = Date.now();
  private readonly prefix = `${process.pid}-${HOST_TAG}-${this.started}-${randomBytes(3).toString('hex')}-`;
  private readonly heartbeat: NodeJS.Timeout;
  /** Inserts the journal's lines on a timer. */
  private readonly ingester: NodeJS.Timeout;
  /** The sequence number of the file being written. */
  private fileSequence = 0;
  private mapper: JournalMapper | undefined;
  /** How lines are appended: 'mmap' (copied into a mapped file) or 'write' (one write(2) each). */
  mode: 'mmap' | 'write' = 'write';
  /** Why the journal appends with write(2), when it does. */
  writeReason: string | undefined;
  private readonly encoder = new LineEncoder();
  private sequence = 0;
  private file = '';
  private sink: JournalSink | undefined;
  private closed = false;

  constructor(
    private readonly db: Database.Database,
    private readonly inner: MetricsRepository,
    dataDir: string,
    private readonly options: CallJournalOptions,
  ) {
    this.retentionDays = inner.retentionDays;
    this.dir = path.join(dataDir, JOURNAL_DIR);
    // At most 1 GiB: a mapped file is one ArrayBuffer.
    this.rotateBytes = Math.min(options.rotateBytes ?? 4 * 1024 * 1024, 2 ** 30);
    mkdirSync(this.dir, { recursive: true });
    const mapping = options.mapped === false ? { reason: 'asked for write(2) (mapped: false)' } : options.mapper ? { mapper: options.mapper } : journalMapping();
    this.mapper = mapping.mapper;
    if (!mapping.mapper) this.writeReason = mapping.reason;
    this.open();
    this.ingester = setInterval(() => this.flush(), options.flushEveryMs ?? 1000);
    this.ingester.unref();
    this.heartbeat = setInterval(() => {
      try {
        const now = new Date();
        if (this.sink) futimesSync(this.sink.fd, now, now);
      } catch (error) {
        options.onError(`call journal heartbeat: ${describeError(error)}`);
      }
    }, HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  /**
   * Starts the next journal file, mapped when the addon works (a mapping that fails once is not tried
   * again), and at least big enough for a line of `longest` UTF-16 units.
   */
  private open(longest = 0): void {
    const sequence = this.sequence++;
    const file = `${this.prefix}${sequence}.jsonl`;
    const full = path.join(this.dir, file);
    let sink: JournalSink | undefined;
    if (this.mapper) {
      try {
        sink = new MappedSink(full, Math.max(this.rotateBytes, longest * 3), this.mapper);
        this.mode = 'mmap';
      } catch (error) {
        this.mapper = undefined;
        this.writeReason = `mapping ${full} failed: ${describeError(error)}`;
        (this.options.onWarning ?? this.options.onError)(`call journal: ${this.writeReason}; appending with write(2) from now on`);
      }
    }
    if (!sink) {
      sink = new AppendSink(full, this.rotateBytes);
      this.mode = 'write';
    }
    this.file = file;
    this.fileSequence = sequence;
    this.sink = sink;
    LIVE_FILES.add(file);
  }

  recordCall(call: CallRecord): number {
    if (this.closed) return this.inner.recordCall(call);
    checkCall(call);
    const line = this.encoder.encode(call);
    if (!this.sink?.fits(line)) this.rotate(line.length);
    this.sink!.append(line);
    return 0;
  }

  /** Inserts what this writer's journal files hold beyond their committed offsets, now, on this thread; returns how many calls (-1: failed). */
  flush(): number {
    if (!this.db.open || this.closed) return 0;
    try {
      // The file being written is read as far as this thread appended, and kept.
      const current = this.sink ? { sequence: this.fileSequence, bytes: this.sink.bytes } : undefined;
      return ingestWriterJournals(this.db, this.inner, this.dir, this.prefix, current);
    } catch (error) {
      this.options.onError(`could not insert journaled calls: ${describeError(error)} (they stay in ${this.dir} and are tried again)`);
      return -1;
    }
  }

  /**
   * Starts a fresh file once the current one is big. Nothing is inserted here (this runs on the path
   * of a call): the old file gets no more lines, and whoever inserts it next (the timer, a read, the
   * close) removes it once it is fully inserted.
   */
  private rotate(longest: number): void {
    const old = this.sink;
    if (old) {
      this.sink = undefined;
      LIVE_FILES.delete(this.file);
      try {
        old.close(); // complete (a mapped file cut to its lines) before the next file exists
      } catch (error) {
        // Its lines are all there (a mapped file keeps a zero tail readers stop at); go on with the next file.
        this.options.onError(`call journal: could not close ${path.join(this.dir, this.file)}: ${describeError(error)}`);
      }
    }
    this.open(longest);
  }

  toolStats(query?: ToolStatsQuery): ToolStats[] {
    this.flush();
    return this.inner.toolStats(query);
  }

  toolCounts(): ToolCounts[] {
    this.flush();
    return this.inner.toolCounts();
  }

  recentCalls(query?: RecentCallsQuery): StoredCall[] {
    this.flush();
    return this.inner.recentCalls(query);
  }

  rollup(now?: number): RollupResult {
    this.flush();
    return this.inner.rollup(now);
  }

  reset(filter?: MetricsFilter): ResetResult {
    this.flush();
    return this.inner.reset(filter);
  }

  /** Stops the timer, inserts the rest and removes the journal; later calls go straight to the database. */
  close(): void {
    if (this.closed) return;
    clearInterval(this.ingester);
    clearInterval(this.heartbeat);
    const inserted = this.flush() >= 0;
    this.closed = true;
    try {
      this.sink?.close();
    } catch (error) {
      this.options.onError(`could not close the call journal ${path.join(this.dir, this.file)}: ${describeError(error)} (it is recovered at the next start)`);
    }
    this.sink = undefined;
    LIVE_FILES.delete(this.file);
    if (!inserted) return; // left for recovery at the next open
    try {
      for (const file of journalFilesOf(this.dir, this.prefix)) if (isFullyInserted(this.db, this.dir, file)) removeJournal(this.db, this.dir, file);
    } catch (error) {
      this.options.onError(`could not remove the journal: ${describeError(error)} (it is recovered at the next start)`);
    }
  }
}
