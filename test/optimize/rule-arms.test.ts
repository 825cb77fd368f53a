// The promotion rule's remaining refusals, each the first failing condition: `beats-control` (the candidate is no
// better than a rewording that adds nothing) and `holdout-overall`; and the claude-code backend's two arms (tools
// loaded directly, deferred behind the client's tool search) through decideFromRows, the function the CLI and the
// MCP tools call on stored rows: a promotion may regress neither arm, and a refusal names the arm that failed.
import { describe, expect, it } from 'vitest';
import { decideFromRows } from '../../src/optimize/pipeline.js';
import { decide, ruleWith } from '../../src/optimize/rule.js';
import { ones, outcomes, promptsOf, rowsOf } from './outcomes.js';

// Canonical passes 4 of 10 direct and indirect prompts; the candidate passes all (gain +40 points, McNemar p = 2^-12).
const holdoutCanonical = outcomes({ direct: [1, 0], indirect: [1, 0], negative: [1, 1] }, { split: 'holdout' });
const canonical = [...outcomes({ direct: [...ones(6, 0), ...ones(4, 1)], indirect: [...ones(6, 0), ...ones(4, 1)], negative: ones(10, 1) }), ...holdoutCanonical];
const better = [...outcomes({ direct: ones(10, 1), indirect: ones(10, 1), negative: ones(10, 1) }), ...outcomes({ direct: [1, 1], indirect: [1, 0], negative: [1, 1] }, { split: 'holdout' })];

describe('promotion rule: beats-control and holdout-overall', () => {
  it('refuses a candidate the paraphrase null-control nearly matches (beats-control), though gain and significance pass', () => {
    // The control (the canonical text lightly reworded) passes 29 of 30 on the optimize split: the candidate's 30/30
    // is only 3.3 points better, under half of minGain (5 points). Its gain over canonical is still +40 points.
    const control = [...outcomes({ direct: [...ones(9, 1), 0], indirect: ones(10, 1), negative: ones(10, 1) }), ...holdoutCanonical];
    const c = decide({ tool: 't', canonical, control, candidates: [{ id: 'c', outcomes: better, paraphrased: better }] }).candidates[0];
    expect(c.conditions.find((x) => x.name === 'gain')!.passed).toBe(true);
    expect(c.conditions.find((x) => x.name === 'significance')!.passed).toBe(true);
    expect(c.promote).toBe(false);
    expect(c.failing).toEqual({ name: 'beats-control', passed: false, detail: 'gain over the paraphrase control +3.3 points (needs >= +5 points)' });
    // Turned off, the same candidate passes.
    expect(decide({ tool: 't', canonical, control, candidates: [{ id: 'c', outcomes: better, paraphrased: better }] }, ruleWith({ beatParaphraseControl: false })).candidates[0].promote).toBe(true);
  });

  it('refuses a candidate whose holdout overall rate is below canonical\'s (holdout-overall)', () => {
    // With the default rule an overall drop on equal-sized categories implies a category drop, so holdout-categories
    // fails first; a user who allows per-category drops (holdoutNoCategoryDrop: false) still has the overall check.
    const overfit = [...better.filter((o) => o.split === 'optimize'), ...outcomes({ direct: [0, 0], indirect: [1, 0], negative: [1, 1] }, { split: 'holdout' })];
    const input = { tool: 't', canonical, control: canonical, candidates: [{ id: 'o', outcomes: overfit, paraphrased: overfit }] };
    expect(decide(input).candidates[0].failing!.name).toBe('holdout-categories');
    const o = decide(input, ruleWith({ holdoutNoCategoryDrop: false })).candidates[0];
    expect(o.promote).toBe(false);
    expect(o.failing).toEqual({ name: 'holdout-overall', passed: false, detail: 'holdout overall 50% vs canonical 66.7%' });
    expect(o.conditions.filter((x) => !x.passed).map((x) => x.name)).toEqual(['holdout-overall']);
  });
});

describe('two arms (claude-code: direct and deferred): a promotion may regress neither', () => {
  const subjects = (arm: string, candidate: typeof better) => [
    ...rowsOf('canonical', arm, canonical),
    ...rowsOf('paraphrase', arm, canonical),
    ...rowsOf('c1', arm, candidate),
    ...rowsOf('paraphrase:c1', arm, candidate),
  ];
  const prompts = promptsOf(canonical);

  it('promotes when the candidate is better in both arms', () => {
    const d = decideFromRows('t', [...subjects('direct', better), ...subjects('deferred', better)], prompts, ['c1'], ruleWith());
    expect(d.best).toBe('c1');
    expect(d.candidates[0].promote).toBe(true);
  });

  it('refuses, naming the arm, when the candidate regresses in the deferred arm though it wins the direct one', () => {
    // Deferred: the client's tool search no longer finds the tool for half the direct prompts canonical got right.
    const regressed = [...outcomes({ direct: [...ones(8, 0), ...ones(2, 1)], indirect: [...ones(6, 0), ...ones(4, 1)], negative: ones(10, 1) }), ...holdoutCanonical];
    const rows = [...subjects('direct', better), ...subjects('deferred', regressed)];
    const d = decideFromRows('t', rows, prompts, ['c1'], ruleWith());
    expect(d.best).toBeUndefined();
    const c = d.candidates[0];
    expect(c.promote).toBe(false);
    expect(c.failing!.name).toBe('gain');
    expect(c.failing!.detail).toBe('arm deferred: overall gain -6.7 points (needs >= +10 points)');
    // The direct arm alone would have promoted it.
    expect(decideFromRows('t', subjects('direct', better), prompts, ['c1'], ruleWith()).best).toBe('c1');
    // And the other way round: a regression in the direct arm is named too.
    const flipped = decideFromRows('t', [...subjects('direct', regressed), ...subjects('deferred', better)], prompts, ['c1'], ruleWith());
    expect(flipped.candidates[0].failing!.detail).toMatch(/^arm direct: overall gain -6.7 points/);
  });
});
