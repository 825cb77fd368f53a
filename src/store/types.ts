// Owns the shapes the store's repositories take and return; no logic beyond a few constant lists.

/** The four lists a server publishes; each is saved and tracked separately. */
export type ListingKind = 'tools' | 'prompts' | 'resources' | 'resourceTemplates';
export const LISTING_KINDS: readonly ListingKind[] = ['tools', 'prompts', 'resources', 'resourceTemplates'];

/** One listed entry (a tool, prompt, resource or resource template) exactly as the server sent it. */
export type ListingEntry = Record<string, unknown>;

/** What `saveListing` found, by entry key (name, or uri / uriTemplate for resources), in listing order. */
export interface ChangeSummary {
  added: string[];
  updated: string[];
  removed: string[];
  unchanged: number;
}

export type ChangeType = 'added' | 'updated' | 'removed';

/** One row of the catalog audit log (table `catalog_changes`). */
export interface CatalogChange {
  id: number;
  server: string;
  kind: ListingKind;
  /** The entry key: name for tools and prompts, uri for resources, uriTemplate for resource templates. */
  name: string;
  change: ChangeType;
  /** Content hash before the change; null when the entry was added. */
  oldHash: string | null;
  /** Content hash after the change; null when the entry was removed. */
  newHash: string | null;
  /** When the change was saved (ms since epoch, from the store's clock). */
  at: number;
  /** Paths of the hashed fields that differ, e.g. ["description", "inputSchema.properties.path"]; [] unless updated. */
  diffSummary: string[];
}

export interface ChangesQuery {
  /** Only changes saved at or after this time (ms since epoch). */
  since?: number;
  server?: string;
  /** At most this many rows (newest first); default 1000. */
  limit?: number;
}

/** How a forwarded call ended. */
export type CallOutcome = 'ok' | 'tool_error' | 'protocol_error' | 'timeout' | 'server_down' | 'cancelled';
export const CALL_OUTCOMES: readonly CallOutcome[] = [
  'ok',
  'tool_error',
  'protocol_error',
  'timeout',
  'server_down',
  'cancelled',
];
/** Outcomes counted as failures. `ok` is a success; `cancelled` (the client gave up) is neither. */
export const FAILURE_OUTCOMES: readonly CallOutcome[] = ['tool_error', 'protocol_error', 'timeout', 'server_down'];

/** One forwarded call, as the gateway reports it. */
export interface CallRecord {
  server: string;
  tool: string;
  /**
   * The server's identity (src/servers/identity.ts) when the call was made: what the call belongs to,
   * since two configs may give one key to different servers. Absent or '': unknown (stored as '').
   */
  identity?: string;
  /** The client session that made the call, when known. */
  session?: string;
  /** When the call started (ms since epoch). */
  startedAt: number;
  durationMs: number;
  outcome: CallOutcome;
  /** A short class name for the error (e.g. "McpError", "-32602", "ETIMEDOUT"). */
  errorClass?: string;
  /** The error text; stored truncated to 2000 characters. */
  errorMessage?: string;
  /** Size of the serialized result in bytes. */
  resultBytes?: number;
  /** Shared by related requests (a discovery and its execute, a call and its fallback retry; see src/logging/correlation.ts). */
  correlationId?: string;
}

/** Which raw call rows to read back, newest first (GET /api/calls). */
export interface RecentCallsQuery {
  server?: string;
  /** Only calls of this server identity. */
  identity?: string;
  tool?: string;
  session?: string;
  correlationId?: string;
  /** At most this many rows (default 100, at most 1000). */
  limit?: number;
}

/** One stored call row. */
export interface StoredCall extends CallRecord {
  id: number;
}

export interface ToolStatsQuery {
  server?: string;
  tool?: string;
  /** Only rows of these servers at these identities (server key -> identity); see MetricsFilter.scope. */
  scope?: ServerScope;
  /** Only calls started at or after this time (ms since epoch); daily aggregates count when their UTC day overlaps it. */
  since?: number;
}

/** Per-tool counts over raw calls and daily rollups: cheap to read (no percentiles). */
export interface ToolCounts {
  server: string;
  /** The server identity the calls were made to; '' for calls recorded before identities were kept. */
  identity: string;
  tool: string;
  /** Every recorded call, including cancelled ones. */
  calls: number;
  successes: number;
  failures: number;
  /** Calls the client cancelled: neither successes nor failures. */
  cancelled: number;
  /** successes / (successes + failures); null when every call was cancelled. */
  successRate: number | null;
  lastError?: { message: string; at: number };
  lastCalledAt: number;
}

/** Per-tool aggregates over raw calls and daily rollups. */
export interface ToolStats extends ToolCounts {
  /** Latency percentiles in ms over all calls (see docs on the approximation for rolled-up days). */
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
}

/** Configured servers and their current identities (server key -> identity). */
export type ServerScope = ReadonlyMap<string, string>;

export interface MetricsFilter {
  server?: string;
  tool?: string;
  /**
   * Only rows of these servers at their identity here (server key -> identity): what a gateway or a
   * config calls its servers' metrics. Rows of other keys or identities (another project's server of
   * the same name, calls recorded before identities were kept) are left out.
   */
  scope?: ServerScope;
}

export interface RollupResult {
  /** Daily aggregate rows written or refreshed. */
  daysAggregated: number;
  /** Raw call rows deleted by retention. */
  rawDeleted: number;
}

export interface ResetResult {
  rawDeleted: number;
  dailyDeleted: number;
}
