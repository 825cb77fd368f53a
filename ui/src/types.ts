// Owns the shapes the admin API answers with, as the dashboard reads them.

export interface ConnectionStatus {
  state: string;
  profile: string;
  pid: number | null;
  connectedAt: string | null;
  lastSuccessAt: string | null;
  downSince: string | null;
  restarts: number;
  lastError: string | null;
  serverInfo: { name: string; version: string } | null;
}

export interface ServerStatus {
  key: string;
  transport: string;
  state: string;
  error: string | null;
  connections: ConnectionStatus[];
}

export interface ToolRow {
  server: string;
  name: string;
  exposed: string | null;
  enabled: boolean;
  title?: string;
  description: string;
  canonicalDescription: string;
  promoted: boolean;
  tokens: number;
  inputSchema: unknown;
  stats: {
    calls: number;
    failures: number;
    successRate: number | null;
    p50Ms: number | null;
    p95Ms: number | null;
    lastError: { message: string; at: number } | null;
    lastCalledAt: number | null;
    latencies: number[];
  };
}

export interface ToolsetView {
  name: string;
  description?: string;
  tools: Array<{ server: string; tool: string }>;
  missing: Array<{ server: string; tool: string; reason: string }>;
  equipped: boolean;
  endpoint: string;
  createdAt: number;
  updatedAt: number;
}

export interface SeriesPoint {
  t: number;
  calls: number;
  errors: number;
  p50Ms: number;
  p95Ms: number;
}

export interface SeriesResponse {
  since: number;
  until: number;
  bucketMs: number;
  groupBy: 'server' | 'tool';
  series: Array<{ server: string; tool?: string; points: SeriesPoint[] }>;
}

export interface CallActivity {
  kind: 'call';
  at: number;
  server: string;
  tool: string;
  session?: string;
  correlationId?: string;
  status: string;
  durationMs: number;
  error?: string;
}

export interface ServerRequestActivity {
  kind: 'server-request';
  at: number;
  server: string;
  method: string;
  session?: string;
  correlationId?: string;
}

export type Activity = CallActivity | ServerRequestActivity;

export interface SearchHit {
  name: string;
  server?: string;
  score?: number;
}
