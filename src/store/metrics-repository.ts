// Owns call metrics storage: recording each forwarded call, per-tool statistics, daily rollup, retention and reset.
// Rows belong to a server key at one server identity (src/servers/identity.ts): reads and resets take a
// scope (the configured servers and their identities) so another project's server "x" never counts.
import type Database from 'better-sqlite3';
import { StoreError } from './errors.js';
import { mergeDailySql, replaceDailySql, aggregateQuery, countQuery, type AggregateRow } from './metrics-sql.js';
import {
  CALL_OUTCOMES,
  type CallRecord,
  type MetricsFilter,
  type RecentCallsQuery,
  type StoredCall,
  type ResetResult,
  type RollupResult,
  type ServerScope,
  type ToolCounts,
  type ToolStats,
  type ToolStatsQuery,
} from './types.js';
import { DAY_MS, startOfUtcDay, utcDayStart } from './utc-day.js';

/** Call metrics storage behind an interface a Postgres store can implement too. */
export interface MetricsRepository {
  /** Raw rows are kept for the current UTC day plus this many full days before it. */
  readonly retentionDays: number;
  /**
   * Stores one call, durable against a process crash once it returns: a single INSERT (returns the row
   * id), or with the call journal one appended line, inserted at the next flush (returns 0).
   */
  recordCall(call: CallRecord): number;
  /**
   * Per-tool statistics, sorted by server then tool. Each UTC day is counted once: from raw rows when the day
   * still has any, else from its daily aggregate. Percentiles are exact (nearest rank) over raw rows; when daily
   * aggregates take part, the result is the call-weighted mean of the raw percentile and each day's stored one,
   * an approximation (percentiles do not compose exactly).
   */
  toolStats(query?: ToolStatsQuery): ToolStats[];
  /** Raw call rows not yet rolled up, newest first, filtered (by correlationId: every row of one correlation). */
  recentCalls(query?: RecentCallsQuery): StoredCall[];
  /**
   * Per-tool counts over every recorded call (raw rows and daily aggregates, each UTC day once, as
   * in toolStats) without percentiles: one grouped scan, for seeding in-memory tables at start.
   */
  toolCounts(): ToolCounts[];
  /**
   * Aggregates raw rows that started before the current UTC day into metrics_daily (recomputed, so re-running
   * adds nothing twice), then deletes raw rows older than the retention window. Daily rows are kept forever.
   */
  rollup(now?: number): RollupResult;
  /** Deletes raw and daily rows of a server, a tool (of any server, or of `server`), or everything; within `scope` when given. */
  reset(filter?: MetricsFilter): ResetResult;
}

export interface MetricsRepositoryOptions {
  clock: () => number;
  /** Default 7. */
  retentionDays?: number;
}

export const DEFAULT_RETENTION_DAYS = 7;
/** Longest error message stored; the rest is cut (a message is for a human to read, not a log). */
export const MAX_ERROR_MESSAGE = 2000;
/** store_meta key: raw rows before this time (ms) have been purged, so their days' aggregates are final. */
const PURGED_BEFORE_KEY = 'metrics_purged_before';

const OUTCOMES = new Set<string>(CALL_OUTCOMES);

type Params = Record<string, string | number | null>;

/** An error message as stored: cut to MAX_ERROR_MESSAGE characters. */
export function storedMessage(message: string | undefined): string | undefined {
  return message !== undefined && message.length > MAX_ERROR_MESSAGE ? `${message.slice(0, MAX_ERROR_MESSAGE - 1)}…` : message;
}

/** Throws StoreError invalid_input unless `call` can be recorded (the message names the field). */
export function checkCall(call: CallRecord): void {
  if (!OUTCOMES.has(call.outcome)) {
    const got = JSON.stringify(call.outcome);
    throw new StoreError('invalid_input', `recordCall: outcome must be one of ${CALL_OUTCOMES.join(', ')}, got ${got}`);
  }
  if (typeof call.server !== 'string' || typeof call.tool !== 'string' || !call.server || !call.tool) {
    throw new StoreError('invalid_input', 'recordCall: server and tool must be non-empty strings');
  }
  if (!Number.isFinite(call.startedAt) || !Number.isFinite(call.durationMs)) {
    const got = `${call.startedAt} and ${call.durationMs}`;
    throw new StoreError('invalid_input', `recordCall: startedAt and durationMs must be finite numbers, got ${got}`);
  }
}

export class SqliteMetricsRepository implements MetricsRepository {
  readonly retentionDays: number;
  private readonly db: Database.Database;
  private readonly clock: () => number;
  private insert: Database.Statement<unknown[]> | undefined;
  private readonly statements = new Map<string, Database.Statement>();

  constructor(db: Database.Database, options: MetricsRepositoryOptions) {
    this.retentionDays = checkRetentionDays(options.retentionDays);
    this.db = db;
    this.clock = options.clock;
  }

