// Checkpointing the WAL on a timer instead of inside a commit: nothing is lost, the WAL is copied back.
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { scheduleWalCheckpoints, type WalCheckpointer } from '../../src/store/wal-checkpoint.js';
import { tempStores } from './helpers.js';

const stores = tempStores();
const handles: WalCheckpointer[] = [];
afterEach(() => {
  for (const handle of handles.splice(0)) handle.stop();
  stores.cleanup();
});

const call = (i: number) => ({ server: 'echo', tool: 'echo', startedAt: 1_700_000_000_000 + i, durationMs: 0.2, outcome: 'ok' as const });

function schedule(db: Database.Database, everyMs: number, errors: string[] = []): WalCheckpointer {
  const handle = scheduleWalCheckpoints(db, { everyMs, onError: (message) => errors.push(message) });
  handles.push(handle);
  return handle;
}

describe('scheduleWalCheckpoints', () => {
  it('turns the automatic checkpoint off and gives it back on stop', () => {
    const store = stores.open();
    expect(store.db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    const handle = schedule(store.db, 60_000);
    expect(store.db.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
    handle.stop();
    expect(store.db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
  });

  it('copies committed frames back only when something was written since the last checkpoint', () => {
    const store = stores.open();
    const handle = schedule(store.db, 60_000);
    handle.checkpoint();
    for (let i = 0; i < 1500; i++) store.metrics.recordCall(call(i));
    // Past 1000 pages the automatic checkpoint would have run inside a commit; now the WAL keeps them.
    const [before] = store.db.pragma('wal_checkpoint(NOOP)') as Array<{ log: number; checkpointed: number }>;
    expect(before.log).toBeGreaterThan(1000);
    expect(handle.checkpoint()).toBeGreaterThan(0);
    expect(handle.checkpoint()).toBe(0);
  });

  it('checkpoints on its timer, and every recorded call is readable from another connection', async () => {
    const store = stores.open();
    const errors: string[] = [];
    const handle = schedule(store.db, 20, errors);
    for (let i = 0; i < 200; i++) store.metrics.recordCall(call(i));
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(handle.checkpoint()).toBe(0); // the timer already did it
    const reader = new Database(store.path, { readonly: true });
    try {
      expect(reader.prepare('SELECT count(*) FROM metrics_calls').pluck().get()).toBe(200);
    } finally {
      reader.close();
    }
    expect(errors).toEqual([]);
  });

  it('does nothing for a database that is not in WAL mode, and refuses a bad interval', () => {
    const memory = new Database(':memory:');
    try {
      const handle = schedule(memory, 20);
      expect(handle.checkpoint()).toBe(0);
      expect(() => scheduleWalCheckpoints(memory, { everyMs: 0, onError: () => undefined })).toThrow(RangeError);
    } finally {
      memory.close();
    }
  });

  it('stops quietly when the connection was closed first', () => {
    const store = stores.open();
    const handle = schedule(store.db, 20);
    store.db.close();
    expect(() => handle.stop()).not.toThrow();
  });
});
