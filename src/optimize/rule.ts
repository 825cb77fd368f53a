// Owns the promotion rule: from the outcomes of canonical, the paraphrase null-control and each candidate (and
// its paraphrase) on the same prompts, the per-category statistics and every condition a candidate must meet,
// each named with its numbers. Pure: the same outcomes give the same decision.
import type { PromptCategory, PromptSplit } from '../store/index.js';
import { bootstrapMeanLowerBound, clopperPearson, holm, mcnemarExact, signFlipTest, wilson, type Interval } from './stats.js';

export interface Outcome {
  promptId: string;
  /** The tool the prompt belongs to (another tool's prompt: a sibling prompt, for the no-stealing check). */
  tool: string;
  category: PromptCategory;
  split: PromptSplit;
  repeat: number;
  correct: boolean;
}

export interface PromotionRule {
  /** Minimum overall gain over canonical on the optimize split (0.10 = 10 points). */
  minGain: number;
  /** One-sided significance level after Holm's correction across the candidates tried. */
  alpha: number;
  /** No category's lower bound of the paired difference may be below -maxCategoryDrop. */
  maxCategoryDrop: number;
  /** Confidence of that lower bound (0.90). */
  categoryBoundLevel: number;
  /** The negative category's success rate must stay at or above this. */
  minNegativeRate: number;
  /** The paraphrased candidate must keep at least this share of the gain. */
  paraphraseKeep: number;
  /** The candidate must beat the paraphrase null-control by at least half of minGain. */
  beatParaphraseControl: boolean;
  /** Sibling tools' prompts must lose no selections. */
  noStealing: boolean;
  /** Holdout: no category's rate drops below canonical's. */
  holdoutNoCategoryDrop: boolean;
  /** Holdout: overall at least canonical's. */
  holdoutOverallAtLeastCanonical: boolean;
}

export const DEFAULT_RULE: Readonly<PromotionRule> = Object.freeze({
  minGain: 0.1,
  alpha: 0.05,
  maxCategoryDrop: 0.05,
  categoryBoundLevel: 0.9,
  minNegativeRate: 0.8,
  paraphraseKeep: 0.5,
  beatParaphraseControl: true,
  noStealing: true,
  holdoutNoCategoryDrop: true,
  holdoutOverallAtLeastCanonical: true,
});

export function ruleWith(overrides: Partial<PromotionRule> = {}): PromotionRule {
  const defined = Object.fromEntries(Object.entries(overrides).filter(([, v]) => v !== undefined));
  return { ...DEFAULT_RULE, ...defined };
}

export interface CategoryStats {
  category: PromptCategory | 'overall';
  runs: number;
  successes: number;
  /** Wilson 95% interval over runs. */
  wilson: Interval;
  prompts: number;
  promptsPassed: number;
  /** Clopper–Pearson 95% lower bound over per-prompt outcomes (a prompt passes when most of its repeats do). */
  promptLowerBound: number;
}

export interface SubjectSummary {
  optimize: CategoryStats[];
  holdout: CategoryStats[];
}

export interface Condition {
  name: 'gain' | 'significance' | 'beats-control' | 'category-floor' | 'negatives' | 'paraphrase-robust' | 'no-stealing' | 'holdout-categories' | 'holdout-overall';
  passed: boolean;
  detail: string;
}

export interface CandidateDecision {
  candidateId: string;
  promote: boolean;
  /** The first failing condition, in rule order. */
  failing?: Condition;
  conditions: Condition[];
  gain: number;
  pValue: number;
  adjustedP: number;
  test: 'mcnemar-exact' | 'sign-flip-permutation';
  summary: SubjectSummary;
}

export interface DecisionInput {
  tool: string;
  canonical: Outcome[];
  control: Outcome[];
  candidates: Array<{ id: string; outcomes: Outcome[]; paraphrased?: Outcome[] }>;
}

export interface Decision {
  tool: string;
  canonical: SubjectSummary;
  control: SubjectSummary;
  candidates: CandidateDecision[];
  /** The passing candidate with the largest gain, if any. */
  best?: string;
}

const CATEGORIES: readonly PromptCategory[] = ['direct', 'indirect', 'negative'];

