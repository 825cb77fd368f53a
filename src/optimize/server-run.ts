// Owns optimization runs started inside a serving gateway (the admin API's POST /api/optimize/runs): one run at a
// time over one or more servers, the three phases of the CLI (generating, evaluating, deciding) per server, live
// progress on the optimizer's event bus (`run` events with phase, tool, prompts tested per category, candidate n/m,
// done/total and an ETA), cancellation, and auto-promotion of a candidate that passes the rule AND reaches a minimum
// overall success rate.
import { randomUUID } from 'node:crypto';
import type { EvalTool } from './backends/backend.js';
import type { EvalRunRow } from '../store/index.js';
import { offlineCandidates } from './generate.js';
import { generateCandidateTexts } from './model-generate.js';
import { decidePrepared, evaluatePrepared, prepareTool, type PreparedTool, type ToolOptimizationInput } from './pipeline.js';
import { nearestSiblings } from './prompts.js';
import type { OptimizationToolHost } from './tool-host.js';
import type { CandidateDecision } from './rule.js';
import type { RunPhase, RunProgress, RunRequest, RunState, ToolOutcome } from './run-progress.js';

export type { RunPhase, RunProgress, RunRequest, RunState, ToolOutcome } from './run-progress.js';

export class RunConflict extends Error {
  constructor(readonly running: RunProgress) {
    super(`an optimization run is already going (${running.id}, ${running.servers.join(', ')}): cancel it with DELETE /api/optimize/runs/current or wait for it`);
    this.name = 'RunConflict';
  }
}

/** Progress events at most this often (state changes always go out). */
const EMIT_EVERY_MS = 100;

export class OptimizationRuns {
  private current: { progress: RunProgress; abort: AbortController; finished: Promise<void> } | undefined;
  private last: RunProgress | undefined;
  private lastEmit = 0;

  constructor(private readonly host: OptimizationToolHost) {}

  /** The running run, else the last one (undefined before any). */
  status(): RunProgress | undefined {
    return this.current?.progress ?? this.last;
  }

  /** Starts a run in the background; throws RunConflict while one is going. Resolves `finished` when it ends. */
  start(request: RunRequest): { progress: RunProgress; finished: Promise<void> } {
    if (this.current) throw new RunConflict(this.current.progress);
    const progress: RunProgress = { id: randomUUID(), state: 'running', backend: request.backend, servers: request.servers, startedAt: new Date().toISOString(), phase: 'starting', done: 0, total: 0, outcomes: [] };
    const abort = new AbortController();
    const finished = this.execute(request, progress, abort.signal).then(
      () => this.finish(progress, 'completed'),
      (error: unknown) => this.finish(progress, abort.signal.aborted ? 'cancelled' : 'failed', abort.signal.aborted ? undefined : (error as Error).message),
    );
    this.current = { progress, abort, finished };
    this.emit(progress, true);
    return { progress, finished };
  }

  /** Cancels the running run; false when none is going. */
  cancel(): boolean {
    if (!this.current) return false;
    this.current.abort.abort(new Error('cancelled through the admin API'));
    return true;
  }

  private finish(progress: RunProgress, state: RunState, error?: string): void {
    progress.state = state;
    progress.phase = 'done';
    progress.finishedAt = new Date().toISOString();
    delete progress.etaMs;
    if (error) progress.error = error;
    this.last = progress;
    this.current = undefined;
    this.emit(progress, true);
  }

  private emit(progress: RunProgress, force = false): void {
    const now = Date.now();
    if (!force && now - this.lastEmit < EMIT_EVERY_MS && progress.done < progress.total) return;
    this.lastEmit = now;
    this.host.optimizer.events.emit('run', structuredClone(progress));
  }

  private async execute(request: RunRequest, progress: RunProgress, signal: AbortSignal): Promise<void> {
    const backend = this.host.backend(request.backend);
    try {
      for (const server of request.servers) {
        signal.throwIfAborted();
        await this.optimizeServer(server, request, backend, progress, signal);
      }
    } finally {
      await backend.close?.();
    }
  }

