// Owns the call metrics that listed tools carry when `includeMetrics` is on: each tool the store has
// calls for gets its success rate and median latency in `_meta["switchboard/metrics"]` (never in the
// description, which clients show to the model and hash). Stats are read from the store at most
// once per `cacheMs`, so a tools/list stays a table lookup between reads, and only for each server's
// current identity (calls to another project's server of the same name never show).
import type { MetricsRepository, ServerScope, ToolStats } from '../store/index.js';

export const TOOL_METRICS_META_KEY = 'switchboard/metrics';
export const TOOL_METRICS_CACHE_MS = 10_000;

/** A listed tool as the catalog holds it. */
type Tool = Record<string, unknown>;

/** What a listed tool carries under `_meta["switchboard/metrics"]`. */
export interface ToolMetricsMeta {
  /** successes / (successes + failures), 0..1 rounded to 3 decimals; null when every call was cancelled. */
  success_rate: number | null;
  /** Median latency in ms (rolled-up days approximate it, see docs/metrics.md). */
  p50_ms: number;
  /** Every recorded call, cancelled ones included. */
  calls: number;
}

export interface ToolMetricsOptions {
  clock?: () => number;
  cacheMs?: number;
  /** Called when the store cannot be read; the tools are then listed without metrics. */
  onError: (message: string) => void;
  /** The configured servers' identities now (default: every row, whatever its identity). */
  scope?: () => ServerScope;
}

export class ToolMetricsAnnotator {
  private readonly clock: () => number;
  private readonly cacheMs: number;
  private cached: { at: number; byTool: Map<string, ToolMetricsMeta> } | undefined;

  constructor(
    private readonly repository: MetricsRepository,
    private readonly options: ToolMetricsOptions,
  ) {
    this.clock = options.clock ?? Date.now;
    this.cacheMs = options.cacheMs ?? TOOL_METRICS_CACHE_MS;
  }

  /**
   * Copies of `tools` with their metrics in `_meta` (tools without recorded calls, or whose origin is
   * unknown, are returned as they are). `originOf` maps a listed name to its server and own name.
   */
  annotate<T extends Tool>(tools: readonly T[], originOf: (name: string) => { server: string; tool: string } | undefined): T[] {
    const byTool = this.stats();
    if (byTool.size === 0) return [...tools];
    return tools.map((tool) => {
      const origin = typeof tool.name === 'string' ? originOf(tool.name) : undefined;
      const metrics = origin && byTool.get(key(origin.server, origin.tool));
      if (!metrics) return tool;
      const meta = tool._meta && typeof tool._meta === 'object' ? (tool._meta as Record<string, unknown>) : {};
      return { ...tool, _meta: { ...meta, [TOOL_METRICS_META_KEY]: metrics } };
    });
  }

  private stats(): Map<string, ToolMetricsMeta> {
    const now = this.clock();
    if (this.cached && now - this.cached.at < this.cacheMs) return this.cached.byTool;
    const byTool = new Map<string, ToolMetricsMeta>();
    try {
      for (const s of this.repository.toolStats(this.options.scope ? { scope: this.options.scope() } : {})) byTool.set(key(s.server, s.tool), metaOf(s));
    } catch (error) {
      this.options.onError(`call metrics unavailable; tools listed without them: ${(error as Error).message}`);
    }
    this.cached = { at: now, byTool };
    return byTool;
  }
}

function key(server: string, tool: string): string {
  return `${server}\u0000${tool}`;
}

function metaOf(s: ToolStats): ToolMetricsMeta {
  return {
    success_rate: s.successRate === null ? null : Math.round(s.successRate * 1000) / 1000,
    p50_ms: Math.round(s.p50Ms * 100) / 100,
    calls: s.calls,
  };
}
