import { afterEach, describe, expect, it } from 'vitest';
import { DAY_MS, MAX_ERROR_MESSAGE, StoreError, type CallOutcome, type CallRecord, type Store } from '../../src/store/index.js';
import { manualClock, tempStores, thrown } from './helpers.js';

const stores = tempStores();
afterEach(() => stores.cleanup());

const HOUR = 3_600_000;
const EPOCH = Date.UTC(2025, 2, 1);
/** Hour `h` of day `n` after 2025-03-01 (UTC). */
const at = (n: number, h = 0) => EPOCH + n * DAY_MS + h * HOUR;

function call(over: Partial<CallRecord> & { durationMs: number; startedAt: number }): CallRecord {
  return { server: 's', tool: 't', outcome: 'ok', ...over };
}

function dailyRows(store: Store): unknown[] {
  return store.db.prepare('SELECT * FROM metrics_daily ORDER BY server, tool, day').all();
}

function rawCount(store: Store): number {
  return (store.db.prepare('SELECT COUNT(*) AS n FROM metrics_calls').get() as { n: number }).n;
}

describe('MetricsRepository.recordCall and toolStats', () => {
  it('computes counts, success rate, nearest-rank percentiles and the last error from raw rows', () => {
    const store = stores.open();
    const durations = Array.from({ length: 100 }, (_, i) => i + 1).sort((a, b) => ((a * 37) % 101) - ((b * 37) % 101));
    for (const d of durations) {
      const outcome: CallOutcome = d % 10 === 0 ? 'tool_error' : d === 7 ? 'cancelled' : 'ok';
      store.metrics.recordCall({
        server: 'fs',
        tool: 'read',
        session: 'sess-1',
        startedAt: at(0, 1) + d * 1000,
        durationMs: d,
        outcome,
        ...(outcome === 'tool_error' ? { errorClass: 'ToolError', errorMessage: `boom ${d}` } : {}),
        resultBytes: 100,
      });
    }
    store.metrics.recordCall({ server: 'fs', tool: 'write', startedAt: at(0, 2), durationMs: 12.5, outcome: 'ok' });
    for (const [i, d] of [5, 1, 3].entries()) {
      store.metrics.recordCall({ server: 'mem', tool: 'get', startedAt: at(0, 3) + i, durationMs: d, outcome: i === 1 ? 'timeout' : 'ok' });
    }

    const stats = store.metrics.toolStats();
    expect(stats.map((s) => `${s.server}/${s.tool}`)).toEqual(['fs/read', 'fs/write', 'mem/get']);
    expect(stats[0]).toEqual({
      server: 'fs',
      identity: '',
      tool: 'read',
      calls: 100,
      successes: 89,
      failures: 10,
      cancelled: 1,
      successRate: 89 / 99,
      p50Ms: 50,
      p95Ms: 95,
      p99Ms: 99,
      lastError: { message: 'boom 100', at: at(0, 1) + 100_000 },
      lastCalledAt: at(0, 1) + 100_000,
    });
    expect(stats[1]).toMatchObject({ calls: 1, successRate: 1, p50Ms: 12.5, p95Ms: 12.5, p99Ms: 12.5 });
    expect(stats[1].lastError).toBeUndefined();
    // Sorted 1, 3, 5: p50 is rank 2, p95 and p99 rank 3. No message or class: the outcome names the error.
    expect(stats[2]).toMatchObject({ calls: 3, failures: 1, p50Ms: 3, p95Ms: 5, p99Ms: 5, lastError: { message: 'timeout', at: at(0, 3) + 1 } });

    expect(store.metrics.toolStats({ server: 'fs' }).map((s) => s.tool)).toEqual(['read', 'write']);
    expect(store.metrics.toolStats({ tool: 'get' }).map((s) => s.server)).toEqual(['mem']);
    expect(store.metrics.toolStats({ server: 'fs', tool: 'read', since: at(0, 1) + 91_000 })[0]).toMatchObject({ calls: 10, p50Ms: 95 });
    expect(store.metrics.toolStats({ server: 'nobody' })).toEqual([]);
  });

  it('returns increasing ids, truncates long messages and rejects bad records with a StoreError', () => {
    const store = stores.open();
    const first = store.metrics.recordCall(call({ startedAt: at(0), durationMs: 1 }));
    const second = store.metrics.recordCall(
      call({ startedAt: at(0), durationMs: 1, outcome: 'protocol_error', errorClass: '-32602', errorMessage: 'x'.repeat(5000) }),
    );
    expect(second).toBeGreaterThan(first);
    const row = store.db.prepare('SELECT error_message FROM metrics_calls WHERE id = ?').get(second) as { error_message: string };
    expect(row.error_message).toHaveLength(MAX_ERROR_MESSAGE);
    expect(row.error_message.endsWith('…')).toBe(true);

    const err = thrown(() => store.metrics.recordCall(call({ startedAt: at(0), durationMs: 1, outcome: 'weird' as CallOutcome })));
    expect(err).toBeInstanceOf(StoreError);
    expect((err as StoreError).message).toBe(
      'recordCall: outcome must be one of ok, tool_error, protocol_error, timeout, server_down, cancelled, got "weird"',
    );
    expect(() => store.metrics.recordCall(call({ startedAt: NaN, durationMs: 1 }))).toThrow(/finite numbers/);
    expect(() => store.metrics.recordCall(call({ startedAt: at(0), durationMs: 1, tool: '' }))).toThrow(/non-empty strings/);
    expect(rawCount(store)).toBe(2);
  });
});

