// Owns the retrieval scores, exactly as eval/retrieval/README.md defines them. Pure: a
// ranked list of tool ids and the query's label groups in, numbers out. Tool ids are opaque strings
// (the benchmark uses "server/name").

export interface QueryScores {
  recall: Record<number, number>; // k -> share of groups with a member in the top k
  complete: Record<number, number>; // k -> 1 when every group has a member in the top k
  mrr10: number;
  ndcg10: number;
}

export const RECALL_KS = [1, 3, 5, 10] as const;
export const COMPLETE_KS = [5, 10] as const;

/** 1-based rank of the best-ranked member of each group (Infinity when absent from `ranked`). */
function groupRanks(ranked: readonly string[], groups: readonly (readonly string[])[]): number[] {
  const position = new Map<string, number>();
  ranked.forEach((id, i) => {
    if (!position.has(id)) position.set(id, i + 1);
  });
  return groups.map((g) => Math.min(Infinity, ...g.map((id) => position.get(id) ?? Infinity)));
}

export function scoreQuery(ranked: readonly string[], groups: readonly (readonly string[])[]): QueryScores {
  const ranks = groupRanks(ranked, groups);
  const g = groups.length;
  const recall: Record<number, number> = {};
  for (const k of RECALL_KS) recall[k] = g === 0 ? 0 : ranks.filter((r) => r <= k).length / g;
  const complete: Record<number, number> = {};
  for (const k of COMPLETE_KS) complete[k] = g > 0 && ranks.every((r) => r <= k) ? 1 : 0;
  // MRR@10: first correct tool of any group.
  const first = Math.min(Infinity, ...ranks);
  const mrr10 = first <= 10 ? 1 / first : 0;
  // nDCG@10: each group earns 1/log2(rank+1) at its best-ranked member; ideal puts every group on top.
  let dcg = 0;
  for (const r of ranks) if (r <= 10) dcg += 1 / Math.log2(r + 1);
  let idcg = 0;
  for (let i = 1; i <= Math.min(g, 10); i++) idcg += 1 / Math.log2(i + 1);
  return { recall, complete, mrr10, ndcg10: idcg === 0 ? 0 : dcg / idcg };
}

export interface Summary {
  queries: number;
  recall: Record<number, number>;
  complete: Record<number, number>;
  mrr10: number;
  ndcg10: number;
}

/** Mean of every score over the queries. */
export function summarize(scores: readonly QueryScores[]): Summary {
  const n = scores.length;
  const mean = (pick: (s: QueryScores) => number) => (n === 0 ? 0 : scores.reduce((a, s) => a + pick(s), 0) / n);
  const recall: Record<number, number> = {};
  for (const k of RECALL_KS) recall[k] = mean((s) => s.recall[k]!);
  const complete: Record<number, number> = {};
  for (const k of COMPLETE_KS) complete[k] = mean((s) => s.complete[k]!);
  return { queries: n, recall, complete, mrr10: mean((s) => s.mrr10), ndcg10: mean((s) => s.ndcg10) };
}

/** Nearest-rank percentile (p in 0..100) of `values`. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(rank, sorted.length) - 1]!;
}