export function decide(input: DecisionInput, rule: PromotionRule = DEFAULT_RULE): Decision {
  const own = (outcomes: Outcome[], split: PromptSplit) => outcomes.filter((o) => o.tool === input.tool && o.split === split);
  const canonical = summarize(input.canonical, input.tool);
  const control = summarize(input.control, input.tool);
  const repeats = new Set(input.canonical.map((o) => o.repeat)).size;
  const tests = input.candidates.map((c) => pairedTest(own(c.outcomes, 'optimize'), own(input.canonical, 'optimize'), repeats));
  const adjusted = holm(tests.map((t) => t.p));
  const candidates = input.candidates.map((c, i): CandidateDecision => {
    const summary = summarize(c.outcomes, input.tool);
    const gain = rate(own(c.outcomes, 'optimize')) - rate(own(input.canonical, 'optimize'));
    const conditions: Condition[] = [];
    conditions.push({ name: 'gain', passed: gain >= rule.minGain - 1e-9, detail: `overall gain ${points(gain)} (needs >= ${points(rule.minGain)})` });
    conditions.push({
      name: 'significance',
      passed: adjusted[i] < rule.alpha,
      detail: `one-sided p = ${fmt(tests[i].p)}, Holm-adjusted over ${input.candidates.length} candidate(s) = ${fmt(adjusted[i])} (needs < ${rule.alpha})`,
    });
    if (rule.beatParaphraseControl) {
      const overControl = rate(own(c.outcomes, 'optimize')) - rate(own(input.control, 'optimize'));
      conditions.push({ name: 'beats-control', passed: overControl >= rule.minGain / 2 - 1e-9, detail: `gain over the paraphrase control ${points(overControl)} (needs >= ${points(rule.minGain / 2)})` });
    }
    for (const category of CATEGORIES) {
      const diffs = perPromptDifferences(own(c.outcomes, 'optimize'), own(input.canonical, 'optimize'), category);
      if (diffs.length === 0) continue;
      const bound = bootstrapMeanLowerBound(diffs, rule.categoryBoundLevel, { seed: 17 });
      conditions.push({
        name: 'category-floor',
        passed: bound >= -rule.maxCategoryDrop - 1e-9,
        detail: `${category}: lower ${Math.round(rule.categoryBoundLevel * 100)}% bound of the paired difference ${points(bound)} (needs >= ${points(-rule.maxCategoryDrop)})`,
      });
    }
    const negatives = own(c.outcomes, 'optimize').filter((o) => o.category === 'negative');
    if (negatives.length) {
      const r = rate(negatives);
      conditions.push({ name: 'negatives', passed: r >= rule.minNegativeRate - 1e-9, detail: `negatives ${pct(r)} (needs >= ${pct(rule.minNegativeRate)})` });
    }
    if (rule.paraphraseKeep > 0) {
      if (!c.paraphrased?.length) {
        conditions.push({ name: 'paraphrase-robust', passed: false, detail: 'the paraphrased candidate was not evaluated' });
      } else {
        const kept = rate(own(c.paraphrased, 'optimize')) - rate(own(input.canonical, 'optimize'));
        const needed = rule.paraphraseKeep * gain;
        conditions.push({ name: 'paraphrase-robust', passed: kept >= needed - 1e-9, detail: `paraphrased gain ${points(kept)} (needs >= ${points(needed)}, ${pct(rule.paraphraseKeep)} of ${points(gain)})` });
      }
    }
    if (rule.noStealing) {
      const siblingsNow = c.outcomes.filter((o) => o.tool !== input.tool);
      const siblingsBefore = input.canonical.filter((o) => o.tool !== input.tool);
      const lost = successes(siblingsBefore) - successes(siblingsNow);
      conditions.push({
        name: 'no-stealing',
        passed: lost <= 0,
        detail: siblingsBefore.length ? `sibling tools' prompts: ${successes(siblingsNow)}/${siblingsNow.length} selected correctly (canonical ${successes(siblingsBefore)}/${siblingsBefore.length})` : 'no sibling prompts evaluated',
      });
    }
    const holdNow = own(c.outcomes, 'holdout');
    const holdBefore = own(input.canonical, 'holdout');
    if (rule.holdoutNoCategoryDrop && holdBefore.length) {
      const drops = CATEGORIES.filter((cat) => {
        const before = holdBefore.filter((o) => o.category === cat);
        return before.length > 0 && rate(holdNow.filter((o) => o.category === cat)) < rate(before) - 1e-9;
      });
      conditions.push({ name: 'holdout-categories', passed: drops.length === 0, detail: drops.length ? `holdout drops in ${drops.join(', ')}` : 'no holdout category drops' });
    }
    if (rule.holdoutOverallAtLeastCanonical && holdBefore.length) {
      const diff = rate(holdNow) - rate(holdBefore);
      conditions.push({ name: 'holdout-overall', passed: diff >= -1e-9, detail: `holdout overall ${pct(rate(holdNow))} vs canonical ${pct(rate(holdBefore))}` });
    }
    const failing = conditions.find((x) => !x.passed);
    return { candidateId: c.id, promote: !failing, ...(failing && { failing }), conditions, gain, pValue: tests[i].p, adjustedP: adjusted[i], test: tests[i].test, summary };
  });
  const best = candidates.filter((c) => c.promote).sort((a, b) => b.gain - a.gain)[0];
  return { tool: input.tool, canonical, control, candidates, ...(best && { best: best.candidateId }) };
}

