// Calls over time from the store (src/store/metrics-series.ts) on a real SQLite file: raw calls in
// buckets with counts, failures and nearest-rank p50/p95; days whose raw calls were purged by the
// rollup come from their daily aggregate as one point at the day's start; the latest latencies per tool.
import { afterEach, describe, expect, it } from 'vitest';
import { DAY_MS, type CallRecord } from '../../src/store/index.js';
import { readSeries, recentLatencies, seriesKey } from '../../src/store/metrics-series.js';
import { manualClock, tempStores } from './helpers.js';

const stores = tempStores();
afterEach(() => stores.cleanup());

const MINUTE = 60_000;
const EPOCH = Date.UTC(2025, 2, 1);
const at = (day: number, minute = 0) => EPOCH + day * DAY_MS + minute * MINUTE;
const call = (over: Partial<CallRecord> & { startedAt: number; durationMs: number }): CallRecord => ({ server: 's', tool: 't', outcome: 'ok', ...over });

describe('readSeries', () => {
  it('buckets raw calls per server or per tool with counts, failures and percentiles', () => {
    const store = stores.open({ clock: manualClock(at(0, 30)).now });
    // Minute 1: ten calls of t (durations 1..10, one failure), two of u; minute 3: one call of t.
    for (let d = 1; d <= 10; d++) store.metrics.recordCall(call({ startedAt: at(0, 1) + d * 1000, durationMs: d, outcome: d === 10 ? 'timeout' : 'ok' }));
    store.metrics.recordCall(call({ tool: 'u', startedAt: at(0, 1) + 500, durationMs: 100 }));
    store.metrics.recordCall(call({ tool: 'u', startedAt: at(0, 1) + 700, durationMs: 300, outcome: 'cancelled' }));
    store.metrics.recordCall(call({ startedAt: at(0, 3) + 5, durationMs: 42 }));

    const byTool = readSeries(store.db, { bucketMs: MINUTE, since: at(0), groupBy: 'tool' });
    expect(byTool).toEqual([
      { server: 's', tool: 't', points: [{ t: at(0, 1), calls: 10, errors: 1, p50Ms: 5, p95Ms: 10 }, { t: at(0, 3), calls: 1, errors: 0, p50Ms: 42, p95Ms: 42 }] },
      { server: 's', tool: 'u', points: [{ t: at(0, 1), calls: 2, errors: 0, p50Ms: 100, p95Ms: 300 }] },
    ]);
    // One 5-minute bucket: the 13 durations 1..10, 42, 100, 300 (nearest rank: p50 the 7th, p95 the 13th).
    const byServer = readSeries(store.db, { bucketMs: 5 * MINUTE, since: at(0), groupBy: 'server' });
    expect(byServer).toEqual([{ server: 's', points: [{ t: at(0), calls: 13, errors: 1, p50Ms: 7, p95Ms: 300 }] }]);
    // `since` and the tool filter narrow it.
    expect(readSeries(store.db, { bucketMs: MINUTE, since: at(0, 2), groupBy: 'tool', tool: 't' })).toEqual([{ server: 's', tool: 't', points: [{ t: at(0, 3), calls: 1, errors: 0, p50Ms: 42, p95Ms: 42 }] }]);
  });

  it('takes purged days from the daily rollups, one point per day, tools of a server added up', () => {
    const clock = manualClock(at(12));
    const store = stores.open({ clock: clock.now, metrics: { retentionDays: 2 } });
    for (const day of [1, 2, 11]) {
      for (let i = 0; i < 4; i++) store.metrics.recordCall(call({ startedAt: at(day, 60 + i), durationMs: 10 * (i + 1), outcome: i === 0 ? 'tool_error' : 'ok' }));
      store.metrics.recordCall(call({ tool: 'u', startedAt: at(day, 90), durationMs: 50 }));
    }
    store.metrics.rollup(); // days 1 and 2 are aggregated and their raw rows purged; day 11 stays raw
    expect((store.db.prepare('SELECT COUNT(*) AS n FROM metrics_calls').get() as { n: number }).n).toBe(5);

    const series = readSeries(store.db, { bucketMs: DAY_MS, since: at(0), groupBy: 'server' });
    expect(series).toHaveLength(1);
    const points = series[0]!.points;
    expect(points.map((p) => p.t)).toEqual([at(1), at(2), at(11)]);
    expect(points.map((p) => [p.calls, p.errors])).toEqual([[5, 1], [5, 1], [5, 1]]);
    // A rolled-up day: t's p50 (20) and u's (50) weighted by their calls; the raw day is exact.
    expect(points[0]!.p50Ms).toBeCloseTo((20 * 4 + 50) / 5);
    expect(points[2]!.p50Ms).toBe(30);

    const perTool = readSeries(store.db, { bucketMs: DAY_MS, since: at(0), groupBy: 'tool' });
    expect(perTool.map((s) => [s.tool, s.points.map((p) => p.calls)])).toEqual([['t', [4, 4, 4]], ['u', [1, 1, 1]]]);
    // A window after the purged days leaves them out.
    expect(readSeries(store.db, { bucketMs: DAY_MS, since: at(10), groupBy: 'server' })[0]!.points.map((p) => p.t)).toEqual([at(11)]);
  });
});

describe('recentLatencies', () => {
  it('keeps the latest N durations of each tool, oldest first', () => {
    const store = stores.open();
    for (let i = 1; i <= 5; i++) store.metrics.recordCall(call({ startedAt: at(0, i), durationMs: i }));
    store.metrics.recordCall(call({ tool: 'u', startedAt: at(0, 9), durationMs: 99 }));
    const latencies = recentLatencies(store.db, undefined, 3);
    expect(latencies.get(seriesKey('s', 't'))).toEqual([3, 4, 5]);
    expect(latencies.get(seriesKey('s', 'u'))).toEqual([99]);
  });
});