/** Ten calls a day on days 0..lastDay, durations 1..10 ms at hours 1..10; the 10 ms one times out. */
function recordDays(store: Store, lastDay: number, server = 's', tool = 't'): void {
  for (let n = 0; n <= lastDay; n++) {
    for (let d = 1; d <= 10; d++) {
      const failed = d === 10;
      store.metrics.recordCall({
        server,
        tool,
        startedAt: at(n, d),
        durationMs: d,
        outcome: failed ? 'timeout' : 'ok',
        ...(failed ? { errorClass: 'Timeout', errorMessage: `timeout on day ${n}` } : {}),
      });
    }
  }
}

const elevenDays = { server: 's', identity: '', tool: 't', calls: 110, successes: 99, failures: 11, cancelled: 0, successRate: 0.9, p50Ms: 5, p95Ms: 10, p99Ms: 10 };

describe('MetricsRepository.rollup and retention', () => {
  it('rolls days up idempotently, purges raw rows past retention and keeps counting the aggregates', () => {
    const clock = manualClock(at(10, 12));
    const store = stores.open({ clock: clock.now });
    recordDays(store, 10);
    const lastError = { message: 'timeout on day 10', at: at(10, 10) };
    const expected = [{ ...elevenDays, lastError, lastCalledAt: at(10, 10) }];
    expect(store.metrics.toolStats()).toEqual(expected);

    // Days 0..9 are aggregated (today, day 10, is not); raw rows before day 3 (today minus 7 days) are purged.
    expect(store.metrics.rollup()).toEqual({ daysAggregated: 10, rawDeleted: 30 });
    expect(rawCount(store)).toBe(80);
    const daily = dailyRows(store);
    expect(daily).toHaveLength(10);
    expect(daily[0]).toEqual({
      server: 's', identity: '', tool: 't', day: '2025-03-01', calls: 10, successes: 9, failures: 1, cancelled: 0, total_ms: 55,
      p50: 5, p95: 10, p99: 10, last_error: 'timeout on day 0', last_error_at: at(0, 10), last_called_at: at(0, 10),
    });
    expect(store.metrics.toolStats()).toEqual(expected);

    // Running it again adds nothing twice.
    expect(store.metrics.rollup().rawDeleted).toBe(0);
    expect(dailyRows(store)).toEqual(daily);
    expect(store.metrics.toolStats()).toEqual(expected);

    // Ten days later every raw row is gone; the aggregates still answer (percentiles weighted by calls).
    clock.set(at(20, 1));
    expect(store.metrics.rollup().rawDeleted).toBe(80);
    expect(rawCount(store)).toBe(0);
    expect(dailyRows(store)).toHaveLength(11);
    expect(store.metrics.toolStats()).toEqual(expected);
    expect(store.metrics.toolStats({ since: at(8) })[0]).toMatchObject({ calls: 30, lastError });
    expect(store.metrics.toolStats({ since: at(8, 5) })[0].calls).toBe(30); // a day counts when it overlaps `since`
  });

  it('counts a call recorded after its day was rolled up, and includes it on the next rollup', () => {
    const clock = manualClock(at(3) + 1000);
    const store = stores.open({ clock: clock.now });
    recordDays(store, 2);
    store.metrics.rollup();
    // A 700 ms call that started just before midnight and is recorded after the rollup.
    store.metrics.recordCall(call({ startedAt: at(3) - 1, durationMs: 700, outcome: 'tool_error', errorMessage: 'late' }));
    const stats = store.metrics.toolStats()[0];
    expect(stats).toMatchObject({ calls: 31, failures: 4, lastError: { message: 'late', at: at(3) - 1 }, p95Ms: 10, p99Ms: 700 });
    store.metrics.rollup();
    const day2 = store.db.prepare("SELECT calls, p99, last_error FROM metrics_daily WHERE day = '2025-03-03'").get();
    expect(day2).toEqual({ calls: 11, p99: 700, last_error: 'late' });
    expect(store.metrics.toolStats()[0].calls).toBe(31);
  });

  it('merges a late call into a day whose raw rows were already purged, losing nothing', () => {
    const clock = manualClock(at(12));
    const store = stores.open({ clock: clock.now, metrics: { retentionDays: 2 } });
    recordDays(store, 11);
    store.metrics.rollup(); // purges raw rows before day 10
    store.metrics.recordCall(call({ startedAt: at(1, 5), durationMs: 1000 }));
    expect(store.metrics.toolStats()[0].calls).toBe(121);
    store.metrics.rollup();
    const day1 = store.db.prepare("SELECT calls, successes, p50 FROM metrics_daily WHERE day = '2025-03-02'").get();
    expect(day1).toEqual({ calls: 11, successes: 10, p50: (5 * 10 + 1000) / 11 });
    expect(rawCount(store)).toBe(20); // days 10 and 11
    expect(store.metrics.toolStats()[0].calls).toBe(121);
  });

  it('honours retentionDays: 0 keeps only today and rejects nonsense', () => {
    const clock = manualClock(at(5, 12));
    const store = stores.open({ clock: clock.now, metrics: { retentionDays: 0 } });
    expect(store.metrics.retentionDays).toBe(0);
    recordDays(store, 5);
    expect(store.metrics.rollup()).toEqual({ daysAggregated: 5, rawDeleted: 50 });
    expect(store.metrics.toolStats()[0].calls).toBe(60);
    expect(() => stores.open({ metrics: { retentionDays: -1 } })).toThrow(/metricsRetentionDays must be a whole number of days >= 0, got -1/);
  });
});

