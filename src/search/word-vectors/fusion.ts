// Owns fusing a lexical ranking with the word-vector ranking of the same request: reciprocal rank
// fusion (each list adds weight / (k + rank), the lists cut at `depth`) or a fixed linear mix of the
// lexical score (divided by the request's best) and the cosine. `vectors` alone ranks by cosine only.
import { reciprocalRankFusion, RRF_K } from '../hybrid.js';
import type { WordVectorIndex } from './word-vector-index.js';

export const FUSION_METHODS = ['rrf', 'linear', 'vectors'] as const;
export type FusionMethod = (typeof FUSION_METHODS)[number];

export interface FusionOptions {
  method: FusionMethod;
  /** RRF's k (60: the standard value, not tuned). */
  k: number;
  /** How far down each list RRF and the linear mix look. */
  depth: number;
  /** RRF: the vector list's weight (the lexical list's is 1). Linear: the cosine's share alpha. */
  vectorWeight: number;
}

export const DEFAULT_FUSION: FusionOptions = { method: 'rrf', k: RRF_K, depth: 30, vectorWeight: 1 };

export interface ScoredKey {
  key: string;
  score: number;
}

/** The fused order of the request's tools, best first, at most `limit`. */
export function fuseWithVectors(query: string, lexical: readonly ScoredKey[], vectors: WordVectorIndex, options: FusionOptions, limit: number): string[] {
  if (options.method === 'vectors') return vectors.search(query, limit).map((h) => h.key);
  if (options.method === 'rrf') {
    const fused = reciprocalRankFusion([lexical.slice(0, options.depth), vectors.search(query, options.depth)], { k: options.k, weights: [1, options.vectorWeight] });
    return fused.slice(0, limit).map((h) => h.key);
  }
  const cosine = vectors.scoresByKey(query);
  const best = lexical.reduce((m, h) => Math.max(m, h.score), 0);
  const lexicalShare = new Map(lexical.slice(0, options.depth).map((h) => [h.key, best > 0 ? h.score / best : 0]));
  const alpha = options.vectorWeight;
  const mixed = [...cosine].map(([key, cos], order) => ({ key, order, score: (1 - alpha) * (lexicalShare.get(key) ?? 0) + alpha * Math.max(0, cos) }));
  // Catalog order breaks ties, as in the lexical index.
  mixed.sort((a, b) => b.score - a.score || a.order - b.order);
  return mixed.slice(0, limit).map((h) => h.key);
}