  private async optimizeServer(server: string, request: RunRequest, backend: ReturnType<OptimizationToolHost['backend']>, progress: RunProgress, signal: AbortSignal): Promise<void> {
    const { optimizer, rule } = this.host;
    const repo = optimizer.repository;
    progress.server = server;
    const tools = await this.host.canonicalTools(server);
    const wanted = request.tools ?? tools.map((t) => t.name);
    const unknown = wanted.filter((name) => !tools.some((t) => t.name === name));
    if (unknown.length) throw new Error(`${server} has no tool ${unknown.join(', ')}`);
    const prompts = limitPerCategory(repo.prompts(server), request.promptsPerCategory);
    const siblings = nearestSiblings(tools, 3);
    const planned = wanted.filter((name) => {
      if (prompts.some((p) => p.tool === name)) return true;
      progress.outcomes.push({ server, tool: name, skipped: 'no golden prompts' });
      return false;
    });
    let phaseStarted = Date.now();
    const phase = (name: RunPhase, total: number) => {
      phaseStarted = Date.now();
      Object.assign(progress, { phase: name, done: 0, total });
      delete progress.etaMs;
      delete progress.candidate;
      this.emit(progress, true);
    };
    const step = (done: number, tool: string) => {
      signal.throwIfAborted();
      progress.done = done;
      progress.tool = tool;
      const elapsed = Date.now() - phaseStarted;
      if (done > 0) progress.etaMs = Math.round((elapsed / done) * (progress.total - done));
      this.emit(progress);
    };

    phase('generating', planned.length);
    const work: Array<{ input: ToolOptimizationInput; prepared: PreparedTool }> = [];
    for (const [i, name] of planned.entries()) {
      step(i, name);
      const tool = tools.find((t) => t.name === name)!;
      const texts = prompts.filter((p) => p.tool === name && p.split === 'optimize' && p.expectedBehavior.shouldCallTool).map((p) => p.prompt);
      const near = (siblings.get(name) ?? []).map((s) => tools.find((t) => t.name === s)).filter((t): t is EvalTool => t !== undefined);
      const generated = backend.complete
        ? (await generateCandidateTexts(backend, tool, near, texts, request.candidates)).map((description) => ({ description, source: `model:${backend.name}/${backend.model}` }))
        : offlineCandidates(tool, texts, request.candidates);
      const candidates = generated.map((c) => ({ id: `${server}.${name}.${randomUUID().slice(0, 8)}`, ...c }));
      const input: ToolOptimizationInput = { batch: randomUUID(), server, tool: name, tools, prompts, siblings: siblings.get(name) ?? [], candidates, backend, repeats: request.repeats, rule };
      work.push({ input, prepared: prepareTool(input) });
      step(i + 1, name);
    }

    phase('evaluating', work.reduce((sum, w) => sum + w.prepared.selections, 0));
    const rows: EvalRunRow[][] = [];
    let before = 0;
    for (const w of work) {
      const offset = before;
      const perPrompt = Math.max(1, w.prepared.subjects.length * backend.arms.length);
      rows.push(
        await evaluatePrepared(w.prepared, {
          ...w.input,
          onProgress: (done) => {
            const tested = w.prepared.prompts.slice(0, Math.min(w.prepared.prompts.length, Math.ceil(done / perPrompt))).filter((p) => p.tool === w.input.tool);
            progress.promptsTested = { direct: 0, indirect: 0, negative: 0 };
            for (const p of tested) progress.promptsTested[p.category]++;
            const subjectIndex = (done - 1) % w.prepared.subjects.length;
            const m = w.prepared.clean.length;
            progress.candidate = { n: Math.min(m, Math.max(1, Math.ceil((subjectIndex - 1) / 2))), m };
            step(offset + done, w.input.tool);
          },
        }),
      );
      before += w.prepared.selections;
    }

    phase('deciding', work.length);
    for (const [i, w] of work.entries()) {
      step(i, w.input.tool);
      progress.outcomes.push(this.decide(w.prepared, rows[i], w.input, request.autoPromoteThreshold));
      step(i + 1, w.input.tool);
    }
  }

  /** Stores the candidates and runs, applies the rule, and promotes when the rule and the threshold both agree. */
  private decide(prepared: PreparedTool, rows: EvalRunRow[], input: ToolOptimizationInput, threshold: number | undefined): ToolOutcome {
    const { server, tool } = input;
    const repo = this.host.optimizer.repository;
    for (const c of prepared.linted) repo.saveCandidate({ id: c.id, server, tool, description: c.description, source: c.source, lint: c.findings.map((f) => ({ rule: f.rule, message: f.message })) });
    repo.recordRuns(rows);
    const decision = decidePrepared(prepared, rows, input.rule);
    const outcome: ToolOutcome = { server, tool, candidates: prepared.linted.length };
    if (!decision) return { ...outcome, refused: 'no candidate passed the lint, so nothing was evaluated' };
    const best = decision.best ? decision.candidates.find((c) => c.candidateId === decision.best) : undefined;
    if (!best) {
      const first = decision.candidates[0]?.failing;
      return { ...outcome, ...(first && { refused: `${first.name}: ${first.detail}` }) };
    }
    const rate = overallRate(best);
    outcome.passing = best.candidateId;
    outcome.overallRate = rate;
    if (threshold === undefined) return outcome;
    if (rate < threshold) return { ...outcome, refused: `auto-promote threshold: overall success ${(rate * 100).toFixed(1)}% is below ${(threshold * 100).toFixed(0)}%` };
    const promotion = this.host.optimizer.promote(server, tool, { candidateId: best.candidateId });
    return { ...outcome, promoted: promotion.candidateId ?? best.candidateId };
  }
}

/** A candidate's overall success rate on the optimize split (0 when it has no runs). */
export function overallRate(candidate: Pick<CandidateDecision, 'summary'>): number {
  const overall = candidate.summary.optimize.find((s) => s.category === 'overall');
  return overall && overall.runs > 0 ? overall.successes / overall.runs : 0;
}

/** The first `limit` prompts of every tool and category (all when no limit). */
function limitPerCategory<T extends { tool: string; category: string }>(prompts: readonly T[], limit: number | undefined): T[] {
  if (limit === undefined) return [...prompts];
  const seen = new Map<string, number>();
  return prompts.filter((p) => {
    const key = `${p.tool}\u0000${p.category}`;
    const n = (seen.get(key) ?? 0) + 1;
    seen.set(key, n);
    return n <= limit;
  });
}
