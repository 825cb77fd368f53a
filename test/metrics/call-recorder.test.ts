// The call recorder's in-memory per-tool stats: seeded once from the store (raw rows and rolled-up
// days, each day once, the same counts toolStats reports), updated by every recorded call, forgotten
// on reset; and a failed call through the real stdio gateway stays fast with a big stored history
// (a loose sanity bound; the measurement is bench/failed-call.mjs).
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CallRecorder } from '../../src/metrics/call-recorder.js';
import { moduleLogger } from '../../src/logging/logger.js';
import { openDatabase, DAY_MS } from '../../src/store/index.js';
import { tempStores } from '../store/helpers.js';
import { connectStdio, fixtureServer, writeConfig } from '../helpers/gateway.js';

const stores = tempStores();
afterEach(() => stores.cleanup());
const log = moduleLogger('test');

describe('per-tool stats table', () => {
  it('is seeded with the store counts (raw and rolled-up days) and follows every recorded call', () => {
    let now = Date.UTC(2026, 10, 20, 12);
    const store = stores.open({ clock: () => now });
    const call = (tool: string, outcome: 'ok' | 'tool_error' | 'cancelled', at: number) =>
      store.metrics.recordCall({ server: 's', tool, startedAt: at, durationMs: 2, outcome, ...(outcome === 'tool_error' && { errorClass: 'isError', errorMessage: `failed at ${at}` }) });
    for (let day = 0; day < 3; day++) for (let i = 0; i < 5; i++) call('a', i === 0 ? 'tool_error' : 'ok', now - day * DAY_MS - i);
    call('b', 'cancelled', now);
    store.metrics.rollup(now); // days before today become daily aggregates (raw rows kept: retention)
    now += 1000;

    const recorder = new CallRecorder({ store, record: true, log });
    const expected = store.metrics.toolStats({});
    for (const s of expected) {
      const got = recorder.stats.get(s.server, s.tool)!;
      expect({ calls: got.calls, successes: got.successes, failures: got.failures, cancelled: got.cancelled, successRate: got.successRate, lastCalledAt: got.lastCalledAt, lastError: got.lastError })
        .toEqual({ calls: s.calls, successes: s.successes, failures: s.failures, cancelled: s.cancelled, successRate: s.successRate, lastCalledAt: s.lastCalledAt, lastError: s.lastError });
    }
    expect(recorder.stats.get('s', 'a')!.calls).toBe(15);

    recorder.recordCall({ server: 's', tool: 'a', startedAt: now, durationMs: 1, outcome: 'protocol_error', errorClass: '-32602', errorMessage: 'bad' });
    recorder.recordCall({ server: 's', tool: 'new', startedAt: now, durationMs: 1, outcome: 'ok' });
    const a = recorder.stats.get('s', 'a')!;
    expect([a.calls, a.failures, a.successRate, a.lastError]).toEqual([16, 4, 12 / 16, { message: 'bad', at: now }]);
    expect(recorder.stats.get('s', 'new')!.successRate).toBe(1);
    // The table and the store agree after recording too.
    expect(store.metrics.toolStats({ server: 's', tool: 'a' })[0].calls).toBe(16);

    const reset = recorder.reset({ server: 's', tool: 'a' });
    expect(reset.rawDeleted).toBeGreaterThan(0);
    expect(recorder.stats.get('s', 'a')).toBeUndefined();
    expect(recorder.stats.get('s', 'new')).toBeDefined();
    recorder.close();
  });

  it('seeds on first use, counting a call recorded through the journal exactly once', () => {
    const store = stores.open({ callJournal: { flushEveryMs: 3_600_000, onError: (m) => { throw new Error(m); } } });
    for (let i = 0; i < 3; i++) store.metrics.recordCall({ server: 's', tool: 't', startedAt: Date.now(), durationMs: 1, outcome: 'ok' });
    const recorder = new CallRecorder({ store, record: true, log });
    recorder.recordCall({ server: 's', tool: 't', startedAt: Date.now(), durationMs: 1, outcome: 'ok' }); // the first use: seed, then this call
    expect(recorder.stats.get('s', 't')!.calls).toBe(4);
    expect(store.metrics.toolStats({})[0].calls).toBe(4);
    recorder.close();
  });

  it('counts nothing when recording is off', () => {
    const store = stores.open();
    const recorder = new CallRecorder({ store, record: false, log });
    recorder.recordCall({ server: 's', tool: 't', startedAt: Date.now(), durationMs: 1, outcome: 'ok' });
    expect(recorder.stats.get('s', 't')).toBeUndefined();
    expect(store.metrics.toolStats({})).toEqual([]);
    recorder.close();
  });

  it('counts for a server only the calls made to its current identity (another project\u2019s "x" is another server)', () => {
    const store = stores.open();
    const at = Date.now();
    store.metrics.recordCall({ server: 'x', identity: 'aaaaaaaa', tool: 't', startedAt: at, durationMs: 1, outcome: 'tool_error' });
    store.metrics.recordCall({ server: 'x', tool: 't', startedAt: at, durationMs: 1, outcome: 'tool_error' }); // before identities
    const identities = new Map([['x', 'bbbbbbbb']]);
    const recorder = new CallRecorder({ store, record: true, log, identityOf: (server) => identities.get(server) });
    expect(recorder.stats.get('x', 't')).toBeUndefined();
    recorder.recordCall({ server: 'x', identity: 'bbbbbbbb', tool: 't', startedAt: at, durationMs: 1, outcome: 'ok' });
    expect(recorder.stats.get('x', 't')).toMatchObject({ identity: 'bbbbbbbb', calls: 1, successRate: 1 });
    identities.set('x', 'aaaaaaaa'); // the config changed back (a live reload)
    expect(recorder.stats.get('x', 't')).toMatchObject({ identity: 'aaaaaaaa', calls: 1, successRate: 0 });
    expect(recorder.stats.get('y', 't')).toBeUndefined(); // not configured
    recorder.reset({ server: 'x', scope: identities });
    expect(recorder.stats.get('x', 't')).toBeUndefined();
    expect(store.metrics.toolStats({}).map((s) => s.identity)).toEqual(['', 'bbbbbbbb']);
    recorder.close();
  });
});

