// The call journal's C addon is optional (docs/decisions/0005-journal-addon.md): an install on a
// machine without a compiler skips it at once (no node-gyp, no header download, exit 0), and a
// gateway without it records calls with write(2), the same rows as with it.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { JournaledMetricsRepository } from '../../src/store/index.js';
import { tempStores, REPO_ROOT } from './helpers.js';

const stores = tempStores();
afterEach(() => stores.cleanup());

describe('the journal addon is optional', () => {
  it('an install without a C compiler skips the build at once and succeeds', () => {
    const emptyPath = mkdtempSync(path.join(os.tmpdir(), 'switchboard-no-cc-'));
    try {
      const started = Date.now();
      const run = spawnSync(process.execPath, [path.join(REPO_ROOT, 'scripts/build-native.mjs')], {
        cwd: REPO_ROOT,
        env: { PATH: emptyPath, HOME: emptyPath },
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(run.status).toBe(0);
      expect(run.stderr).toContain('the optional call journal addon is not built (missing here: a C compiler (cc, gcc or clang), make');
      expect(Date.now() - started).toBeLessThan(30_000); // skipped, not attempted
    } finally {
      rmSync(emptyPath, { recursive: true, force: true });
    }
  });

  it('without the addon a journaled store records every call with write(2)', () => {
    const store = stores.open({ callJournal: { mapped: false, flushEveryMs: 3_600_000, onError: (m) => { throw new Error(m); } } });
    const journal = store.metrics as JournaledMetricsRepository;
    expect(journal.mode).toBe('write');
    for (let i = 0; i < 20; i++) journal.recordCall({ server: 's', tool: 't', startedAt: Date.now(), durationMs: 1, outcome: i % 5 ? 'ok' : 'tool_error' });
    expect(journal.toolStats()[0]).toMatchObject({ calls: 20, successes: 16, failures: 4 });
  });
});