/** Per-split, per-category statistics of one subject on the tool's own prompts. */
export function summarize(outcomes: Outcome[], tool: string): SubjectSummary {
  const own = outcomes.filter((o) => o.tool === tool);
  const split = (s: PromptSplit) => {
    const rows = own.filter((o) => o.split === s);
    const stats = CATEGORIES.filter((c) => rows.some((o) => o.category === c)).map((c) => categoryStats(c, rows.filter((o) => o.category === c)));
    return rows.length ? [...stats, categoryStats('overall', rows)] : stats;
  };
  return { optimize: split('optimize'), holdout: split('holdout') };
}

function categoryStats(category: CategoryStats['category'], rows: Outcome[]): CategoryStats {
  const byPrompt = groupByPrompt(rows);
  const passed = [...byPrompt.values()].filter((rs) => rs.filter((o) => o.correct).length * 2 > rs.length).length;
  return {
    category,
    runs: rows.length,
    successes: successes(rows),
    wilson: wilson(successes(rows), rows.length),
    prompts: byPrompt.size,
    promptsPassed: passed,
    promptLowerBound: clopperPearson(passed, byPrompt.size).low,
  };
}

/** Paired test of candidate vs baseline on the same prompts: exact McNemar with one repeat, else sign-flip by prompt. */
export function pairedTest(candidate: Outcome[], baseline: Outcome[], repeats: number): { p: number; test: CandidateDecision['test'] } {
  if (repeats <= 1) {
    const base = new Map(baseline.map((o) => [`${o.promptId}\u0000${o.repeat}`, o.correct]));
    let better = 0;
    let worse = 0;
    for (const o of candidate) {
      const b = base.get(`${o.promptId}\u0000${o.repeat}`);
      if (b === undefined) continue;
      if (o.correct && !b) better++;
      if (!o.correct && b) worse++;
    }
    return { p: mcnemarExact(better, worse), test: 'mcnemar-exact' };
  }
  return { p: signFlipTest(perPromptDifferences(candidate, baseline)), test: 'sign-flip-permutation' };
}

/** Per prompt: candidate's success rate over its repeats minus the baseline's (prompts both have). */
export function perPromptDifferences(candidate: Outcome[], baseline: Outcome[], category?: PromptCategory): number[] {
  const filter = (rows: Outcome[]) => (category ? rows.filter((o) => o.category === category) : rows);
  const a = groupByPrompt(filter(candidate));
  const b = groupByPrompt(filter(baseline));
  return [...a.entries()].filter(([id]) => b.has(id)).map(([id, rows]) => rate(rows) - rate(b.get(id)!));
}

function groupByPrompt(rows: Outcome[]): Map<string, Outcome[]> {
  const map = new Map<string, Outcome[]>();
  for (const o of rows) map.set(o.promptId, [...(map.get(o.promptId) ?? []), o]);
  return map;
}

function successes(rows: Outcome[]): number {
  return rows.filter((o) => o.correct).length;
}

function rate(rows: Outcome[]): number {
  return rows.length ? successes(rows) / rows.length : 0;
}

function points(x: number): string {
  const v = Math.round(x * 1000) / 10;
  return `${v >= 0 ? '+' : ''}${v} points`;
}

function pct(x: number): string {
  return `${Math.round(x * 1000) / 10}%`;
}

function fmt(p: number): string {
  return p < 0.0001 ? p.toExponential(2) : p.toFixed(4);
}
