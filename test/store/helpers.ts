// Test helpers for the store: temp data dirs under os.tmpdir() and stores opened in them, closed after each test.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openDatabase, type OpenDatabaseOptions, type Store } from '../../src/store/index.js';

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface TempStores {
  /** A fresh empty folder under os.tmpdir(). */
  dir(): string;
  /** Opens a store (in a fresh folder unless `dataDir` is given); closed by cleanup(). */
  open(options?: OpenDatabaseOptions, dataDir?: string): Store;
  /** Closes every store opened here and deletes every folder. */
  cleanup(): void;
}

export function tempStores(): TempStores {
  const dirs: string[] = [];
  const stores: Store[] = [];
  const dir = () => {
    const created = mkdtempSync(path.join(os.tmpdir(), 'switchboard-store-'));
    dirs.push(created);
    return created;
  };
  return {
    dir,
    open(options, dataDir) {
      const store = openDatabase(dataDir ?? dir(), options);
      stores.push(store);
      return store;
    },
    cleanup() {
      for (const store of stores.splice(0)) store.close();
      for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
    },
  };
}

/** Runs `fn`, expects it to throw, and returns what it threw. */
export function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (err) {
    return err;
  }
  throw new Error('expected the call to throw, but it returned');
}

/** A settable clock for stores: starts at `start` (ms since epoch). */
export function manualClock(start: number): { now: () => number; set(ms: number): void } {
  let current = start;
  return {
    now: () => current,
    set(ms) {
      current = ms;
    },
  };
}
