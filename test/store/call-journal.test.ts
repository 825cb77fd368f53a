// The call journal with real files, real SQLite and real processes killed with SIGKILL: every
// journaled call reaches the database exactly once (after a clean close, after a kill before or after
// a batch insert, after rotation), journals of live processes are left alone, and bad lines are skipped.
// Every case runs twice: appending into memory-mapped files (the native addon) and with write(2).
import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, ftruncateSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HOST_TAG, JOURNAL_DIR, REJECTED_JOURNAL_DIR, JournaledMetricsRepository, type CallJournalOptions, type Store } from '../../src/store/index.js';
import { ingestWriterJournals, isFullyInserted } from '../../src/store/journal-ingest.js';
import { journalMapping, type JournalMapper } from '../../src/store/journal-mmap.js';
import { SqliteMetricsRepository } from '../../src/store/metrics-repository.js';
import { REPO, TSX_IMPORT, waitFor } from '../helpers/gateway.js';
import { tempStores } from './helpers.js';

const stores = tempStores();
afterEach(() => stores.cleanup());

const call = (i: number) => ({ server: 'fs', tool: 'read', startedAt: 1_700_000_000_000 + i, durationMs: 2, outcome: 'ok' as const });
const journalFiles = (dir: string) => (existsSync(path.join(dir, JOURNAL_DIR)) ? readdirSync(path.join(dir, JOURNAL_DIR)) : []);
const rows = (store: Store) => (store.db.prepare('SELECT COUNT(*) AS n FROM metrics_calls').get() as { n: number }).n;
const metaKeys = (store: Store) => store.db.prepare("SELECT key FROM store_meta WHERE key LIKE 'call-journal:%'").pluck().all();

type Mode = 'mmap' | 'write';

/** Runs the journal writer; resolves once it printed "ready" (and, unless it waits, died). */
function writer(mode: Mode, dataDir: string, flushed: number, unflushed: number, wait = false): Promise<{ pid: number; exited: Promise<void> }> {
  const env = { ...process.env, SWITCHBOARD_CALL_JOURNAL: mode };
  const child = spawn(process.execPath, [...TSX_IMPORT, path.join(REPO, 'test/fixtures/journal-writer.ts'), dataDir, String(flushed), String(unflushed), ...(wait ? ['wait'] : [])], { cwd: REPO, env, stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      if (!chunk.toString().includes('ready')) return;
      if (wait) resolve({ pid: child.pid!, exited });
      else void exited.then(() => resolve({ pid: child.pid!, exited }));
    });
    child.once('error', reject);
  });
}

describe('the call journal addon', () => {
  it.runIf(process.platform === 'linux' && !process.env.SWITCHBOARD_SKIP_NATIVE)('is built and loads on Linux (npm install builds it)', () => {
    const mapping = journalMapping();
    expect(mapping.mapper ? 'loaded' : mapping.reason).toBe('loaded');
  });
});