describe('WAL checkpoints', () => {
  it('runs one checkpoint timer on the connection that writes calls, journaled or not', () => {
    const direct = stores.open();
    const recorder = new CallRecorder({ store: direct, record: true, log });
    expect(direct.db.pragma('wal_autocheckpoint', { simple: true })).toBe(0); // ours, on a timer
    recorder.close();
    expect(direct.db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);

    const journaled = stores.open({ callJournal: { onError: (m) => { throw new Error(m); } } });
    const recording = new CallRecorder({ store: journaled, record: true, log });
    expect(journaled.db.pragma('wal_autocheckpoint', { simple: true })).toBe(0); // ours, on a timer
    recording.close();
    expect(journaled.db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
  });
});

describe('a failed call with a big stored history', () => {
  it('gets its fallback suggestions without waiting for SQL over 100k stored calls', async () => {
    const config = await writeConfig({ fault: fixtureServer('fault-server.ts') });
    const dataDir = path.join(path.dirname(config), 'data');
    const store = openDatabase(dataDir);
    const insert = store.db.prepare("INSERT INTO metrics_calls (server, tool, started_at, duration_ms, outcome) VALUES ('fault', ?, ?, ?, ?)");
    const now = Date.now();
    store.db.transaction(() => {
      for (let i = 0; i < 100_000; i++) insert.run(['ok', 'fail', 'slow', 'garbage'][i % 4], now - (i % 5) * DAY_MS, 1 + (i % 50), i % 4 === 1 ? 'tool_error' : 'ok');
    })();
    const started = performance.now();
    store.metrics.toolStats({}); // what every failed call ran before the in-memory table
    const oldPathMs = performance.now() - started;
    store.close();

    const { client, close } = await connectStdio(config);
    try {
      const call = async (name: string) => {
        const t = performance.now();
        const result = await client.request({ method: 'tools/call', params: { name, arguments: {} } }, z.any()).catch((error: unknown) => error as Record<string, unknown>);
        return { ms: performance.now() - t, result: result as Record<string, any> };
      };
      for (let i = 0; i < 5; i++) await call('fault_ok'); // started and warm
      const ok: number[] = [];
      const failed: number[] = [];
      let last: Record<string, any> = {};
      for (let i = 0; i < 7; i++) {
        ok.push((await call('fault_ok')).ms);
        const f = await call('fault_fail');
        failed.push(f.ms);
        last = f.result;
      }
      const suggestions = last.structuredContent?.fallback_suggestions ?? last.data?.fallback_suggestions;
      expect(Array.isArray(suggestions)).toBe(true);
      const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
      // Loose: the failure path adds well under the old per-call query (0.9 s at 100k calls when measured).
      const extra = median(failed) - median(ok);
      expect(extra, `failure path +${extra.toFixed(1)} ms; the old query took ${oldPathMs.toFixed(0)} ms here`).toBeLessThan(Math.max(100, oldPathMs / 4));
    } finally {
      await close();
    }
  });
});
