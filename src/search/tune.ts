// Owns the two-fold protocol of issue 20 (`bench retrieval --tune-on <set>`): a bounded coordinate
// search over the engine's knobs (tune-knobs.ts) on ONE eval set only, starting from plain BM25
// settings, then the chosen configuration run unchanged on every set beside plain BM25, the start
// point and the shipped defaults from the same run, with a verdict per confirming set against the
// goal (+0.05 R@1 over BM25). The tuning set is sampled (fixed size, seeded) so large sets stay fast.
import { runBench, hashUnit, type BenchInput, type BenchQuery, type BenchResult } from './bench.js';
import { DEFAULT_INDEX_OPTIONS, ToolIndex, type IndexOptions } from './index.js';
import { scoreQuery, summarize, type Summary } from './metrics.js';
import { knobsFor, optionsJson, startOptions, type Knob, type KnobValue, type WordLists } from './tune-knobs.js';

export const TUNE_METRICS = ['r1', 'mrr', 'r5'] as const;
export type TuneMetric = (typeof TUNE_METRICS)[number];

/** The goal of issue 20: R@1 over plain BM25 on the set the configuration was not tuned on. */
export const TRANSFER_GOAL = 0.05;

export interface TuneOptions {
  lists: WordLists;
  /** Queries of the tuning set used while searching (a seeded sample when the set is larger). */
  sample: number;
  seed: number;
  /** Rounds over every knob; stops early when a round changes nothing. */
  passes: number;
  /** What the search maximises; ties are broken by MRR@10 (by R@1 when the metric is MRR@10). */
  metric: TuneMetric;
  /** Default: every knob of `lists` (tests pass a few). */
  knobs?: readonly Knob[];
}

export const DEFAULT_TUNE_OPTIONS: TuneOptions = { lists: 'off', sample: 2000, seed: 1, passes: 2, metric: 'r1' };

export interface TuneStep {
  knob: string;
  from: KnobValue;
  to: KnobValue;
  score: Summary;
}

export interface TuneResult {
  start: IndexOptions;
  chosen: IndexOptions;
  startScore: Summary;
  chosenScore: Summary;
  /** Accepted changes, in order. */
  steps: TuneStep[];
  evaluations: number;
  sampled: number;
  total: number;
}

/** A seeded, fixed sample of `n` queries (all of them when the set is not larger). */
export function sampleQueries(queries: readonly BenchQuery[], n: number, seed: number): BenchQuery[] {
  if (queries.length <= n) return [...queries];
  return [...queries].sort((a, b) => hashUnit(`tune:${seed}:${a.id}`) - hashUnit(`tune:${seed}:${b.id}`)).slice(0, n);
}

/** The engine with `options` over `tools`, scored on `queries` (lexical, nothing learned). */
export function evaluate(tools: BenchInput['tools'], queries: readonly BenchQuery[], options: IndexOptions): Summary {
  const index = new ToolIndex(options);
  for (const tool of tools) index.add(tool);
  const scores = queries.map((q) =>
    scoreQuery(
      index.search(q.query, { limit: 10 }).map((h) => h.key),
      q.groups.map((g) => g.map((t) => `${t.server}/${t.name}`)),
    ),
  );
  return summarize(scores);
}

function objective(s: Summary, metric: TuneMetric): [number, number] {
  if (metric === 'mrr') return [s.mrr10, s.recall[1]!];
  return [metric === 'r5' ? s.recall[5]! : s.recall[1]!, s.mrr10];
}

function better(a: Summary, b: Summary, metric: TuneMetric): boolean {
  const [a1, a2] = objective(a, metric);
  const [b1, b2] = objective(b, metric);
  const eps = 1e-9;
  return a1 > b1 + eps || (Math.abs(a1 - b1) <= eps && a2 > b2 + eps);
}

/**
 * Coordinate search on one set: for each knob in turn, every value is tried with the others held,
 * and the best is kept only when it strictly beats the current configuration (ties keep the current
 * value, so knobs a set cannot measure stay at their start). At most `passes` rounds.
 */
export function tune(input: BenchInput, options: Partial<TuneOptions> = {}): TuneResult {
  const o = { ...DEFAULT_TUNE_OPTIONS, ...options };
  const knobs = o.knobs ?? knobsFor(o.lists);
  const queries = sampleQueries(input.queries, o.sample, o.seed);
  const start = startOptions(o.lists);
  let current = start;
  let currentScore = evaluate(input.tools, queries, current);
  const startScore = currentScore;
  let evaluations = 1;
  const steps: TuneStep[] = [];
  for (let pass = 0; pass < o.passes; pass++) {
    let changed = false;
    for (const knob of knobs) {
      const from = knob.get(current);
      let best: { value: KnobValue; options: IndexOptions; score: Summary } | undefined;
      for (const value of knob.values) {
        if (value === from) continue;
        const candidate = knob.set(current, value);
        const score = evaluate(input.tools, queries, candidate);
        evaluations++;
        if (better(score, best?.score ?? currentScore, o.metric)) best = { value, options: candidate, score };
      }
      if (best) {
        current = best.options;
        currentScore = best.score;
        steps.push({ knob: knob.name, from, to: best.value, score: best.score });
        changed = true;
      }
    }
    if (!changed) break;
  }
  return { start, chosen: current, startScore, chosenScore: currentScore, steps, evaluations, sampled: queries.length, total: input.queries.length };
}

