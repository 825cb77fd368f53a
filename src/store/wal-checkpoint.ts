// Owns when a long-running writer checkpoints the WAL: on a timer instead of inside a commit.
//
// SQLite's automatic checkpoint runs inside the commit that pushes the WAL past 1000 pages, so about
// every 700-1000 recorded calls one tool call waits for the checkpoint's two fsyncs (several ms on
// a VM disk) before its answer can go out. The serving gateway turns that off on its connection and
// checkpoints (PASSIVE: never waits for readers or other writers) once a second instead, after
// commits only. Durability does not change for a process crash: a commit is in the WAL file when
// it returns, checkpoint or not. Against power loss it gets better: the WAL is synced at most
// `everyMs` after a commit, where the automatic checkpoint syncs only every ~1000 pages.
import type Database from 'better-sqlite3';
import { describeError } from './errors.js';

export const DEFAULT_CHECKPOINT_EVERY_MS = 1000;

export interface WalCheckpointOptions {
  /** Time between checkpoints (default 1000 ms). */
  everyMs?: number;
  /** Called when a checkpoint fails (the next one is tried on schedule). */
  onError: (message: string) => void;
}

export interface WalCheckpointer {
  /** Checkpoints now when anything was committed since the last checkpoint; returns the frames copied, or -1 when busy. */
  checkpoint(): number;
  /** Stops the timer and gives the connection its automatic checkpoint back (when still open). */
  stop(): void;
}

/**
 * Moves the WAL checkpoint of `db` out of its commits onto a timer (unref'd: it keeps no process
 * alive). Does nothing but return a no-op handle when `db` is not in WAL mode.
 */
export function scheduleWalCheckpoints(db: Database.Database, options: WalCheckpointOptions): WalCheckpointer {
  const everyMs = options.everyMs ?? DEFAULT_CHECKPOINT_EVERY_MS;
  if (!Number.isFinite(everyMs) || everyMs <= 0) throw new RangeError(`everyMs must be a positive number of ms, got ${everyMs}`);
  if (String(db.pragma('journal_mode', { simple: true })).toLowerCase() !== 'wal') return { checkpoint: () => 0, stop: () => undefined };

  const previous = db.pragma('wal_autocheckpoint', { simple: true }) as number;
  db.pragma('wal_autocheckpoint = 0');
  // total_changes counts every row written on this connection: unchanged means nothing to copy.
  const changes = db.prepare('SELECT total_changes() AS n').pluck();
  let checkpointedAt = -1;

  const checkpoint = (): number => {
    const now = changes.get() as number;
    if (now === checkpointedAt) return 0;
    const [row] = db.pragma('wal_checkpoint(PASSIVE)') as Array<{ busy: number; log: number; checkpointed: number }>;
    if (row.busy) return -1;
    checkpointedAt = now;
    return row.checkpointed;
  };
  const timer = setInterval(() => {
    if (!db.open) return;
    try {
      checkpoint();
    } catch (error) {
      options.onError(`WAL checkpoint failed: ${describeError(error)}`);
    }
  }, everyMs);
  timer.unref();

  return {
    checkpoint,
    stop() {
      clearInterval(timer);
      if (db.open) db.pragma(`wal_autocheckpoint = ${previous}`);
    },
  };
}