describe.each(['mmap', 'write'] as const)('call journal (%s)', (mode) => {
  const journal = (options: Partial<CallJournalOptions> = {}): CallJournalOptions => ({ flushEveryMs: 3_600_000, onError: (m) => { throw new Error(m); }, ...options, mapped: mode === 'mmap' });
  const skip = mode === 'mmap' && !journalMapping().mapper;

  it.skipIf(skip)('journals calls, shows them to readers at once and leaves nothing behind on close', () => {
    const dir = stores.dir();
    const store = stores.open({ callJournal: journal() }, dir);
    expect(store.metrics).toBeInstanceOf(JournaledMetricsRepository);
    expect((store.metrics as JournaledMetricsRepository).mode).toBe(mode);
    for (let i = 0; i < 5; i++) expect(store.metrics.recordCall(call(i))).toBe(0);
    expect(rows(store)).toBe(0); // in the journal only
    expect(journalFiles(dir)).toHaveLength(1);
    expect(store.metrics.toolStats()[0]).toMatchObject({ tool: 'read', calls: 5 }); // a read flushes first
    expect(() => store.metrics.recordCall({ ...call(9), outcome: 'bogus' as never })).toThrow(/outcome must be one of/);
    store.close();
    expect(journalFiles(dir)).toEqual([]);
    const again = stores.open({}, dir);
    expect(rows(again)).toBe(5);
    expect(metaKeys(again)).toEqual([]);
  });

  it.skipIf(skip)('recovers every call of a killed process exactly once, whether or not a batch was inserted before the kill', async () => {
    const dir = stores.dir();
    stores.open({}, dir).close(); // migrated before the writer starts
    await writer(mode, dir, 60, 40);
    expect(journalFiles(dir)).toHaveLength(1);
    const left = path.join(dir, JOURNAL_DIR, journalFiles(dir)[0]!);
    // A mapped file is left at its full reserved size, zero after the last line; a plain one ends there.
    const text = readFileSync(left, 'utf8');
    if (mode === 'mmap') expect(statSync(left).size).toBe(4 * 1024 * 1024);
    expect(text.replace(/\0+$/, '').split('\n')).toHaveLength(101);
    const store = stores.open({}, dir);
    expect(rows(store)).toBe(100);
    expect(store.db.prepare('SELECT COUNT(DISTINCT result_bytes) AS n FROM metrics_calls').get()).toEqual({ n: 100 });
    expect(journalFiles(dir)).toEqual([]);
    expect(metaKeys(store)).toEqual([]);
  }, 30_000);

  it.skipIf(skip)('leaves the journal of a live process alone and recovers it once the process is gone', async () => {
    const dir = stores.dir();
    stores.open({}, dir).close();
    const live = await writer(mode, dir, 10, 5, true);
    try {
      const store = stores.open({}, dir);
      expect(rows(store)).toBe(10); // its inserted batch, not its pending lines
      expect(journalFiles(dir)).toHaveLength(1);
      store.close();
    } finally {
      process.kill(live.pid, 'SIGKILL');
      await live.exited;
    }
    const after = stores.open({}, dir);
    expect(rows(after)).toBe(15);
    expect(journalFiles(dir)).toEqual([]);
  }, 30_000);

  if (mode === 'write') {
    it('skips damaged lines and a torn last line, moves the damaged file aside (not deleted) and reports it, and forgets offsets of files already gone', () => {
      const dir = stores.dir();
      const first = stores.open({}, dir);
      first.db.prepare(`INSERT INTO store_meta (key, value) VALUES ('call-journal:1-${HOST_TAG}-1-000000-0.jsonl', '10')`).run();
      first.close();
      mkdirSync(path.join(dir, JOURNAL_DIR), { recursive: true });
      const file = path.join(dir, JOURNAL_DIR, `999999999-${HOST_TAG}-1-abcdef-0.jsonl`); // a pid that cannot exist
      writeFileSync(file, `${JSON.stringify(['fs', 'read', null, 1, 2, 'ok', null, null, null])}\nnot json\n["too","short"]\n`);
      appendFileSync(file, JSON.stringify(['fs', 'read', null, 3, 4, 'ok', null, null, null]).slice(0, 12));
      const store = stores.open({}, dir);
      expect(rows(store)).toBe(1);
      expect(journalFiles(dir)).toEqual([]);
      expect(metaKeys(store)).toEqual([]);
      const aside = readdirSync(path.join(dir, REJECTED_JOURNAL_DIR));
      expect(aside).toHaveLength(1);
      expect(readFileSync(path.join(dir, REJECTED_JOURNAL_DIR, aside[0]!), 'utf8')).toContain('not json\n["too","short"]');
      expect(store.warnings).toEqual([expect.stringMatching(/call journal with unparseable lines moved aside, not deleted: .*call-journal-rejected.*\(2 unparseable line\(s\); 1 good call\(s\) recorded\)/)]);
    });
  }

  if (mode === 'write') {
    it('leaves a journal of another host alone while its heartbeat is fresh, and recovers it once stale', () => {
      const dir = stores.dir();
      stores.open({}, dir).close();
      const other = HOST_TAG === '00000000' ? '11111111' : '00000000';
      mkdirSync(path.join(dir, JOURNAL_DIR), { recursive: true });
      const file = path.join(dir, JOURNAL_DIR, `${process.pid}-${other}-1-abcdef-0.jsonl`); // its pid means nothing here
      writeFileSync(file, `${JSON.stringify(['fs', 'read', null, 1, 2, 'ok', null, null, null])}\n`);
      expect(rows(stores.open({}, dir))).toBe(0);
      expect(journalFiles(dir)).toHaveLength(1);
      const old = new Date(Date.now() - 11 * 60_000);
      utimesSync(file, old, old);
      expect(rows(stores.open({}, dir))).toBe(1);
      expect(journalFiles(dir)).toEqual([]);
    });
  }

  it.skipIf(skip)('inserts on its timer, without any read asking for it', async () => {
    const dir = stores.dir();
    const errors: string[] = [];
    const store = stores.open({ callJournal: journal({ flushEveryMs: 50, rotateBytes: 1000, onError: (m) => errors.push(m) }) }, dir);
    for (let i = 0; i < 50; i++) store.metrics.recordCall(call(i));
    expect(journalFiles(dir).length).toBeGreaterThan(1); // rotated
    // A COUNT does not flush: the timer inserted them, and removed the files the writer moved on from.
    await waitFor(() => rows(store) === 50 && journalFiles(dir).length === 1, 'the timer to insert 50 calls', 20_000);
    for (let i = 50; i < 60; i++) store.metrics.recordCall(call(i));
    store.close();
    expect(errors).toEqual([]);
    expect(journalFiles(dir)).toEqual([]);
    expect(rows(stores.open({}, dir))).toBe(60);
  }, 30_000);

  it.skipIf(skip)('keeps a call whose line is longer than a whole journal file', () => {
    const dir = stores.dir();
    const store = stores.open({ callJournal: journal({ rotateBytes: 1024 }) }, dir);
    store.metrics.recordCall(call(1));
    store.metrics.recordCall({ ...call(2), outcome: 'tool_error', errorClass: 'isError', errorMessage: 'é'.repeat(1500) });
    store.metrics.recordCall(call(3));
    expect(store.metrics.toolStats()[0]).toMatchObject({ calls: 3, failures: 1 });
    store.close();
    expect(journalFiles(dir)).toEqual([]);
    expect(rows(stores.open({}, dir))).toBe(3);
  });

  it.skipIf(skip)('rotates to a fresh file once the current one is big, and removes old files once inserted', () => {
    const dir = stores.dir();
    const store = stores.open({ callJournal: journal({ rotateBytes: 500 }) }, dir);
    for (let i = 0; i < 95; i++) store.metrics.recordCall(call(i));
    expect(rows(store)).toBe(0); // rotating inserts nothing on the caller's path
    expect(journalFiles(dir).length).toBeGreaterThan(2);
    // Files the writer moved on from hold exactly their lines (a mapped one is cut to them).
    const [first] = journalFiles(dir).sort();
    expect(readFileSync(path.join(dir, JOURNAL_DIR, first!), 'utf8')).toMatch(/^(\[[^\n]*\]\n)+$/);
    expect(store.metrics.toolStats()[0]!.calls).toBe(95);
    expect(journalFiles(dir)).toHaveLength(1); // the files written before the current one are gone
    expect(journalFiles(dir)[0]).not.toMatch(/-0\.jsonl$/);
    store.close();
    expect(rows(stores.open({}, dir))).toBe(95);
  });

  if (mode === 'mmap') {
    it.skipIf(skip)('creates each mapped file at its full size up front, zero after the lines', () => {
      const dir = stores.dir();
      const store = stores.open({ callJournal: journal({ rotateBytes: 64 * 1024 }) }, dir);
      for (let i = 0; i < 3; i++) store.metrics.recordCall(call(i));
      const file = path.join(dir, JOURNAL_DIR, journalFiles(dir)[0]!);
      expect(statSync(file).size).toBe(64 * 1024);
      const bytes = readFileSync(file);
      const used = bytes.indexOf(0);
      expect(bytes.subarray(0, used).toString('utf8').split('\n')).toHaveLength(4);
      expect(bytes.subarray(used).every((b) => b === 0)).toBe(true);
      store.close();
      expect(journalFiles(dir)).toEqual([]);
      expect(rows(stores.open({}, dir))).toBe(3);
    });
  }

  if (mode === 'mmap') {
    it.skipIf(skip)('touches pages ahead between calls without ever overwriting a line', async () => {
      const dir = stores.dir();
      const store = stores.open({ callJournal: journal({ rotateBytes: 64 * 1024 }) }, dir);
      for (let i = 0; i < 600; i++) {
        store.metrics.recordCall({ ...call(i), errorMessage: i % 7 === 0 ? 'x'.repeat(i) : undefined, outcome: i % 7 === 0 ? 'tool_error' : 'ok' });
        if (i % 3 === 0) await new Promise((resolve) => setImmediate(resolve)); // the touch-ahead runs here
      }
      const files = journalFiles(dir).sort((a, b) => Number(/-(\d+)\.jsonl$/.exec(a)![1]) - Number(/-(\d+)\.jsonl$/.exec(b)![1]));
      const text = files.map((f) => readFileSync(path.join(dir, JOURNAL_DIR, f), 'utf8').replace(/\0+$/, '')).join('');
      const lines = text.split('\n').filter(Boolean);
      expect(lines).toHaveLength(600);
      expect(lines.map((l) => (JSON.parse(l) as unknown[])[3])).toEqual(Array.from({ length: 600 }, (_, i) => 1_700_000_000_000 + i));
      expect(store.metrics.toolStats()[0]!.calls).toBe(600);
    });

    it.skipIf(skip)('appends with write(2) and says why when a file cannot be mapped, losing nothing', () => {
      const dir = stores.dir();
      const warnings: string[] = [];
      // A mapping that fails after the file was already grown (mmap out of memory, a disk filling up).
      const failing: JournalMapper = {
        map: (fd, bytes) => {
          ftruncateSync(fd, bytes);
          throw new Error('mapping the journal file: Cannot allocate memory');
        },
        unmap: () => undefined,
      };
      const store = stores.open({ callJournal: journal({ mapper: failing, onWarning: (m) => warnings.push(m) }) }, dir);
      const metrics = store.metrics as JournaledMetricsRepository;
      expect(metrics.mode).toBe('write');
      expect(warnings).toEqual([expect.stringMatching(/call journal: mapping .*jsonl failed: .*Cannot allocate memory; appending with write\(2\) from now on/)]);
      expect(metrics.writeReason).toMatch(/Cannot allocate memory/);
      for (let i = 0; i < 4; i++) metrics.recordCall(call(i));
      expect(readFileSync(path.join(dir, JOURNAL_DIR, journalFiles(dir)[0]!), 'utf8').split('\n')).toHaveLength(5); // no zeros before the lines
      expect(metrics.toolStats()[0]!.calls).toBe(4);
      store.close();
      expect(rows(stores.open({}, dir))).toBe(4);
    });
  }
});

