// Owns the call journal's ingest worker thread: with its own SQLite connection it inserts the lines of
// this process's journal files every `everyMs` (once a second by default), removes files the writer
// has moved on from, and checkpoints the WAL at most once a second after inserting, so neither the
// inserts nor the checkpoint's fsyncs run on the thread that answers clients. Errors are posted to
// the parent and the next round tries again.
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { ingestWriterJournals } from './journal-ingest.js';
import type { IngestWorkerData } from './journal-worker-host.js';
import { SqliteMetricsRepository } from './metrics-repository.js';

const { dbPath, dir, prefix, everyMs, published } = workerData as IngestWorkerData;

// Linux schedules threads, and a thread's nice value is its own: lowest priority for this one, so the
// inserts give way to the thread answering clients when the cores are busy. Elsewhere: left as is.
try {
  const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
  if (Number.isInteger(tid) && tid > 0) setPriority(tid, 19);
} catch {
  // no /proc/thread-self (not Linux) or not allowed: normal priority is correct, only less polite
}
/** What the writer last published: the sequence first; it stores the byte count before it. */
function currentFile(shared: Int32Array): { sequence: number; bytes: number } {
  const sequence = Atomics.load(shared, 0);
  return { sequence, bytes: Atomics.load(shared, 1) };
}

const db = new Database(dbPath);
db.pragma('busy_timeout = 5000');
db.pragma('synchronous = NORMAL');
db.pragma('wal_autocheckpoint = 0');
const metrics = new SqliteMetricsRepository(db, { clock: Date.now });
let checkpointedAt = 0;
let uncheckpointed = false;

setInterval(() => {
  try {
    if (ingestWriterJournals(db, metrics, dir, prefix, currentFile(published)) > 0) uncheckpointed = true;
    if (uncheckpointed && Date.now() - checkpointedAt >= 1000) {
      db.pragma('wal_checkpoint(PASSIVE)');
      checkpointedAt = Date.now();
      uncheckpointed = false;
    }
  } catch (error) {
    parentPort?.postMessage({ error: (error as Error).message });
  }
}, everyMs);
