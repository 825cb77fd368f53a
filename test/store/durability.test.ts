import { spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { REPO_ROOT, tempStores } from './helpers.js';

const stores = tempStores();
afterEach(() => stores.cleanup());

const FIXTURE = path.join(REPO_ROOT, 'test', 'store', 'fixtures', 'record-calls.ts');

/** Starts the fixture, SIGKILLs it once it has printed `killAfter` ids, and returns every id it printed in full. */
function recordUntilKilled(dataDir: string, killAfter: number): Promise<{ ids: number[]; signal: NodeJS.Signals | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', FIXTURE, dataDir], {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    let killed = false;
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      if (!killed && out.split('\n').length - 2 >= killAfter) {
        killed = true;
        child.kill('SIGKILL');
      }
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (!killed) return reject(new Error(`fixture exited by itself (code ${code}): ${err}`));
      const lines = out.split('\n');
      lines.pop(); // a line cut by the kill is not a printed id
      if (lines.shift() !== 'ready') return reject(new Error(`fixture did not start: ${err}`));
      resolve({ ids: lines.map(Number), signal });
    });
  });
}

describe('durability', () => {
  it('keeps every call whose insert returned when the process is SIGKILLed mid-burst', async () => {
    const dataDir = stores.dir();
    const { ids, signal } = await recordUntilKilled(dataDir, 3000);
    expect(signal).toBe('SIGKILL');
    expect(ids.length).toBeGreaterThanOrEqual(3000);
    expect(ids.every((id) => Number.isInteger(id) && id > 0)).toBe(true);
    // The process died without closing: its last commits live in the WAL, not yet in the main file.
    const wal = path.join(dataDir, 'switchboard.db-wal');
    expect(existsSync(wal) && statSync(wal).size > 0).toBe(true);

    const store = stores.open({}, dataDir);
    const stored = new Set(
      (store.db.prepare('SELECT id FROM metrics_calls').all() as { id: number }[]).map((row) => row.id),
    );
    const missing = ids.filter((id) => !stored.has(id));
    expect(missing).toEqual([]);
    expect(stored.size).toBeGreaterThanOrEqual(ids.length);
    expect(store.metrics.toolStats({ server: 'fs' }).reduce((sum, s) => sum + s.calls, 0)).toBe(stored.size);
  });
});
