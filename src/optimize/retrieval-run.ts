// Owns the measured run of description optimization on a public retrieval set, with the `retrieval` backend:
// queries split by a hash of their id into an optimize half and a held-out half; golden prompts from the optimize
// half only; candidates from the offline generator; promotion by the rule; then Recall@1/5 of the whole catalog on
// the held-out queries (and on the optimize half) before and after, plus what promoting without the gate would do.
import { hashUnit, runBench, type BenchInput, type BenchQuery } from '../search/bench.js';
import type { ToolDoc } from '../search/document.js';
import { RetrievalBackend } from './backends/retrieval.js';
import { offlineCandidates } from './generate.js';
import { optimizeTool } from './pipeline.js';
import { nearestSiblings, promptsFromQueries } from './prompts.js';
import { ruleWith, type PromotionRule } from './rule.js';

export interface RetrievalRunOptions {
  /** Share of queries (by hash of id) used for optimization; the rest is held out. */
  optimizeShare: number;
  candidates: number;
  /** Only tools with at least this many optimize-split positive prompts are optimized. */
  minPrompts: number;
  perCategory: number;
  rule: PromotionRule;
  onProgress?: (done: number, total: number, tool: string) => void;
}

export const DEFAULT_RETRIEVAL_RUN: Omit<RetrievalRunOptions, 'rule'> = { optimizeShare: 0.5, candidates: 4, minPrompts: 3, perCategory: 20 };

export interface RecallPair {
  before: { r1: number; r5: number };
  after: { r1: number; r5: number };
}

export interface RetrievalRunResult {
  tools: number;
  queries: { optimize: number; heldOut: number };
  toolsOptimized: number;
  candidates: { generated: number; lintRejected: Record<string, number>; evaluated: number };
  promoted: Array<{ tool: string; candidate: string; gain: number; pValue: number; canonical: string; description: string }>;
  /** Tools where candidates were evaluated and none passed, by the first failing condition of the best-gain candidate. */
  refused: Record<string, number>;
  /** Tools whose best candidate had a positive optimize-split gain but was refused. */
  refusedWithGain: number;
  gated: { heldOut: RecallPair; optimize: RecallPair };
  /** Every tool's highest-gain clean candidate promoted, no gate: what the gate protects against. */
  ungated: { promoted: number; heldOut: RecallPair; optimize: RecallPair };
}

export async function runRetrievalOptimization(input: BenchInput, partial: Partial<RetrievalRunOptions> = {}): Promise<RetrievalRunResult> {
  const o: RetrievalRunOptions = { ...DEFAULT_RETRIEVAL_RUN, rule: ruleWith(), ...partial };
  const optimizeQueries = input.queries.filter((q) => hashUnit(q.id) < o.optimizeShare);
  const heldOut = input.queries.filter((q) => hashUnit(q.id) >= o.optimizeShare);
  const catalog = input.tools.map((t) => ({ name: t.name, server: t.server, description: t.description, inputSchema: t.inputSchema }));
  const labelled = optimizeQueries.map((q) => ({ id: q.id, query: q.query, tools: q.groups.flat().map((t) => `${t.server}/${t.name}`) }));
  const prompts = promptsFromQueries(labelled, catalog, { perCategory: o.perCategory });
  const siblings = nearestSiblings(catalog, 3);
  const backend = new RetrievalBackend();
  const eligible = catalog.filter((t) => prompts.filter((p) => p.tool === `${t.server}/${t.name}` && p.expectedBehavior.shouldCallTool && p.split === 'optimize').length >= o.minPrompts);
  const result: RetrievalRunResult = {
    tools: catalog.length,
    queries: { optimize: optimizeQueries.length, heldOut: heldOut.length },
    toolsOptimized: eligible.length,
    candidates: { generated: 0, lintRejected: {}, evaluated: 0 },
    promoted: [],
    refused: {},
    refusedWithGain: 0,
    gated: undefined as unknown as RetrievalRunResult['gated'],
    ungated: undefined as unknown as RetrievalRunResult['ungated'],
  };
  const gated = new Map<string, string>();
  const ungated = new Map<string, string>();
  let done = 0;
  for (const tool of eligible) {
    const id = `${tool.server}/${tool.name}`;
    const ownPositives = prompts.filter((p) => p.tool === id && p.expectedBehavior.shouldCallTool && p.split === 'optimize').map((p) => p.prompt);
    const candidates = offlineCandidates(tool, ownPositives, o.candidates).map((c, i) => ({ id: `${id}#c${i + 1}`, ...c }));
    result.candidates.generated += candidates.length;
    const run = await optimizeTool({ batch: 'retrieval-run', server: tool.server, tool: id, tools: catalog, prompts, siblings: siblings.get(id) ?? [], candidates, backend, repeats: 1, rule: o.rule });
    for (const c of run.linted) for (const f of c.findings) result.candidates.lintRejected[f.rule] = (result.candidates.lintRejected[f.rule] ?? 0) + 1;
    result.candidates.evaluated += run.linted.filter((c) => c.findings.length === 0).length;
    const decision = run.decision;
    if (decision) {
      const bestGain = [...decision.candidates].sort((a, b) => b.gain - a.gain)[0];
      if (bestGain && bestGain.gain > 0) ungated.set(id, candidates.find((c) => c.id === bestGain.candidateId)!.description);
      const best = decision.candidates.find((c) => c.candidateId === decision.best);
      if (best) {
        const description = candidates.find((c) => c.id === best.candidateId)!.description;
        gated.set(id, description);
        result.promoted.push({ tool: id, candidate: best.candidateId, gain: best.gain, pValue: best.adjustedP, canonical: run.canonical, description });
      } else if (bestGain) {
        result.refused[bestGain.failing!.name] = (result.refused[bestGain.failing!.name] ?? 0) + 1;
        if (bestGain.gain > 0) result.refusedWithGain++;
      }
    }
    o.onProgress?.(++done, eligible.length, id);
  }
  const recall = async (overrides: Map<string, string>, queries: BenchQuery[]) => {
    const tools: ToolDoc[] = input.tools.map((t) => (overrides.has(t.key) ? { ...t, description: overrides.get(t.key) } : t));
    const r = await runBench({ tools, queries }, { engine: 'index' });
    return { r1: r.recall[1], r5: r.recall[5] };
  };
  const pair = async (overrides: Map<string, string>, queries: BenchQuery[]): Promise<RecallPair> => ({ before: await recall(new Map(), queries), after: await recall(overrides, queries) });
  result.gated = { heldOut: await pair(gated, heldOut), optimize: await pair(gated, optimizeQueries) };
  result.ungated = { promoted: ungated.size, heldOut: await pair(ungated, heldOut), optimize: await pair(ungated, optimizeQueries) };
  return result;
}
