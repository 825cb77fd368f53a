// Owns optimizing one tool end to end, without storage: lint the candidates, evaluate canonical, the paraphrase
// null-control and every clean candidate (and its paraphrase) on the tool's golden prompts and its siblings',
// then apply the promotion rule. The CLI, the MCP tools and the retrieval benchmark all call this; the CLI calls its
// three steps (prepare, evaluate, decide) separately so each phase has its own progress.
import type { EvalRunRow } from '../store/index.js';
import { toolId, type EvalTool, type EvaluationBackend } from './backends/backend.js';
import { evaluationSize, outcomesOf, runEvaluation, type EvalPrompt, type Subject } from './evaluate.js';
import { paraphrase } from './generate.js';
import { lintCandidate, type LintFinding } from './lint.js';
import { decide, type Decision, type PromotionRule } from './rule.js';

export interface CandidateInput {
  id: string;
  description: string;
  source: string;
}

export interface ToolOptimizationInput {
  batch: string;
  server: string;
  /** toolId of the tool to optimize. */
  tool: string;
  tools: readonly EvalTool[];
  /** Golden prompts of every tool (the tool's own are selected here, and its siblings' for the stealing check). */
  prompts: readonly EvalPrompt[];
  /** The tool's nearest siblings (toolIds). */
  siblings: readonly string[];
  candidates: readonly CandidateInput[];
  backend: EvaluationBackend;
  repeats: number;
  rule: PromotionRule;
  /** Catalog descriptions for the lint's n-gram model (default: the tools' own). */
  catalogDescriptions?: readonly string[];
  /** At most this many sibling prompts (default 15). */
  maxSiblingPrompts?: number;
  onProgress?: (done: number, total: number) => void;
}

export interface ToolOptimization {
  tool: string;
  canonical: string;
  linted: Array<CandidateInput & { findings: LintFinding[] }>;
  /** Undefined when no candidate survived the lint (nothing was evaluated). */
  decision?: Decision;
  rows: EvalRunRow[];
}

/** A tool ready to evaluate: its candidates linted, the subjects and prompts chosen, the number of selections known. */
export interface PreparedTool {
  tool: string;
  canonical: string;
  linted: ToolOptimization['linted'];
  /** Candidates that passed the lint, in order. */
  clean: string[];
  subjects: Subject[];
  prompts: EvalPrompt[];
  /** Selections the evaluation will make (0: nothing to evaluate). */
  selections: number;
}

/** Lints the candidates and plans the evaluation (no backend call); the CLI plans every tool first to size its bars. */
export function prepareTool(input: ToolOptimizationInput): PreparedTool {
  const target = input.tools.find((t) => toolId(t) === input.tool);
  if (!target) throw new Error(`${input.server}: no tool "${input.tool}"`);
  const canonical = target.description ?? '';
  const own = input.prompts.filter((p) => p.tool === input.tool);
  const siblingSet = new Set(input.siblings);
  const siblingPrompts = input.prompts.filter((p) => siblingSet.has(p.tool) && p.expectedBehavior.shouldCallTool && p.split === 'optimize').slice(0, input.maxSiblingPrompts ?? 15);
  const linted = input.candidates.map((c) => ({
    ...c,
    findings: lintCandidate(c.description, {
      goldenPrompts: own.map((p) => p.prompt),
      catalogDescriptions: input.catalogDescriptions ?? input.tools.map((t) => t.description ?? ''),
      otherTools: input.tools.filter((t) => toolId(t) !== input.tool).map((t) => t.name),
    }),
  }));
  const clean = linted.filter((c) => c.findings.length === 0);
  if (clean.length === 0 || own.length === 0) return { tool: input.tool, canonical, linted, clean: [], subjects: [], prompts: [], selections: 0 };
  const subjects = [
    { subject: 'canonical', description: canonical },
    { subject: 'paraphrase', description: paraphrase(canonical) },
    ...clean.flatMap((c) => [
      { subject: c.id, description: c.description },
      { subject: `paraphrase:${c.id}`, description: paraphrase(c.description) },
    ]),
  ];
  const prompts = [...own, ...siblingPrompts];
  return { tool: input.tool, canonical, linted, clean: clean.map((c) => c.id), subjects, prompts, selections: evaluationSize(input.backend, input.repeats, prompts.length, subjects.length) };
}

/** Runs a prepared evaluation through the backend: the stored rows. */
export async function evaluatePrepared(prepared: PreparedTool, input: ToolOptimizationInput): Promise<EvalRunRow[]> {
  if (prepared.selections === 0) return [];
  return runEvaluation({
    batch: input.batch,
    server: input.server,
    tool: input.tool,
    tools: input.tools,
    prompts: prepared.prompts,
    subjects: prepared.subjects,
    repeats: input.repeats,
    backend: input.backend,
    ...(input.onProgress && { onProgress: input.onProgress }),
  });
}

/** The rule on a prepared tool's rows (undefined when nothing was evaluated). */
export function decidePrepared(prepared: PreparedTool, rows: readonly EvalRunRow[], rule: PromotionRule): Decision | undefined {
  return rows.length ? decideFromRows(prepared.tool, rows, prepared.prompts, prepared.clean, rule) : undefined;
}

export async function optimizeTool(input: ToolOptimizationInput): Promise<ToolOptimization> {
  const prepared = prepareTool(input);
  const rows = await evaluatePrepared(prepared, input);
  const decision = decidePrepared(prepared, rows, input.rule);
  return { tool: input.tool, canonical: prepared.canonical, linted: prepared.linted, rows, ...(decision && { decision }) };
}

/**
 * The rule applied to stored rows. With several arms (claude-code: direct and deferred) the rule runs per arm and a
 * candidate passes only if it passes in every arm (a promotion may regress none); the first arm's numbers are kept.
 */
export function decideFromRows(tool: string, rows: readonly EvalRunRow[], prompts: readonly EvalPrompt[], candidateIds: readonly string[], rule: PromotionRule): Decision {
  const arms = [...new Set(rows.map((r) => r.arm))];
  const perArm = (arms.length ? arms : ['']).map((arm) => {
    const of = (subject: string) => outcomesOf(rows, prompts, subject, arm || undefined);
    return decide({ tool, canonical: of('canonical'), control: of('paraphrase'), candidates: candidateIds.map((id) => ({ id, outcomes: of(id), paraphrased: of(`paraphrase:${id}`) })) }, rule);
  });
  if (perArm.length === 1) return perArm[0];
  const candidates = perArm[0].candidates.map((c, i) => {
    const failed = perArm.map((d, a) => ({ arm: arms[a], verdict: d.candidates[i] })).find((x) => !x.verdict.promote);
    return failed ? { ...c, promote: false, failing: { ...failed.verdict.failing!, detail: `arm ${failed.arm}: ${failed.verdict.failing!.detail}` } } : c;
  });
  const best = candidates.filter((c) => c.promote).sort((a, b) => b.gain - a.gain)[0];
  const { best: _ignored, ...first } = perArm[0];
  return { ...first, candidates, ...(best && { best: best.candidateId }) };
}
