// The promotion rule on hand-built outcomes (each condition failing for its own reason), and the simulation the
// issue asks for: synthetic tools with known true rates, seeded, so the numbers are the same on every run.
import { describe, expect, it } from 'vitest';
import { decide, DEFAULT_RULE, ruleWith } from '../../src/optimize/rule.js';
import { simulate } from '../../src/optimize/simulate.js';
import { ones, outcomes } from './outcomes.js';

const canonical = [...outcomes({ direct: [...ones(6, 0), ...ones(4, 1)], indirect: [...ones(6, 0), ...ones(4, 1)], negative: ones(10, 1) }), ...outcomes({ direct: [1, 0], indirect: [1, 0], negative: [1, 1] }, { split: 'holdout' })];
const better = [...outcomes({ direct: ones(10, 1), indirect: ones(10, 1), negative: ones(10, 1) }), ...outcomes({ direct: [1, 1], indirect: [1, 0], negative: [1, 1] }, { split: 'holdout' })];

describe('promotion rule on known cases', () => {
  it('promotes a clear winner (12 prompts flipped, none lost: McNemar p = 2^-12) and names every condition passed', () => {
    const d = decide({ tool: 't', canonical, control: canonical, candidates: [{ id: 'c1', outcomes: better, paraphrased: better }] });
    const c = d.candidates[0];
    expect(c.test).toBe('mcnemar-exact');
    expect(c.pValue).toBeCloseTo(2 ** -12, 12);
    expect(c.gain).toBeCloseTo(12 / 30, 12);
    expect(c.promote).toBe(true);
    expect(d.best).toBe('c1');
    expect(c.conditions.every((x) => x.passed)).toBe(true);
    const direct = c.summary.optimize.find((s) => s.category === 'direct')!;
    expect(direct.successes).toBe(10);
    expect(direct.promptLowerBound).toBeCloseTo(0.025 ** (1 / 10), 6);
  });

  it('refuses with the failing condition: no gain, paraphrase collapse, negatives, holdout, stealing', () => {
    const same = decide({ tool: 't', canonical, control: canonical, candidates: [{ id: 'noop', outcomes: canonical, paraphrased: canonical }] }).candidates[0];
    expect(same.promote).toBe(false);
    expect(same.failing!.name).toBe('gain');
    expect(same.failing!.detail).toContain('+0 points');

    const gamed = decide({ tool: 't', canonical, control: canonical, candidates: [{ id: 'gamed', outcomes: better, paraphrased: canonical }] }).candidates[0];
    expect(gamed.failing!.name).toBe('paraphrase-robust');

    const unpara = decide({ tool: 't', canonical, control: canonical, candidates: [{ id: 'u', outcomes: better }] }).candidates[0];
    expect(unpara.failing!.detail).toBe('the paraphrased candidate was not evaluated');

    const greedy = [...outcomes({ direct: ones(10, 1), indirect: ones(10, 1), negative: [...ones(7, 1), 0, 0, 0] }), ...outcomes({ direct: [1, 1], indirect: [1, 0], negative: [1, 1] }, { split: 'holdout' })];
    const g = decide({ tool: 't', canonical, control: canonical, candidates: [{ id: 'g', outcomes: greedy, paraphrased: greedy }] }).candidates[0];
    expect(g.failing!.name).toBe('category-floor');
    expect(g.conditions.find((x) => x.name === 'negatives')!.passed).toBe(false);

    const overfit = [...better.filter((o) => o.split === 'optimize'), ...outcomes({ direct: [0, 0], indirect: [1, 0], negative: [1, 1] }, { split: 'holdout' })];
    const o = decide({ tool: 't', canonical, control: canonical, candidates: [{ id: 'o', outcomes: overfit, paraphrased: overfit }] }).candidates[0];
    expect(o.failing!.name).toBe('holdout-categories');
    expect(o.failing!.detail).toBe('holdout drops in direct');

    const sibling = outcomes({ direct: [1, 1, 1] }, { tool: 'other' });
    const stolen = outcomes({ direct: [1, 0, 0] }, { tool: 'other' });
    const s = decide({ tool: 't', canonical: [...canonical, ...sibling], control: canonical, candidates: [{ id: 's', outcomes: [...better, ...stolen], paraphrased: better }] }).candidates[0];
    expect(s.failing!.name).toBe('no-stealing');
    expect(s.failing!.detail).toContain('1/3 selected correctly (canonical 3/3)');
  });

  it('Holm across candidates: a p that passes alone fails among many; thresholds are configurable', () => {
    // 5 flipped, 0 lost: p = 1/32 = 0.031 alone; with 4 candidates Holm multiplies the smallest by 4.
    const five = [...outcomes({ direct: [...ones(1, 0), ...ones(9, 1)], indirect: [...ones(6, 0), ...ones(4, 1)], negative: ones(10, 1) }), ...canonical.filter((o) => o.split === 'holdout')];
    const alone = decide({ tool: 't', canonical, control: canonical, candidates: [{ id: 'a', outcomes: five, paraphrased: five }] }, ruleWith({ minGain: 0.05 })).candidates[0];
    expect(alone.pValue).toBeCloseTo(1 / 32, 12);
    expect(alone.promote).toBe(true);
    const many = decide({ tool: 't', canonical, control: canonical, candidates: ['a', 'b', 'c', 'd'].map((id) => ({ id, outcomes: five, paraphrased: five })) }, ruleWith({ minGain: 0.05 }));
    expect(many.candidates[0].adjustedP).toBeCloseTo(4 / 32, 12);
    expect(many.candidates[0].failing!.name).toBe('significance');
    expect(DEFAULT_RULE.minGain).toBe(0.1);
  });

  it('with repeats the paired test is the sign-flip permutation clustered by prompt', () => {
    const base = outcomes({ direct: ones(6, 1) }, { repeats: 3 });
    const cand = outcomes({ direct: ones(6, 3) }, { repeats: 3 });
    const c = decide({ tool: 't', canonical: base, control: base, candidates: [{ id: 'x', outcomes: cand, paraphrased: cand }] }).candidates[0];
    expect(c.test).toBe('sign-flip-permutation');
    expect(c.pValue).toBeCloseTo(1 / 64, 12); // six prompts, all +2/3: only the observed signs reach the sum
  });
});

