// The statistics behind promotion, against values worked out by hand (or from published tables).
import { describe, expect, it } from 'vitest';
import { binomialUpperTail, bootstrapMeanLowerBound, clopperPearson, holm, mcnemarExact, normalQuantile, seededRandom, signFlipTest, wilson } from '../../src/optimize/stats.js';

describe('intervals', () => {
  it('Wilson 95% for 8 of 10 is [0.490, 0.943]', () => {
    const w = wilson(8, 10);
    expect(w.rate).toBe(0.8);
    expect(w.low).toBeCloseTo(0.4902, 3);
    expect(w.high).toBeCloseTo(0.9433, 3);
  });

  it('Clopper-Pearson 95% for 8 of 10 is [0.4439, 0.9748]; 0 of 10 has upper 1 - 0.025^(1/10)', () => {
    const cp = clopperPearson(8, 10);
    expect(cp.low).toBeCloseTo(0.4439, 3);
    expect(cp.high).toBeCloseTo(0.9748, 3);
    expect(clopperPearson(0, 10).high).toBeCloseTo(1 - 0.025 ** (1 / 10), 6);
    expect(clopperPearson(10, 10).low).toBeCloseTo(0.025 ** (1 / 10), 6);
  });

  it('normal quantile: 1.959964 at 0.975, symmetric', () => {
    expect(normalQuantile(0.975)).toBeCloseTo(1.959964, 5);
    expect(normalQuantile(0.05)).toBeCloseTo(-1.644854, 5);
  });
});

describe('tests', () => {
  it('exact McNemar: 8 better, 1 worse gives P(Bin(9, 1/2) >= 8) = 10/512', () => {
    expect(mcnemarExact(8, 1)).toBeCloseTo(10 / 512, 12);
    expect(mcnemarExact(0, 0)).toBe(1);
    expect(binomialUpperTail(3, 3)).toBeCloseTo(1 / 8, 12);
  });

  it('sign flip: five equal positive differences give 1/32; one negative of five gives 6/32', () => {
    expect(signFlipTest([1, 1, 1, 1, 1])).toBeCloseTo(1 / 32, 12);
    expect(signFlipTest([1, 1, 1, 1, -1])).toBeCloseTo(6 / 32, 12);
    expect(signFlipTest([0, 0, 0])).toBe(1);
  });

  it('sign flip samples (seeded, reproducible) above the exact limit and agrees with enumeration', () => {
    const diffs = [0.33, 0.67, 0.33, 1, -0.33, 0.67, 0, 0.33, 1, 0.33, -0.33, 0.67, 0.33, 0.67, 1, 0.33, 0.33, 0.67];
    const exact = signFlipTest(diffs, { exactUpTo: 20 });
    const sampled = signFlipTest(diffs, { exactUpTo: 0, samples: 50_000, seed: 3 });
    expect(sampled).toBe(signFlipTest(diffs, { exactUpTo: 0, samples: 50_000, seed: 3 }));
    expect(Math.abs(sampled - exact)).toBeLessThan(0.0015);
  });

  it('Holm: [0.01, 0.04, 0.03] adjusts to [0.03, 0.06, 0.06]', () => {
    const adjusted = holm([0.01, 0.04, 0.03]);
    expect(adjusted[0]).toBeCloseTo(0.03, 12);
    expect(adjusted[1]).toBeCloseTo(0.06, 12);
    expect(adjusted[2]).toBeCloseTo(0.06, 12);
  });

  it('bootstrap lower bound: constant values are their own bound; a spread lowers it below the mean', () => {
    expect(bootstrapMeanLowerBound([0.2, 0.2, 0.2], 0.9)).toBe(0.2);
    const bound = bootstrapMeanLowerBound([0, 0, 0, 0, 0, 0, 0, -1 / 3], 0.9, { seed: 17 });
    expect(bound).toBeLessThan(-1 / 24);
    expect(bound).toBeGreaterThanOrEqual(-1 / 3);
  });

  it('seeded random is reproducible and uniform enough', () => {
    const a = seededRandom(42);
    const b = seededRandom(42);
    const xs = Array.from({ length: 10_000 }, () => a());
    expect(xs.slice(0, 5)).toEqual(Array.from({ length: 5 }, () => b()));
    expect(Math.abs(xs.reduce((s, x) => s + x, 0) / xs.length - 0.5)).toBeLessThan(0.01);
  });
});