  recordCall(call: CallRecord): number {
    checkCall(call);
    // Prepared on first use: a store opened at an older schema (tests of migrations) has no correlation_id yet.
    this.insert ??= this.db.prepare(
      `INSERT INTO metrics_calls
         (server, identity, tool, session, started_at, duration_ms, outcome, error_class, error_message, result_bytes, correlation_id)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const info = this.insert.run(
      call.server,
      call.identity ?? '',
      call.tool,
      call.session ?? null,
      Math.trunc(call.startedAt),
      call.durationMs,
      call.outcome,
      call.errorClass ?? null,
      storedMessage(call.errorMessage) ?? null,
      call.resultBytes ?? null,
      call.correlationId ?? null,
    );
    return Number(info.lastInsertRowid);
  }

  recentCalls(query: RecentCallsQuery = {}): StoredCall[] {
    const limit = Math.min(Math.max(Math.trunc(query.limit ?? 100), 1), 1000);
    const filters = { server: 'server', identity: 'identity', tool: 'tool', session: 'session', correlationId: 'correlation_id' } as const;
    const conditions: string[] = [];
    const params: Params = { limit };
    for (const [key, column] of Object.entries(filters) as Array<[keyof typeof filters, string]>) {
      if (query[key] === undefined) continue;
      conditions.push(`${column} = @${key}`);
      params[key] = query[key]!;
    }
    const where = conditions.length ? `WHERE ${conditions.join(' AND ')}` : '';
    const rows = this.statement(`SELECT * FROM metrics_calls ${where} ORDER BY started_at DESC, id DESC LIMIT @limit`).all(params) as Array<Record<string, string | number | null>>;
    return rows.map((row) => ({
      id: row.id as number,
      server: row.server as string,
      identity: row.identity as string,
      tool: row.tool as string,
      startedAt: row.started_at as number,
      durationMs: row.duration_ms as number,
      outcome: row.outcome as StoredCall['outcome'],
      ...(row.session !== null && { session: row.session as string }),
      ...(row.error_class !== null && { errorClass: row.error_class as string }),
      ...(row.error_message !== null && { errorMessage: row.error_message as string }),
      ...(row.result_bytes !== null && { resultBytes: row.result_bytes as number }),
      ...(row.correlation_id != null && { correlationId: row.correlation_id as string }),
    }));
  }

  toolStats(query: ToolStatsQuery = {}): ToolStats[] {
    // One read transaction: every query below sees the same snapshot, even while another process rolls up.
    return this.db.transaction(() => this.readStats(query))();
  }

  toolCounts(): ToolCounts[] {
    return this.db.transaction(() => this.readStats({}, false).map(({ p50Ms: _p50, p95Ms: _p95, p99Ms: _p99, ...counts }) => counts))();
  }

  private readStats(query: ToolStatsQuery, percentiles = true): ToolStats[] {
    const { conditions, params } = filterSql(query);
    const rawWhere = [...conditions, ...(query.since === undefined ? [] : ['started_at >= @since'])];
    const rawSql = percentiles ? Object.values(aggregateQuery(rawWhere.length ? rawWhere.join(' AND ') : '1', false)).join(' ') : countQuery();
    const rawRows = this.statement(rawSql).all(params) as AggregateRow[];

    // A day counts from its aggregate when it has no raw rows left, or when it is final (its raw rows were
    // purged, so raw rows there are late arrivals the aggregate does not include yet).
    const where = conditions.length ? `WHERE ${conditions.join(' AND ')}` : '';
    const rawDaySql = `SELECT DISTINCT server, identity, tool, started_at / ${DAY_MS} AS dn FROM metrics_calls ${where}`;
    const rawDayRows = this.statement(rawDaySql).all(params) as { server: string; identity: string; tool: string; dn: number }[];
    const rawDays = new Set(rawDayRows.map((r) => dayKey(r, r.dn * DAY_MS)));
    const finalBefore = this.purgedBefore() ?? -Infinity;
    const allDaily = this.statement(`SELECT * FROM metrics_daily ${where}`).all(params) as AggregateRow[];
    const dailyRows = allDaily.filter((row) => {
      const start = utcDayStart(row.day as string);
      if (query.since !== undefined && start + DAY_MS <= query.since) return false; // counts when the day overlaps `since`
      return start < finalBefore || !rawDays.has(dayKey(row, start));
    });
    return combine(rawRows, dailyRows);
  }

  rollup(now: number = this.clock()): RollupResult {
    const todayStart = startOfUtcDay(now);
    const purgeBefore = todayStart - this.retentionDays * DAY_MS;
    const run = this.db.transaction((): RollupResult => {
      const finalBefore = this.purgedBefore();
      let daysAggregated = 0;
      if (finalBefore !== undefined) {
        // Late rows in days already purged: merge into their final aggregates before they are purged too.
        daysAggregated += this.statement(mergeDailySql('started_at < @finalBefore')).run({ finalBefore }).changes;
      }
      // Days whose raw rows are all still here: recompute exactly (so re-running never counts twice).
      const fresh =
        finalBefore === undefined ? 'started_at < @todayStart' : 'started_at >= @finalBefore AND started_at < @todayStart';
      const params = finalBefore === undefined ? { todayStart } : { todayStart, finalBefore };
      daysAggregated += this.statement(replaceDailySql(fresh)).run(params).changes;
      const rawDeleted = this.statement('DELETE FROM metrics_calls WHERE started_at < ?').run(purgeBefore).changes;
      if (finalBefore === undefined || purgeBefore > finalBefore) {
        this.statement(
          'INSERT INTO store_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
        ).run(PURGED_BEFORE_KEY, String(purgeBefore));
      }
      return { daysAggregated, rawDeleted };
    });
    return run.immediate();
  }

  reset(filter: MetricsFilter = {}): ResetResult {
    const { conditions, params } = filterSql(filter);
    const where = conditions.length ? `WHERE ${conditions.join(' AND ')}` : '';
    const run = this.db.transaction((): ResetResult => ({
      rawDeleted: this.statement(`DELETE FROM metrics_calls ${where}`).run(params).changes,
      dailyDeleted: this.statement(`DELETE FROM metrics_daily ${where}`).run(params).changes,
    }));
    return run.immediate();
  }

  private purgedBefore(): number | undefined {
    const row = this.statement('SELECT value FROM store_meta WHERE key = ?').get(PURGED_BEFORE_KEY) as
      | { value: string }
      | undefined;
    return row === undefined ? undefined : Number(row.value);
  }

  /** Prepares each distinct SQL text once (the filters give a handful of variants). */
  private statement(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }
}

/** The retention option, defaulted and validated (a whole number of days >= 0). */
export function checkRetentionDays(days: number | undefined): number {
  const retention = days ?? DEFAULT_RETENTION_DAYS;
  if (!Number.isInteger(retention) || retention < 0) {
    throw new StoreError('invalid_input', `metricsRetentionDays must be a whole number of days >= 0, got ${retention}`);
  }
  return retention;
}

function dayKey(row: { server: string; identity: string; tool: string }, dayStart: number): string {
  return `${row.server}\u0000${row.identity}\u0000${row.tool}\u0000${dayStart}`;
}

/** One condition: the row is of a server in `scope` at its identity there ('0', none, for an empty scope). */
function scopeSql(scope: ServerScope, params: Params): string {
  const pairs = [...scope].map(([server, identity], i) => {
    params[`scopeServer${i}`] = server;
    params[`scopeIdentity${i}`] = identity;
    return `(server = @scopeServer${i} AND identity = @scopeIdentity${i})`;
  });
  return pairs.length ? `(${pairs.join(' OR ')})` : '0';
}

/** WHERE conditions (server, tool, scope) and the named parameters for them, plus @since when given. */
export function filterSql(filter: MetricsFilter & { since?: number }): { conditions: string[]; params: Params } {
  const conditions: string[] = [];
  const params: Params = {};
  if (filter.scope !== undefined) conditions.push(scopeSql(filter.scope, params));
  if (filter.server !== undefined) {
    conditions.push('server = @server');
    params.server = filter.server;
  }
  if (filter.tool !== undefined) {
    conditions.push('tool = @tool');
    params.tool = filter.tool;
  }
  if (filter.since !== undefined) params.since = filter.since;
  return { conditions, params };
}

/** Merges raw-row aggregates and daily rows into one ToolStats per server and tool. */
function combine(rawRows: AggregateRow[], dailyRows: AggregateRow[]): ToolStats[] {
  const groups = new Map<string, AggregateRow[]>();
  for (const row of [...rawRows, ...dailyRows]) {
    const key = `${row.server}\u0000${row.identity}\u0000${row.tool}`;
    const list = groups.get(key);
    if (list) list.push(row);
    else groups.set(key, [row]);
  }
  const stats = [...groups.values()].map(toStats);
  return stats.sort((a, b) => compare(a.server, b.server) || compare(a.tool, b.tool) || compare(a.identity, b.identity));
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function toStats(rows: AggregateRow[]): ToolStats {
  const sum = (pick: (row: AggregateRow) => number) => rows.reduce((total, row) => total + pick(row), 0);
  const calls = sum((r) => r.calls);
  const successes = sum((r) => r.successes);
  const failures = sum((r) => r.failures);
  // One group: exact. Several (raw rows plus rolled-up days): the call-weighted mean, an approximation.
  const weighted = (pick: (row: AggregateRow) => number) =>
    rows.length === 1 ? pick(rows[0]) : sum((r) => pick(r) * r.calls) / calls;
  let lastError: ToolStats['lastError'];
  for (const row of rows) {
    if (row.last_error_at !== null && (lastError === undefined || row.last_error_at > lastError.at)) {
      lastError = { message: row.last_error ?? 'unknown error', at: row.last_error_at };
    }
  }
  const stats: ToolStats = {
    server: rows[0].server,
    identity: rows[0].identity,
    tool: rows[0].tool,
    calls,
    successes,
    failures,
    cancelled: sum((r) => r.cancelled),
    successRate: successes + failures === 0 ? null : successes / (successes + failures),
    p50Ms: weighted((r) => r.p50),
    p95Ms: weighted((r) => r.p95),
    p99Ms: weighted((r) => r.p99),
    lastCalledAt: Math.max(...rows.map((r) => r.last_called_at)),
  };
  if (lastError) stats.lastError = lastError;
  return stats;
}
