// Owns the power simulation of the promotion rule: synthetic tools whose prompts have known true success
// probabilities, a candidate with a known true effect, outcomes drawn with a seeded RNG, and the share of
// tools the rule promotes. Used by the tests (false-promotion rate, power) and by bench/optimize-power.mjs.
import type { PromptCategory, PromptSplit } from '../store/index.js';
import { decide, DEFAULT_RULE, type Outcome, type PromotionRule } from './rule.js';
import { seededRandom } from './stats.js';

export interface SimulationOptions {
  tools: number;
  /** Golden prompts per category, both splits together. */
  promptsPerCategory: number;
  /** Share of each category held out (at least one prompt when > 0). */
  holdoutShare: number;
  repeats: number;
  /**
   * The candidate's true effect: each prompt's failure probability is multiplied by (1 - fix);
   * `0`: a no-op candidate (same text in effect). See `trueGain` in the result.
   */
  fix: number;
  /** The fix applies to negatives too (a clearer text also says when not to use the tool); false: negatives unchanged. */
  fixNegatives: boolean;
  /** Per-prompt true rates: "bimodal" (mostly near 0 or 1, some flaky: like LLM selection at low temperature) or "uniform". */
  rates: 'bimodal' | 'uniform';
  /** bimodal: share of flaky prompts (true rate spread between the modes) among positives and among negatives. */
  flaky: { positive: number; negative: number };
  seed: number;
  rule?: PromotionRule;
}

export interface SimulationResult {
  tools: number;
  promoted: number;
  rate: number;
  /** The candidate's true overall gain over canonical on the tool's own prompts, averaged over tools. */
  trueGain: number;
  /** How often each condition was the first to fail. */
  refusedBy: Record<string, number>;
}

export const DEFAULT_SIMULATION: SimulationOptions = { tools: 400, promptsPerCategory: 12, holdoutShare: 1 / 3, repeats: 3, fix: 0, fixNegatives: true, rates: 'bimodal', flaky: { positive: 0.2, negative: 0.1 }, seed: 1 };

const CATEGORIES: readonly PromptCategory[] = ['direct', 'indirect', 'negative'];

export function simulate(partial: Partial<SimulationOptions> = {}): SimulationResult {
  const o = { ...DEFAULT_SIMULATION, ...partial };
  const random = seededRandom(o.seed);
  const refusedBy: Record<string, number> = {};
  let promoted = 0;
  let gainSum = 0;
  for (let t = 0; t < o.tools; t++) {
    const prompts = makePrompts(o, random);
    gainSum += prompts.reduce((s, p) => s + (p.candidate - p.canonical), 0) / prompts.length;
    const draw = (subject: 'canonical' | 'candidate'): Outcome[] =>
      prompts.flatMap((p) =>
        Array.from({ length: o.repeats }, (_, repeat) => ({ promptId: p.id, tool: 'tool', category: p.category, split: p.split, repeat, correct: random() < p[subject] })),
      );
    const canonical = draw('canonical');
    const control = draw('canonical'); // the paraphrase null-control adds no information
    const candidate = draw('candidate');
    const paraphrased = draw('candidate'); // real clarity survives paraphrase
    const decision = decide({ tool: 'tool', canonical, control, candidates: [{ id: 'c', outcomes: candidate, paraphrased }] }, o.rule ?? DEFAULT_RULE);
    const verdict = decision.candidates[0];
    if (verdict.promote) promoted++;
    else refusedBy[verdict.failing!.name] = (refusedBy[verdict.failing!.name] ?? 0) + 1;
  }
  return { tools: o.tools, promoted, rate: promoted / o.tools, trueGain: gainSum / o.tools, refusedBy };
}

interface SimPrompt {
  id: string;
  category: PromptCategory;
  split: PromptSplit;
  canonical: number;
  candidate: number;
}

function makePrompts(o: SimulationOptions, random: () => number): SimPrompt[] {
  const held = o.holdoutShare > 0 ? Math.max(1, Math.round(o.promptsPerCategory * o.holdoutShare)) : 0;
  return CATEGORIES.flatMap((category) =>
    Array.from({ length: o.promptsPerCategory }, (_, i) => {
      const canonical = category === 'negative' ? negativeRate(o, random) : positiveRate(o, random);
      const candidate = category === 'negative' && !o.fixNegatives ? canonical : 1 - (1 - canonical) * (1 - o.fix);
      return { id: `${category}-${i}`, category, split: (i < held ? 'holdout' : 'optimize') as PromptSplit, canonical, candidate };
    }),
  );
}

/** Mean 0.5 in both models. */
function positiveRate(o: SimulationOptions, random: () => number): number {
  if (o.rates === 'uniform') return 0.2 + 0.6 * random();
  const r = random();
  if (r < o.flaky.positive) return 0.2 + 0.6 * random();
  return r < o.flaky.positive + (1 - o.flaky.positive) / 2 ? 0.95 : 0.05;
}

function negativeRate(o: SimulationOptions, random: () => number): number {
  if (o.rates === 'uniform') return 0.8 + 0.2 * random();
  return random() < o.flaky.negative ? 0.5 + 0.4 * random() : 0.97;
}
