// The benchmark's scores on a tiny set checked by hand against the README definitions.
import { describe, expect, it } from 'vitest';
import { percentile, scoreQuery, summarize } from '../../src/search/metrics.js';

// Query A: ranked a x b y c; groups {a} {b,z} {c} {w}. Best ranks: a=1, b=3 (z absent), c=5, w none.
//   Recall@1 1/4 = 0.25, @3 2/4 = 0.5, @5 3/4 = 0.75, @10 0.75; Complete@5 = @10 = 0 (w missing)
//   MRR@10 = 1/1 = 1
//   DCG = 1/log2(2) + 1/log2(4) + 1/log2(6) = 1 + 0.5 + 0.386853 = 1.886853
//   IDCG (4 groups on top) = 1 + 0.630930 + 0.5 + 0.430677 = 2.561606 -> nDCG 0.736591
// Query B: ranked x y q; one group {y,q}. Best member y at 2 (q at 3 earns nothing).
//   Recall@1 0, @3 @5 @10 1; Complete@5 = @10 = 1; MRR 1/2; nDCG = (1/log2 3) / 1 = 0.630930
// Query C: nothing ranked; one group {a}. Every score 0.
// Means over A, B, C: R@1 0.25/3 = 0.083333, R@3 1.5/3 = 0.5, R@5 = R@10 = 1.75/3 = 0.583333,
//   Complete@5 = @10 = 1/3, MRR 1.5/3 = 0.5, nDCG (0.736591 + 0.630930)/3 = 0.455840.
const A = scoreQuery(['a', 'x', 'b', 'y', 'c'], [['a'], ['b', 'z'], ['c'], ['w']]);
const B = scoreQuery(['x', 'y', 'q'], [['y', 'q']]);
const C = scoreQuery([], [['a']]);

describe('retrieval metrics', () => {
  it('scores one query as the README defines', () => {
    expect(A.recall).toEqual({ 1: 0.25, 3: 0.5, 5: 0.75, 10: 0.75 });
    expect(A.complete).toEqual({ 5: 0, 10: 0 });
    expect(A.mrr10).toBe(1);
    expect(A.ndcg10).toBeCloseTo(0.736591, 5);
    expect(B.recall).toEqual({ 1: 0, 3: 1, 5: 1, 10: 1 });
    expect(B.complete).toEqual({ 5: 1, 10: 1 });
    expect(B.mrr10).toBe(0.5);
    expect(B.ndcg10).toBeCloseTo(0.63093, 5);
    expect(C).toEqual({ recall: { 1: 0, 3: 0, 5: 0, 10: 0 }, complete: { 5: 0, 10: 0 }, mrr10: 0, ndcg10: 0 });
  });

  it('ignores tools past rank 10 for MRR@10 and nDCG@10', () => {
    const ranked = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '10', 'hit'];
    const s = scoreQuery(ranked, [['hit']]);
    expect(s.mrr10).toBe(0);
    expect(s.ndcg10).toBe(0);
    expect(s.recall[10]).toBe(0);
  });

  it('averages over queries', () => {
    const s = summarize([A, B, C]);
    expect(s.queries).toBe(3);
    expect(s.recall[1]).toBeCloseTo(0.083333, 5);
    expect(s.recall[3]).toBeCloseTo(0.5, 5);
    expect(s.recall[5]).toBeCloseTo(0.583333, 5);
    expect(s.recall[10]).toBeCloseTo(0.583333, 5);
    expect(s.complete[5]).toBeCloseTo(1 / 3, 5);
    expect(s.complete[10]).toBeCloseTo(1 / 3, 5);
    expect(s.mrr10).toBeCloseTo(0.5, 5);
    expect(s.ndcg10).toBeCloseTo(0.45584, 5);
  });

  it('takes nearest-rank percentiles', () => {
    expect(percentile([5, 1, 3, 2, 4], 50)).toBe(3); // rank ceil(2.5) = 3
    expect(percentile([5, 1, 3, 2, 4], 99)).toBe(5); // rank ceil(4.95) = 5
    expect(percentile([], 50)).toBe(0);
  });
});
