// Owns what the optimization tools need from the running gateway (the optimizer, the rule, canonical tools,
// backends): its own module so a run (server-run.ts) can name it without importing the tools.
import type { EvalTool, BackendContext, EvaluationBackend } from './backends/backend.js';
import type { PromotionRule } from './rule.js';
import type { Optimizer } from './service.js';

/** What the tools need from the running gateway. */
export interface OptimizationToolHost {
  optimizer: Optimizer;
  rule: PromotionRule;
  /** The server's canonical tools as listed now (lists it if needed). */
  canonicalTools(server: string): Promise<EvalTool[]>;
  /** A backend by name; `context` carries the calling client's sampling for the `sampling` backend. */
  backend(name?: string, context?: BackendContext): EvaluationBackend;
  /** The settings' defaults for runs started through the admin API, and the backends that can be named. */
  defaults?: { candidates: number; repeats: number; backends: string[] };
}
