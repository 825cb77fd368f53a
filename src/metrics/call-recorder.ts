// Owns recording finished tool calls: the Prometheus counters, the store (durable before the client
// gets the answer), the in-memory per-tool stats table ranking reads, the hourly rollup, and the one
// WAL checkpoint timer of the connection calls are written on. Consumers get narrow ports: a
// CallSink to record and a ToolStatsView to read, which counts only calls made to each server's
// current identity.
import type Database from 'better-sqlite3';
import type { Logger } from '../logging/logger.js';
import type { CallRecord, MetricsFilter, MetricsRepository, ResetResult } from '../store/index.js';
import { scheduleWalCheckpoints, type WalCheckpointer } from '../store/wal-checkpoint.js';
import type { MetricsRegistry } from './prometheus.js';
import { ToolStatsTable, type ToolStatsView } from './tool-stats-table.js';

/** Where a finished call goes. */
export interface CallSink {
  recordCall(call: CallRecord): void;
}

export interface CallRecorderOptions {
  /** The store's metrics and its connection; without them only Prometheus and the table count. */
  store?: { metrics: MetricsRepository; db: Database.Database };
  registry?: MetricsRegistry;
  /** Record every call in the store (the table follows the store: off means no counts either). */
  record: boolean;
  log: Logger;
  /** Default one hour. */
  rollupEveryMs?: number;
  /**
   * The identity a configured server has now (src/servers/identity.ts; undefined: not configured):
   * the stats view counts only calls made to it. Default: every server reads calls recorded without one.
   */
  identityOf?: (server: string) => string | undefined;
}

export const ROLLUP_EVERY_MS = 60 * 60 * 1000;

export class CallRecorder implements CallSink {
  private readonly table = new ToolStatsTable();
  private seeded = false;
  /** The table, seeded from the store on first use (a CLI command that never ranks never reads it). */
  private readonly view: ToolStatsView = {
    get: (server, tool) => {
      const identity = this.identityOf(server);
      return identity === undefined ? undefined : this.seededTable().get(server, identity, tool);
    },
  };
  private readonly rollupTimer: NodeJS.Timeout | undefined;
  private readonly checkpoints: WalCheckpointer | undefined;

  constructor(private readonly options: CallRecorderOptions) {
    const store = options.store;
    if (!store) return;
    this.rollup();
    this.rollupTimer = setInterval(() => this.rollup(), options.rollupEveryMs ?? ROLLUP_EVERY_MS);
    this.rollupTimer.unref();
    // One checkpoint timer, for the connection that writes calls.
    this.checkpoints = scheduleWalCheckpoints(store.db, { onError: (message) => options.log.error(message) });
  }

  /** Per-tool counts, in memory: what fallbacks, recommendations and search priors read. */
  get stats(): ToolStatsView {
    return this.view;
  }

  /** Reads every tool's counts from the store now (serve calls it at start, off any call's path). */
  warm(): void {
    this.seededTable();
  }

  recordCall(call: CallRecord): void {
    this.options.registry?.observeCall(call.server, call.tool, call.outcome, call.durationMs);
    const store = this.options.store;
    if (!store || !this.options.record) return;
    const table = this.seededTable(); // before the insert, so the seed cannot count this call too
    try {
      store.metrics.recordCall(call);
    } catch (error) {
      this.options.log.error({ err: (error as Error).message }, 'could not record a call in the store');
      return;
    }
    table.record(call);
  }

  /** When a client last called any tool of `server` at its current identity (ms), or undefined. */
  lastCalledAt(server: string): number | undefined {
    const identity = this.identityOf(server);
    return identity === undefined ? undefined : this.seededTable().lastCalledAt(server, identity);
  }

  /** Deletes stored calls (see MetricsRepository.reset) and their counts in the table. */
  reset(filter: MetricsFilter = {}): ResetResult {
    if (!this.options.store) return { rawDeleted: 0, dailyDeleted: 0 };
    const result = this.options.store.metrics.reset(filter);
    if (this.seeded) this.table.forget(filter);
    return result;
  }

  close(): void {
    clearInterval(this.rollupTimer);
    this.checkpoints?.stop();
  }

  /** The identity whose calls count for `server` now ('' without an identityOf; undefined: not configured). */
  private identityOf(server: string): string | undefined {
    return this.options.identityOf ? this.options.identityOf(server) : '';
  }

  /** The table, after reading every tool's counts once (one grouped scan, no percentiles). */
  private seededTable(): ToolStatsTable {
    if (this.seeded || !this.options.store) return this.table;
    this.seeded = true;
    try {
      this.table.seed(this.options.store.metrics.toolCounts());
    } catch (error) {
      this.options.log.warn({ err: (error as Error).message }, 'recorded call counts unavailable; ranking starts without them');
    }
    return this.table;
  }

  private rollup(): void {
    try {
      const { daysAggregated, rawDeleted } = this.options.store!.metrics.rollup();
      if (daysAggregated || rawDeleted) this.options.log.info({ daysAggregated, rawDeleted }, 'metrics rolled up');
    } catch (error) {
      this.options.log.error({ err: (error as Error).message }, 'metrics rollup failed; will retry');
    }
  }
}