describe('MetricsRepository.reset', () => {
  it('deletes raw and daily rows by server, by tool, by both, or all', () => {
    const clock = manualClock(at(3, 12));
    const store = stores.open({ clock: clock.now });
    for (const [server, tool] of [['a', 'x'], ['a', 'y'], ['b', 'x'], ['b', 'z']]) recordDays(store, 3, server, tool);
    store.metrics.rollup();
    const keys = () => store.metrics.toolStats().map((s) => `${s.server}/${s.tool}`);
    expect(keys()).toEqual(['a/x', 'a/y', 'b/x', 'b/z']);

    expect(store.metrics.reset({ tool: 'x' })).toEqual({ rawDeleted: 80, dailyDeleted: 6 });
    expect(keys()).toEqual(['a/y', 'b/z']);
    expect(store.metrics.reset({ server: 'a' })).toEqual({ rawDeleted: 40, dailyDeleted: 3 });
    expect(keys()).toEqual(['b/z']);
    expect(store.metrics.reset({ server: 'b', tool: 'nope' })).toEqual({ rawDeleted: 0, dailyDeleted: 0 });
    expect(store.metrics.reset({ server: 'b', tool: 'z' })).toEqual({ rawDeleted: 40, dailyDeleted: 3 });
    expect(keys()).toEqual([]);

    recordDays(store, 0);
    store.metrics.reset();
    expect(rawCount(store) + dailyRows(store).length).toBe(0);
  });
});
