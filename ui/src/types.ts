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

export interface Rate {
  rate: number;
  low: number;
  high: number;
  runs: number;
  successes: number;
}

export interface OptimizeToolState {
  tool: string;
  enabled: boolean;
  optimized: boolean;
  forced: boolean;
  stale: boolean;
  canonical: { text: string; chars: number };
  promoted?: { text: string; chars: number; candidateId?: string; promotedAt: number };
  prompts: { direct: number; indirect: number; negative: number; total: number };
  candidates: number;
  evaluation?: { batch: string; candidateId?: string; passes: boolean; refused?: string; categories: Array<{ category: string; before: Rate; after?: Rate }> };
}

export interface OptimizeServerState {
  server: string;
  optimized: number;
  total: number;
  tools: OptimizeToolState[];
}

export interface RunProgress {
  id: string;
  state: 'running' | 'completed' | 'cancelled' | 'failed';
  backend: string;
  servers: string[];
  startedAt: string;
  finishedAt?: string;
  phase: string;
  server?: string;
  tool?: string;
  done: number;
  total: number;
  etaMs?: number;
  promptsTested?: { direct: number; indirect: number; negative: number };
  candidate?: { n: number; m: number };
  outcomes: Array<{ server: string; tool: string; skipped?: string; candidates?: number; passing?: string; promoted?: string; refused?: string; overallRate?: number }>;
  error?: string;
}

export interface OptimizeState {
  servers: OptimizeServerState[];
  run: RunProgress | null;
  defaults: { candidates: number; repeats: number; backend: string; autoPromoteThreshold: number };
  backends: string[];
}
