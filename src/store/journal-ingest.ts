// Owns inserting call journal files into the database: the line format read back, the committed byte
// offset per file (store_meta "call-journal:<file>"), the offset-checked ingest every inserter shares
// (the gateway's reads, its timer, recovery of dead writers), the bulk INSERT over jsonb_each
// with a line-by-line fallback, and removing files that are fully inserted. A file's lines end at
// its first zero byte or its end: a memory-mapped journal is created full size and zero-filled.
import { closeSync, fstatSync, openSync, readdirSync, readSync, statSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { StoreError } from './errors.js';
import type { MetricsRepository } from './metrics-repository.js';
import type { CallRecord } from './types.js';

const META_PREFIX = 'call-journal:';
/** `<pid>-<host tag>-<start ms>-<random>-<sequence>.jsonl` */
export const FILE_NAME = /^(\d+)-([0-9a-f]{8})-(\d+)-([0-9a-f]{6})-(\d+)\.jsonl$/;

function decode(line: string): CallRecord | undefined {
  let row: unknown;
  try {
    row = JSON.parse(line);
  } catch {
    return undefined;
  }
  // 11 fields; 9 in journals written before correlation ids, 10 before server identities (recovered after an upgrade).
  if (!Array.isArray(row) || row.length < 9 || row.length > 11) return undefined;
  const [server, tool, session, startedAt, durationMs, outcome, errorClass, errorMessage, resultBytes, correlationId = null, identity = ''] = row as [string, string, string | null, number, number, CallRecord['outcome'], string | null, string | null, number | null, string | null, string];
  return {
    server,
    identity,
    tool,
    startedAt,
    durationMs,
    outcome,
    ...(session !== null && { session }),
    ...(errorClass !== null && { errorClass }),
    ...(errorMessage !== null && { errorMessage }),
    ...(resultBytes !== null && { resultBytes }),
    ...(correlationId !== null && { correlationId }),
  };
}

export class JournalMeta {
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
 * Inserts the lines of one journal file past its committed offset and commits the new offset, all in
 * one write transaction that re-reads the offset, so the gateway's reads, its timer and a
 * process recovering the file can race without counting a line twice. A file already removed is
 * skipped (it was fully inserted before removal). A torn last line is left for later, and so is
 * everything from the first zero byte on (the unused tail of a mapped file). `limit`: read no
 * further than this byte (how far the writer has appended to the file it is still writing).
 */
export function ingestJournal(db: Database.Database, metrics: MetricsRepository, dir: string, file: string, limit = Infinity): { calls: number; skippedLines: number } {
  const meta = new JournalMeta(db);
  const full = path.join(dir, file);
  let calls = 0;
  let skippedLines = 0;
  db.transaction(() => {
    let fd: number;
    try {
      fd = openSync(full, 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    try {
      const from = meta.offset(file);
      const chunk = readToZero(fd, from, Math.min(fstatSync(fd).size, limit));
      const end = chunk.lastIndexOf(0x0a) + 1;
      if (end === 0) return;
      const text = chunk.subarray(0, end).toString('utf8');
      const bulk = insertBulk(db, text);
      if (bulk !== undefined) {
        calls = bulk;
        meta.setOffset(file, from + end);
        return;
      }
      for (const line of text.split('\n')) {
        if (!line) continue;
        const call = decode(line);
        if (!call) {
          skippedLines++;
          continue;
        }
        try {
          metrics.recordCall(call);
          calls++;
        } catch (error) {
          // Only a line the table refuses is skipped; anything else (disk full, I/O) stops the batch.
          if (!isRefusedLine(error)) throw error;
          skippedLines++;
        }
      }
      if (!db.inTransaction) throw new Error('the ingest transaction was rolled back by SQLite');
      meta.setOffset(file, from + end);
    } finally {
      closeSync(fd);
    }
  }).immediate();
  return { calls, skippedLines };
}

const READ_CHUNK = 64 * 1024;

/** The bytes of `fd` from `from` up to `until` or its first zero byte, read 64 KiB at a time (a mapped file is mostly zeros). */
function readToZero(fd: number, from: number, until: number): Buffer {
  const parts: Buffer[] = [];
  for (let at = from; at < until; ) {
    const part = Buffer.alloc(Math.min(READ_CHUNK, until - at));
    const read = readSync(fd, part, 0, part.length, at);
    if (read === 0) break;
    const zero = part.subarray(0, read).indexOf(0);
    parts.push(part.subarray(0, zero === -1 ? read : zero));
    if (zero !== -1) break;
    at += read;
  }
  return parts.length === 1 ? parts[0]! : Buffer.concat(parts);
}

function isRefusedLine(error: unknown): boolean {
  if (error instanceof StoreError) return error.code === 'invalid_input';
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && code.startsWith('SQLITE_CONSTRAINT');
}

/** The journal files in `dir` that start with `prefix`, oldest (lowest sequence number) first. */
export function journalFilesOf(dir: string, prefix: string): string[] {
  const sequence = (file: string) => Number(FILE_NAME.exec(file)?.[5] ?? -1);
  return readdirSync(dir)
    .filter((f) => f.startsWith(prefix) && FILE_NAME.test(f))
    .sort((a, b) => sequence(a) - sequence(b));
}

/**
 * Inserts every journal file of one writer (`prefix`); files before the newest receive no more lines,
 * so once fully inserted they are removed (the writer creates a file only after cutting the one
 * before to its lines). `current`: the file the writer is writing and how many bytes it has appended
 * (the writer's own flush passes them); it is read only that far and kept, and newer files are not read. Returns the calls inserted.
 */
export function ingestWriterJournals(db: Database.Database, metrics: MetricsRepository, dir: string, prefix: string, current?: { sequence: number; bytes: number }): number {
  const files = journalFilesOf(dir, prefix);
  const writing = current?.sequence ?? Infinity;
  let calls = 0;
  files.forEach((file, i) => {
    const sequence = Number(FILE_NAME.exec(file)![5]);
    if (sequence > writing) return;
    calls += ingestJournal(db, metrics, dir, file, sequence === writing ? current!.bytes : Infinity).calls;
    if (sequence < writing && i < files.length - 1 && isFullyInserted(db, dir, file)) removeJournal(db, dir, file);
  });
  return calls;
}

/**
 * Whether the committed offset is at the end of the file. A file the writer moved on from (or closed)
 * was cut to its lines first; one that still has a zero tail (the cut failed) counts as not inserted
 * and is left for the recovery of its writer's journals at the next start.
 */
export function isFullyInserted(db: Database.Database, dir: string, file: string): boolean {
  try {
    return new JournalMeta(db).offset(file) >= statSync(path.join(dir, file)).size;
  } catch {
    return false;
  }
}

const bulkInserts = new WeakMap<Database.Database, (json: string, expected: number) => number>();

/**
 * The fast path: every line of `text` in one INSERT ... SELECT over jsonb_each, so SQLite parses and
 * inserts in C with no per-row work in JavaScript (jsonb_each parses the batch once into SQLite's
 * binary JSON; with json_each every ->> would parse its row's text again: about 40 % more CPU).
 * Lines were checked when written; if any line is damaged (not JSON, not a 9- to 11-field row, refused by
 * the table) the savepoint is rolled back and the caller goes line by line. Returns the rows
 * inserted, or undefined.
 */
function insertBulk(db: Database.Database, text: string): number | undefined {
  let insert = bulkInserts.get(db);
  if (!insert) {
    const statement = db.prepare(
      `INSERT INTO metrics_calls (server, identity, tool, session, started_at, duration_ms, outcome, error_class, error_message, result_bytes, correlation_id)
       SELECT value->>0, COALESCE(value->>10, ''), value->>1, value->>2, CAST(value->>3 AS INTEGER), value->>4, value->>5, value->>6, value->>7, value->>8, value->>9
       FROM jsonb_each(?) WHERE json_type(value) = 'array' AND json_array_length(value) IN (9, 10, 11)`,
    );
    // Called inside the ingest transaction, this runs in a savepoint: a throw undoes only the bulk insert.
    insert = db.transaction((json: string, expected: number) => {
      const inserted = statement.run(json).changes;
      if (inserted !== expected) throw new Error(`bulk insert took ${inserted} of ${expected} lines`);
      return inserted;
    });
    bulkInserts.set(db, insert);
  }
  const lines = text.endsWith('\n') ? text.slice(0, -1) : text;
  let expected = 1;
  for (let at = lines.indexOf('\n'); at !== -1; at = lines.indexOf('\n', at + 1)) expected++;
  try {
    return insert(`[${lines.replaceAll('\n', ',')}]`, expected);
  } catch {
    return undefined;
  }
}

/** Removes a fully inserted journal file, then its offset (in that order: see ingestJournal). */
export function removeJournal(db: Database.Database, dir: string, file: string): void {
  try {
    unlinkSync(path.join(dir, file));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  new JournalMeta(db).forget(file);
}
