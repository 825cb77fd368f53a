// Owns the in-memory per-tool call counts that ranking reads on a call's path (fallback suggestions,
// recommendations, search priors): seeded once from the store, then updated by each recorded call,
// so a failed call never waits for SQL over the stored history. Counts are kept per server key and
// server identity: a reader asks for the identity its server has now, so calls made to another
// project's server of the same name (or recorded before identities were kept) never count.
import { FAILURE_OUTCOMES, type CallRecord, type MetricsFilter, type ToolCounts } from '../store/types.js';

/** What readers get: the counts of one tool, or undefined when it has no recorded calls. */
export interface ToolStatsView {
  get(server: string, tool: string): Readonly<ToolCounts> | undefined;
}

/** Longest last-error text kept in memory (the store keeps the full message). */
const MAX_MESSAGE = 300;
const FAILURES = new Set<string>(FAILURE_OUTCOMES);

export class ToolStatsTable {
  /** server → identity → tool → counts (nested, so a lookup builds no key string). */
  private readonly byServer = new Map<string, Map<string, Map<string, ToolCounts>>>();

  /** Replaces the whole table with `rows` (the store's counts). */
  seed(rows: readonly ToolCounts[]): void {
    this.byServer.clear();
    for (const row of rows) this.tools(row.server, row.identity).set(row.tool, { ...row, ...(row.lastError && { lastError: { ...row.lastError } }) });
  }

  /** Adds one finished call. */
  record(call: CallRecord): void {
    const identity = call.identity ?? '';
    const tools = this.tools(call.server, identity);
    let counts = tools.get(call.tool);
    if (!counts) {
      counts = { server: call.server, identity, tool: call.tool, calls: 0, successes: 0, failures: 0, cancelled: 0, successRate: null, lastCalledAt: 0 };
      tools.set(call.tool, counts);
    }
    counts.calls++;
    if (call.outcome === 'ok') counts.successes++;
    else if (call.outcome === 'cancelled') counts.cancelled++;
    else if (FAILURES.has(call.outcome)) {
      counts.failures++;
      if (!counts.lastError || call.startedAt >= counts.lastError.at) {
        counts.lastError = { message: (call.errorMessage ?? call.errorClass ?? call.outcome).slice(0, MAX_MESSAGE), at: call.startedAt };
      }
    }
    const decided = counts.successes + counts.failures;
    counts.successRate = decided === 0 ? null : counts.successes / decided;
    if (call.startedAt > counts.lastCalledAt) counts.lastCalledAt = call.startedAt;
  }

  /** Drops the counts a store reset deleted (a server, a tool of any or one server, or everything; within the scope when given). */
  forget(filter: MetricsFilter = {}): void {
    for (const [server, identities] of this.byServer) {
      if (filter.server !== undefined && server !== filter.server) continue;
      for (const [identity, tools] of identities) {
        if (filter.scope !== undefined && filter.scope.get(server) !== identity) continue;
        if (filter.tool === undefined) tools.clear();
        else tools.delete(filter.tool);
        if (tools.size === 0) identities.delete(identity);
      }
      if (identities.size === 0) this.byServer.delete(server);
    }
  }

  /** The counts of a tool of `server` at `identity` ('' for calls recorded without one). */
  get(server: string, identity: string, tool: string): Readonly<ToolCounts> | undefined {
    return this.byServer.get(server)?.get(identity)?.get(tool);
  }

  /** When any tool of `server` at `identity` was last called (ms), or undefined when never. */
  lastCalledAt(server: string, identity: string): number | undefined {
    let last: number | undefined;
    for (const counts of this.byServer.get(server)?.get(identity)?.values() ?? []) if (counts.lastCalledAt > (last ?? 0)) last = counts.lastCalledAt;
    return last;
  }

  /** Number of tools with counts (per server identity). */
  get size(): number {
    let n = 0;
    for (const identities of this.byServer.values()) for (const tools of identities.values()) n += tools.size;
    return n;
  }

  private tools(server: string, identity: string): Map<string, ToolCounts> {
    let identities = this.byServer.get(server);
    if (!identities) {
      identities = new Map();
      this.byServer.set(server, identities);
    }
    let tools = identities.get(identity);
    if (!tools) {
      tools = new Map();
      identities.set(identity, tools);
    }
    return tools;
  }
}
