// Owns the shape of an optimization run as the admin API, the event bus and the optimizer see it (the request,
// phases, states, per-tool outcomes, the whole progress): its own module so the optimizer (service.ts) can name
// it without importing the runner (server-run.ts).

export interface RunRequest {
  /** Servers to optimize (every tool of each, unless `tools`). */
  servers: string[];
  /** Only these tools (original names); only with one server. */
  tools?: string[];
  candidates: number;
  /** At most this many golden prompts per tool and category (all when unset). */
  promptsPerCategory?: number;
  backend: string;
  repeats: number;
  /** Promote the best passing candidate when its overall success rate reaches this (0-1); undefined: never. */
  autoPromoteThreshold?: number;
}

export type RunPhase = 'starting' | 'generating' | 'evaluating' | 'deciding' | 'done';

export type RunState = 'running' | 'completed' | 'cancelled' | 'failed';

export interface ToolOutcome {
  server: string;
  tool: string;
  skipped?: string;
  candidates?: number;
  passing?: string;
  promoted?: string;
  refused?: string;
  overallRate?: number;
}

/** What a `run` event carries: the whole state of the run, so a viewer that joins late needs nothing else. */
export interface RunProgress {
  id: string;
  state: RunState;
  backend: string;
  servers: string[];
  startedAt: string;
  finishedAt?: string;
  phase: RunPhase;
  server?: string;
  tool?: string;
  done: number;
  total: number;
  /** Estimated milliseconds left in this phase (from the pace so far). */
  etaMs?: number;
  /** Golden prompts of the current tool tested so far, per category. */
  promptsTested?: { direct: number; indirect: number; negative: number };
  /** The candidate being evaluated (1-based) of the tool's clean candidates. */
  candidate?: { n: number; m: number };
  outcomes: ToolOutcome[];
  error?: string;
}
