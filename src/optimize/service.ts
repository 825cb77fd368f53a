// Owns the stored side of optimization: promoting a candidate (only when its recorded evaluation passes the rule,
// unless forced, and then recorded as forced), reverting to the canonical text, and status and report data.
// Tells its owner which servers' descriptions changed so the gateway can re-apply them and send list_changed.
import { EventEmitter } from 'node:events';
import type { OptimizeRepository, Promotion, StoredCandidate } from '../store/index.js';
import type { EvalPrompt } from './evaluate.js';
import { decideFromRows } from './pipeline.js';
import type { CandidateDecision, Condition, Decision, PromotionRule } from './rule.js';
import type { RunProgress } from './run-progress.js';

/** Progress and decisions, for the admin API's event stream, the CLI and the TUI. */
export interface OptimizeEventMap {
  phase: [event: { server: string; tool?: string; phase: 'generating' | 'linting' | 'evaluating' | 'deciding' | 'done'; done: number; total: number }];
  decision: [event: { server: string; tool: string; candidateId?: string; promoted: boolean; forced: boolean; reason?: string }];
  /** A run started through the admin API (server-run.ts): its whole state on every change. */
  run: [event: RunProgress];
}
export class OptimizeEvents extends EventEmitter<OptimizeEventMap> {}

/** The rule refused a promotion; `condition` is the first one that failed. */
export class PromotionRefused extends Error {
  constructor(
    readonly server: string,
    readonly tool: string,
    readonly condition: Pick<Condition, 'name' | 'detail'>,
  ) {
    super(`promotion of ${server}.${tool} refused: ${condition.name}: ${condition.detail}. Pass force to promote anyway (recorded and shown as forced).`);
    this.name = 'PromotionRefused';
  }
}

export class OptimizeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OptimizeError';
  }
}

export interface OptimizerOptions {
  repository: OptimizeRepository;
  rule: PromotionRule;
  /** Descriptions of these servers changed (re-apply overrides, send list_changed). */
  onChanged?: (servers: string[]) => void;
  events?: OptimizeEvents;
}

export class Optimizer {
  readonly events: OptimizeEvents;

  constructor(private readonly options: OptimizerOptions) {
    this.events = options.events ?? new OptimizeEvents();
  }

  get repository(): OptimizeRepository {
    return this.options.repository;
  }

  /** The rule's decision on the newest evaluation batch of a tool, from the stored runs and prompts. */
  decision(server: string, tool: string, batch = this.repository.latestBatch(server, tool)): { batch: string; decision: Decision } | undefined {
    if (!batch) return undefined;
    const rows = this.repository.runs({ batch });
    const prompts = this.promptsOf(server);
    const ids = [...new Set(rows.map((r) => r.subject))].filter((s) => s !== 'canonical' && s !== 'paraphrase' && !s.startsWith('paraphrase:'));
    return { batch, decision: decideFromRows(tool, rows, prompts, ids, this.options.rule) };
  }

  private promptsOf(server: string): EvalPrompt[] {
    return this.repository.prompts(server);
  }

  /**
   * Promotes a candidate. Refused (PromotionRefused, naming the failing condition) unless its newest evaluation
   * passes the rule, or `force` is set: then it is recorded as forced. A text without a candidate needs force.
   */
  promote(server: string, tool: string, request: { candidateId?: string; description?: string; force?: boolean }): Promotion {
    const canonical = this.repository.canonical(server, tool);
    if (!canonical) throw new OptimizeError(`${server}.${tool} has not been listed yet, so its canonical definition is unknown; run "switchboard refresh --server ${server}" first`);
    let candidate: StoredCandidate | undefined;
    if (request.candidateId) {
      candidate = this.repository.candidate(request.candidateId);
      if (!candidate || candidate.server !== server || candidate.tool !== tool) throw new OptimizeError(`no candidate "${request.candidateId}" for ${server}.${tool}`);
    }
    const description = candidate?.description ?? request.description;
    if (!description) throw new OptimizeError(`promote ${server}.${tool}: give a candidate id or a description`);
    let verdict: CandidateDecision | undefined;
    let batch: string | undefined;
    if (candidate) {
      const batches = [...new Set(this.repository.runs({ server, tool }).filter((r) => r.subject === candidate!.id).map((r) => r.batch))];
      batch = batches[batches.length - 1];
      verdict = batch ? this.decision(server, tool, batch)?.decision.candidates.find((c) => c.candidateId === candidate!.id) : undefined;
    }
    const passed = verdict?.promote === true;
    if (!passed && !request.force) {
      const condition = verdict?.failing ?? { name: 'significance' as const, detail: candidate ? `candidate ${candidate.id} has no evaluation` : 'a text without a candidate has no evaluation' };
      this.events.emit('decision', { server, tool, ...(candidate && { candidateId: candidate.id }), promoted: false, forced: false, reason: `${condition.name}: ${condition.detail}` });
      throw new PromotionRefused(server, tool, condition);
    }
    const promotion = this.repository.promote({
      server,
      tool,
      description,
      ...(candidate && { candidateId: candidate.id }),
      canonicalHash: canonical.hash,
      ...(verdict && { evaluation: { batch, decision: verdict } }),
      forced: !passed,
    });
    this.events.emit('decision', { server, tool, ...(candidate && { candidateId: candidate.id }), promoted: true, forced: !passed });
    this.options.onChanged?.([server]);
    return promotion;
  }

  /** Restores the canonical description of the given tools (default: every promoted tool of the server). */
  revert(server: string, tools?: readonly string[]): string[] {
    const targets = tools ?? this.repository.activePromotions().filter((p) => p.server === server).map((p) => p.tool);
    const reverted = targets.filter((tool) => this.repository.revert(server, tool));
    if (reverted.length) this.options.onChanged?.([server]);
    return reverted;
  }

  status(server?: string): Array<{ server: string; tool: string; canonical: string | undefined; promotion?: Promotion; candidates: number; prompts: number }> {
    const promotions = new Map(this.repository.activePromotions().map((p) => [`${p.server}\u0000${p.tool}`, p]));
    return this.repository.canonicalTools(server).map((c) => ({
      server: c.server,
      tool: c.tool,
      canonical: c.definition.description as string | undefined,
      ...(promotions.has(`${c.server}\u0000${c.tool}`) && { promotion: promotions.get(`${c.server}\u0000${c.tool}`) }),
      candidates: this.repository.candidates(c.server, c.tool).length,
      prompts: this.repository.prompts(c.server, c.tool).length,
    }));
  }
}