/** Knobs whose value differs between two configurations: `name from -> to`. */
export function describeChanges(from: IndexOptions, to: IndexOptions, lists: WordLists): string[] {
  return knobsFor(lists)
    .filter((k) => k.get(from) !== k.get(to))
    .map((k) => `${k.name} ${String(k.get(from))} -> ${String(k.get(to))}`);
}

export interface ConfirmRow {
  set: string;
  /** Whether this is the set the configuration was tuned on (in-sample) or a confirming set. */
  role: 'tuned' | 'confirm';
  queries: number;
  results: Array<{ engine: string; result: BenchResult }>;
}

/** Plain BM25 (also with the engine's stemmer), the start point, the shipped defaults and the tuned configuration on each set, in one run. */
export async function confirmOn(sets: ReadonlyArray<{ name: string; input: BenchInput }>, tunedOn: string, tuned: TuneResult, limitQueries?: number): Promise<ConfirmRow[]> {
  const limit = limitQueries !== undefined ? { limitQueries } : {};
  const rows: ConfirmRow[] = [];
  for (const { name, input } of sets) {
    const results: ConfirmRow['results'] = [];
    results.push({ engine: 'bm25', result: await runBench(input, { engine: 'bm25', ...limit }) });
    results.push({ engine: 'bm25-stem', result: await runBench(input, { engine: 'bm25-stem', ...limit }) });
    results.push({ engine: 'start', result: await runBench(input, { engine: 'index', ...limit, indexOptions: tuned.start }) });
    results.push({ engine: 'shipped', result: await runBench(input, { engine: 'index', ...limit, indexOptions: DEFAULT_INDEX_OPTIONS }) });
    results.push({ engine: 'tuned', result: await runBench(input, { engine: 'index', ...limit, indexOptions: tuned.chosen }) });
    rows.push({ set: name, role: name === tunedOn ? 'tuned' : 'confirm', queries: results[0]!.result.queries, results });
  }
  return rows;
}

const f = (x: number) => x.toFixed(3);
const d = (x: number) => `${x >= 0 ? '+' : ''}${x.toFixed(3)}`;

/** The chosen configuration, the search's accepted steps, then one line per set and engine and a verdict per confirming set. */
export function formatTune(tunedOn: string, o: TuneOptions, tuned: TuneResult, rows: readonly ConfirmRow[]): string[] {
  const lines = [
    `tuned on ${tunedOn} (${tuned.sampled} of ${tuned.total} queries, seed ${o.seed}), word lists ${o.lists}, metric ${o.metric}: ${tuned.evaluations} configurations tried`,
    `start (plain BM25 settings${o.lists === 'on' ? ' + word lists' : ''}): R@1 ${f(tuned.startScore.recall[1]!)} R@5 ${f(tuned.startScore.recall[5]!)} MRR@10 ${f(tuned.startScore.mrr10)}`,
    ...tuned.steps.map((s) => `  ${s.knob} ${String(s.from)} -> ${String(s.to)}: R@1 ${f(s.score.recall[1]!)} R@5 ${f(s.score.recall[5]!)} MRR@10 ${f(s.score.mrr10)}`),
    `chosen: ${describeChanges(tuned.start, tuned.chosen, o.lists).join(', ') || 'the start point (no knob helped)'}`,
    `--index-options '${optionsJson(tuned.chosen)}'`,
    `${'set'.padEnd(19)} ${'engine'.padEnd(9)} ${'R@1'.padEnd(6)} ${'R@5'.padEnd(6)} ${'MRR@10'.padEnd(6)}  vs bm25 (R@1 R@5 MRR@10)`,
  ];
  for (const row of rows) {
    const base = row.results[0]!.result;
    const label = `${row.set} (${row.role === 'tuned' ? 'tuned' : 'confirm'})`;
    for (const { engine, result: r } of row.results) {
      const delta = engine === 'bm25' ? '' : `  ${d(r.recall[1]! - base.recall[1]!)} ${d(r.recall[5]! - base.recall[5]!)} ${d(r.mrr10 - base.mrr10)}`;
      lines.push(`${label.padEnd(19)} ${engine.padEnd(9)} ${f(r.recall[1]!)}  ${f(r.recall[5]!)}  ${f(r.mrr10)} ${delta}`);
    }
  }
  for (const row of rows.filter((r) => r.role === 'confirm')) {
    const gain = transferGain(row);
    const knobs = r1Of(row, 'tuned') - r1Of(row, 'start');
    lines.push(
      `verdict ${row.set}: tuned on ${tunedOn}, R@1 ${d(gain)} over plain BM25 here (start point ${d(gain - knobs)}, tuned knobs ${d(knobs)}; ` +
        `shipped ${d(r1Of(row, 'shipped') - r1Of(row, 'bm25'))}): goal (+${TRANSFER_GOAL.toFixed(2)}) ${gain >= TRANSFER_GOAL - 1e-9 ? 'MET' : 'NOT met'}`,
    );
  }
  return lines;
}

/** The tuned configuration's R@1 minus plain BM25's on one set. */
export function transferGain(row: ConfirmRow): number {
  return r1Of(row, 'tuned') - r1Of(row, 'bm25');
}

function r1Of(row: ConfirmRow, engine: string): number {
  return row.results.find((r) => r.engine === engine)!.result.recall[1]!;
}