describe('simulation under the default rule (seeded)', () => {
  // Per-prompt true rates mostly near 0 or 1 with some flaky prompts; a +20-point candidate lowers every prompt's
  // failure probability by the same factor (0.57). A third of each category is held out. 400 tools per case: the
  // Monte Carlo standard error of a rate near 90% is about 1.5 points. Measured with this seed (docs/optimization.md
  // has the table): 40 prompts per category x 5 repeats promotes 89.8% (seeds 12 and 13: 89.5%, 88.3%), so the
  // 80% bar is asserted with a margin of about 6 standard errors; 20 x 5 sits at the bar (80.5%) and is not asserted.
  const powered = { tools: 400, promptsPerCategory: 40, repeats: 5, seed: 11 };

  it('promotes no-op candidates at most 5% of the time, from 5 prompts per category up', () => {
    for (const size of [{ promptsPerCategory: 5, repeats: 3 }, { promptsPerCategory: 15, repeats: 3 }, { promptsPerCategory: 40, repeats: 5 }]) {
      const r = simulate({ ...powered, ...size, fix: 0 });
      expect(r.trueGain).toBeCloseTo(0, 12);
      expect(r.rate, JSON.stringify({ size, r })).toBeLessThanOrEqual(0.05);
    }
  }, 120_000);

  it('promotes a true +20-point candidate at least 80% of the time at 40 prompts per category x 5 repeats, with margin', () => {
    const r = simulate({ ...powered, fix: 0.57 });
    expect(r.trueGain).toBeGreaterThan(0.19);
    expect(r.trueGain).toBeLessThan(0.21);
    expect(r.rate, JSON.stringify(r)).toBeGreaterThanOrEqual(0.85);
  }, 120_000);
});
