// Owns call metrics over time: calls, failures and latency percentiles per time bucket, per server or per
// server and tool, read from the raw call rows and, for days whose raw rows were purged, from the daily
// rollups (one point at the start of such a day). Also the recent latencies per tool that sparklines draw.
import type Database from 'better-sqlite3';
import { filterSql } from './metrics-repository.js';
import { FAILURE_OUTCOMES, type ServerScope } from './types.js';
import { utcDayStart } from './utc-day.js';

const FAILURES = FAILURE_OUTCOMES.map((o) => `'${o}'`).join(', ');

export interface SeriesQuery {
  /** Bucket width in ms (at least one second). */
  bucketMs: number;
  /** Only calls started at or after this time (ms since epoch). */
  since: number;
  server?: string;
  tool?: string;
  scope?: ServerScope;
  /** One series per server (tools summed) or per server and tool. */
  groupBy: 'server' | 'tool';
}

export interface SeriesPoint {
  /** Bucket start, ms since epoch. */
  t: number;
  calls: number;
  /** Calls that failed (tool error, protocol error, timeout, server down). */
  errors: number;
  /** Nearest-rank latency percentiles of the bucket's calls, ms (call-weighted means for rolled-up days). */
  p50Ms: number;
  p95Ms: number;
}

export interface Series {
  server: string;
  /** Absent when grouped by server. */
  tool?: string;
  points: SeriesPoint[];
}

interface BucketRow {
  server: string;
  tool: string | null;
  b: number;
  calls: number;
  errors: number;
  p50: number;
  p95: number;
}

interface DailyRow {
  server: string;
  tool: string;
  day: string;
  calls: number;
  failures: number;
  p50: number;
  p95: number;
}

/** Calls over time, oldest point first in each series; series sorted by server then tool. */
export function readSeries(db: Database.Database, query: SeriesQuery): Series[] {
  const { conditions, params } = filterSql({ server: query.server, tool: query.tool, scope: query.scope });
  const partition = query.groupBy === 'tool' ? 'server, tool' : 'server';
  const where = [...conditions, 'started_at >= @since'].join(' AND ');
  const bucketSql = `
    WITH src AS (
      SELECT server, tool, CAST(started_at / @bucket AS INTEGER) AS b, duration_ms, outcome FROM metrics_calls WHERE ${where}
    ),
    ranked AS (
      SELECT *, ROW_NUMBER() OVER (PARTITION BY ${partition}, b ORDER BY duration_ms) AS rn,
                COUNT(*) OVER (PARTITION BY ${partition}, b) AS n
      FROM src
    )
    SELECT server, ${query.groupBy === 'tool' ? 'tool' : 'NULL AS tool'}, b, COUNT(*) AS calls,
           SUM(outcome IN (${FAILURES})) AS errors,
           MIN(CASE WHEN rn * 100 >= 50 * n THEN duration_ms END) AS p50,
           MIN(CASE WHEN rn * 100 >= 95 * n THEN duration_ms END) AS p95
    FROM ranked GROUP BY ${partition}, b`;
  const read = db.transaction(() => {
    const buckets = db.prepare(bucketSql).all({ ...params, since: query.since, bucket: query.bucketMs }) as BucketRow[];
    // Days that have no raw rows left come from their rollup.
    const dailyWhere = conditions.length ? `WHERE ${conditions.join(' AND ')}` : '';
    const daily = db.prepare(`SELECT server, tool, day, calls, failures, p50, p95 FROM metrics_daily ${dailyWhere}`).all(params) as DailyRow[];
    const oldestRaw = (db.prepare('SELECT MIN(started_at) AS t FROM metrics_calls').get() as { t: number | null }).t;
    return { buckets, daily: daily.filter((d) => utcDayStart(d.day) >= query.since - 86_400_000 && (oldestRaw === null || utcDayStart(d.day) + 86_400_000 <= oldestRaw)) };
  });
  const { buckets, daily } = read();
  const series = new Map<string, Series>();
  const add = (server: string, tool: string | undefined, point: SeriesPoint) => {
    const key = `${server}\u0000${tool ?? ''}`;
    let entry = series.get(key);
    if (!entry) series.set(key, (entry = { server, ...(tool !== undefined && { tool }), points: [] }));
    const same = entry.points.find((p) => p.t === point.t);
    if (!same) entry.points.push(point);
    else {
      // Tools of one server on one rolled-up day: counts add, percentiles are call-weighted means.
      const calls = same.calls + point.calls;
      same.p50Ms = (same.p50Ms * same.calls + point.p50Ms * point.calls) / calls;
      same.p95Ms = (same.p95Ms * same.calls + point.p95Ms * point.calls) / calls;
      same.calls = calls;
      same.errors += point.errors;
    }
  };
  for (const d of daily) add(d.server, query.groupBy === 'tool' ? d.tool : undefined, { t: utcDayStart(d.day), calls: d.calls, errors: d.failures, p50Ms: d.p50, p95Ms: d.p95 });
  for (const row of buckets) add(row.server, row.tool ?? undefined, { t: row.b * query.bucketMs, calls: row.calls, errors: row.errors, p50Ms: row.p50, p95Ms: row.p95 });
  const sorted = [...series.values()].sort((a, b) => a.server.localeCompare(b.server) || (a.tool ?? '').localeCompare(b.tool ?? ''));
  for (const s of sorted) s.points.sort((a, b) => a.t - b.t);
  return sorted;
}

/** The latest `perTool` call durations (ms, oldest first) of each server and tool in scope. */
export function recentLatencies(db: Database.Database, scope: ServerScope | undefined, perTool: number): Map<string, number[]> {
  const { conditions, params } = filterSql({ scope });
  const where = conditions.length ? `WHERE ${conditions.join(' AND ')}` : '';
  const rows = db
    .prepare(
      `SELECT server, tool, duration_ms FROM (
         SELECT server, tool, duration_ms, started_at, id,
                ROW_NUMBER() OVER (PARTITION BY server, tool ORDER BY started_at DESC, id DESC) AS rn
         FROM metrics_calls ${where}
       ) WHERE rn <= @perTool ORDER BY started_at, id`,
    )
    .all({ ...params, perTool }) as Array<{ server: string; tool: string; duration_ms: number }>;
  const byTool = new Map<string, number[]>();
  for (const row of rows) {
    const key = seriesKey(row.server, row.tool);
    const list = byTool.get(key);
    if (list) list.push(row.duration_ms);
    else byTool.set(key, [row.duration_ms]);
  }
  return byTool;
}

export function seriesKey(server: string, tool: string): string {
  return `${server}\u0000${tool}`;
}