/** A journal folder with files written by hand for a live writer of this process (`prefix`). */
function handWrittenJournal() {
  const dir = stores.dir();
  const store = stores.open({}, dir);
  const folder = path.join(dir, JOURNAL_DIR);
  mkdirSync(folder, { recursive: true });
  return {
    dir,
    store,
    folder,
    prefix: `${process.pid}-${HOST_TAG}-1-fedcba-`,
    direct: new SqliteMetricsRepository(store.db, { clock: Date.now }),
    line: (i: number) => `${JSON.stringify(['fs', 'read', null, i, 2, 'ok', null, null, null])}\n`,
  };
}

describe('reading the journal of a writer that is still writing it', () => {
  it('takes lines only up to the first zero byte, and the rest once those bytes are there', () => {
    const { store, folder, prefix, direct, line } = handWrittenJournal();
    const file = path.join(folder, `${prefix}0.jsonl`);
    // Lines 1-3 with a byte in the middle of line 2 not written yet (still zero); then the zero tail.
    const bytes = Buffer.concat([Buffer.from(line(1) + line(2) + line(3)), Buffer.alloc(4096)]);
    const hidden = line(1).length + 5;
    const byte = bytes[hidden]!;
    bytes[hidden] = 0;
    writeFileSync(file, bytes);
    expect(ingestWriterJournals(store.db, direct, folder, prefix)).toBe(1);
    bytes[hidden] = byte;
    writeFileSync(file, bytes);
    expect(ingestWriterJournals(store.db, direct, folder, prefix)).toBe(2);
    expect(ingestWriterJournals(store.db, direct, folder, prefix)).toBe(0);
    expect(isFullyInserted(store.db, folder, `${prefix}0.jsonl`)).toBe(false); // a zero tail: not cut to its lines
    expect(rows(store)).toBe(3);
  });

  it('reads the file being written only as far as the given byte count, and newer files not at all', () => {
    const { dir, store, folder, prefix, direct, line } = handWrittenJournal();
    // File 0: three lines then a zero tail, as a mapped file looks while it is written; file 1: one line.
    writeFileSync(path.join(folder, `${prefix}0.jsonl`), Buffer.concat([Buffer.from(line(1) + line(2) + line(3)), Buffer.alloc(256)]));
    writeFileSync(path.join(folder, `${prefix}1.jsonl`), line(4));
    expect(ingestWriterJournals(store.db, direct, folder, prefix, { sequence: 0, bytes: line(1).length + 5 })).toBe(1); // one line and part of the next
    expect(ingestWriterJournals(store.db, direct, folder, prefix, { sequence: 0, bytes: 3 * line(1).length })).toBe(2);
    expect(journalFiles(dir)).toHaveLength(2); // file 0 is still the one being written: kept
    // File 0 is complete now (read to its zero tail; it keeps the tail, so it waits for recovery); file 1 to its given end.
    expect(ingestWriterJournals(store.db, direct, folder, prefix, { sequence: 1, bytes: line(4).length })).toBe(1);
    expect(rows(store)).toBe(4);
  });
});
