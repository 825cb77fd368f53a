// Owns fusing ranked lists: reciprocal rank fusion (each list adds weight / (k + rank) to a tool), which
// needs no score calibration between BM25 and cosine similarity and rewards tools both rankers like.

export interface Ranked {
  key: string;
}

export interface FusedHit {
  key: string;
  score: number;
  /** 1-based rank in each input list (absent: not in that list). */
  ranks: Array<number | undefined>;
}

export const RRF_K = 60;

/** Fuses lists best-first; ties keep the order of first appearance (earlier lists first). */
export function reciprocalRankFusion(lists: ReadonlyArray<readonly Ranked[]>, options: { k?: number; weights?: readonly number[] } = {}): FusedHit[] {
  const k = options.k ?? RRF_K;
  const fused = new Map<string, FusedHit & { order: number }>();
  lists.forEach((list, which) => {
    const weight = options.weights?.[which] ?? 1;
    list.forEach((item, i) => {
      let hit = fused.get(item.key);
      if (!hit) fused.set(item.key, (hit = { key: item.key, score: 0, ranks: new Array(lists.length).fill(undefined), order: fused.size }));
      if (hit.ranks[which] !== undefined) return; // a list naming a key twice counts it once
      hit.ranks[which] = i + 1;
      hit.score += weight / (k + i + 1);
    });
  });
  return [...fused.values()].sort((a, b) => b.score - a.score || a.order - b.order).map(({ key, score, ranks }) => ({ key, score, ranks }));
}
