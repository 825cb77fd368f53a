// Owns the SQL that aggregates raw call rows: counts, nearest-rank percentiles and the last error per
// group (a server key at one server identity, and a tool: calls to two servers named alike never mix).
import { FAILURE_OUTCOMES } from './types.js';

const FAILURES = FAILURE_OUTCOMES.map((o) => `'${o}'`).join(', ');

/** Columns of metrics_daily in the order `aggregateSelect` produces them. */
export const DAILY_COLUMNS = [
  'server, identity, tool, day, calls, successes, failures, cancelled, total_ms',
  'p50, p95, p99, last_error, last_error_at, last_called_at',
].join(', ');

/** One aggregated group as `aggregateSelect` returns it (also the shape of a metrics_daily row). */
export interface AggregateRow {
  server: string;
  identity: string;
  tool: string;
  day: string | null;
  calls: number;
  successes: number;
  failures: number;
  cancelled: number;
  total_ms: number;
  p50: number;
  p95: number;
  p99: number;
  last_error: string | null;
  last_error_at: number | null;
  last_called_at: number;
}

/** Nearest-rank percentile p over the rows of a group ranked by duration: the smallest rank r with r >= p% of n. */
function percentile(p: number): string {
  return `MIN(CASE WHEN r.rn * 100 >= ${p} * r.n THEN r.duration_ms END)`;
}

/**
 * The WITH clause and the SELECT that aggregate the raw rows matching `where` (SQL over metrics_calls columns),
 * per server, identity and tool, and per UTC day when `byDay`. Returned apart so the WITH can precede an INSERT.
 * The last error is the newest failure's message (falling back to its error class, then its outcome).
 */
export function aggregateQuery(where: string, byDay: boolean): { withClause: string; select: string } {
  const part = byDay ? 'server, identity, tool, dn' : 'server, identity, tool';
  const withClause = `
    WITH src AS (
      SELECT id, server, identity, tool, started_at, duration_ms, outcome, error_class, error_message
        ${byDay ? ', started_at / 86400000 AS dn' : ''}
      FROM metrics_calls WHERE ${where}
    ),
    ranked AS (
      SELECT *, ROW_NUMBER() OVER (PARTITION BY ${part} ORDER BY duration_ms) AS rn,
                COUNT(*) OVER (PARTITION BY ${part}) AS n
      FROM src
    ),
    errs AS (
      SELECT ${part}, COALESCE(error_message, error_class, outcome) AS msg, started_at AS at,
             ROW_NUMBER() OVER (PARTITION BY ${part} ORDER BY started_at DESC, id DESC) AS ern
      FROM src WHERE outcome IN (${FAILURES})
    )`;
  const select = `
    SELECT r.server AS server, r.identity AS identity, r.tool AS tool, ${byDay ? "date(r.dn * 86400, 'unixepoch')" : 'NULL'} AS day,
           COUNT(*) AS calls,
           SUM(r.outcome = 'ok') AS successes,
           SUM(r.outcome IN (${FAILURES})) AS failures,
           SUM(r.outcome = 'cancelled') AS cancelled,
           SUM(r.duration_ms) AS total_ms,
           ${percentile(50)} AS p50, ${percentile(95)} AS p95, ${percentile(99)} AS p99,
           MAX(e.msg) AS last_error, MAX(e.at) AS last_error_at, MAX(r.started_at) AS last_called_at
    FROM ranked r
    LEFT JOIN errs e ON e.server = r.server AND e.identity = r.identity AND e.tool = r.tool ${byDay ? 'AND e.dn = r.dn' : ''} AND e.ern = 1
    GROUP BY ${byDay ? 'r.server, r.identity, r.tool, r.dn' : 'r.server, r.identity, r.tool'}`;
  return { withClause, select };
}

/**
 * Counts per server, identity and tool over every raw row, without percentiles (grouped scans, no sort): the
 * columns of AggregateRow, percentiles 0. The last error comes from SQLite's bare-column rule (a
 * column next to MAX() is taken from the row holding the maximum).
 */
export function countQuery(): string {
  return `
    SELECT g.server AS server, g.identity AS identity, g.tool AS tool, NULL AS day, g.calls, g.successes, g.failures, g.cancelled,
           g.total_ms, 0 AS p50, 0 AS p95, 0 AS p99, e.msg AS last_error, e.at AS last_error_at, g.last_called_at
    FROM (
      SELECT server, identity, tool, COUNT(*) AS calls,
             SUM(outcome = 'ok') AS successes, SUM(outcome IN (${FAILURES})) AS failures,
             SUM(outcome = 'cancelled') AS cancelled, SUM(duration_ms) AS total_ms, MAX(started_at) AS last_called_at
      FROM metrics_calls GROUP BY server, identity, tool
    ) g
    LEFT JOIN (
      SELECT server, identity, tool, MAX(started_at) AS at, COALESCE(error_message, error_class, outcome) AS msg
      FROM metrics_calls WHERE outcome IN (${FAILURES}) GROUP BY server, identity, tool
    ) e ON e.server = g.server AND e.identity = g.identity AND e.tool = g.tool`;
}

/** Recomputes daily rows exactly from raw rows (days whose raw rows are all still present). */
export function replaceDailySql(where: string): string {
  const q = aggregateQuery(where, true);
  return `${q.withClause} INSERT OR REPLACE INTO metrics_daily (${DAILY_COLUMNS}) ${q.select}`;
}

/**
 * Adds late raw rows to existing daily rows of days whose raw rows were already purged: counts add up, the
 * percentiles become call-weighted means (approximate), the last error and last call take the newest.
 */
export function mergeDailySql(where: string): string {
  const q = aggregateQuery(where, true);
  const weighted = (col: string) =>
    `${col} = (${col} * calls + excluded.${col} * excluded.calls) / (calls + excluded.calls)`;
  return `${q.withClause} INSERT INTO metrics_daily (${DAILY_COLUMNS}) ${q.select}
    ON CONFLICT (server, identity, tool, day) DO UPDATE SET
      ${weighted('p50')}, ${weighted('p95')}, ${weighted('p99')},
      calls = calls + excluded.calls,
      successes = successes + excluded.successes,
      failures = failures + excluded.failures,
      cancelled = cancelled + excluded.cancelled,
      total_ms = total_ms + excluded.total_ms,
      last_error = CASE WHEN excluded.last_error_at >= COALESCE(last_error_at, excluded.last_error_at)
                        THEN excluded.last_error ELSE last_error END,
      last_error_at = CASE WHEN excluded.last_error_at >= COALESCE(last_error_at, excluded.last_error_at)
                           THEN excluded.last_error_at ELSE last_error_at END,
      last_called_at = MAX(last_called_at, excluded.last_called_at)`;
}
