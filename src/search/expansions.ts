// Owns the learned queries per tool (learning from use): each query that led to a tool is kept with
// a weight; repeats add up, the store is capped per tool (lowest weight evicted first) and can be
// decayed so old usage fades. The index reads the result as term frequencies of the `learned` field.
import { terms } from './tokenize.js';

export const DEFAULT_EXPANSION_CAP = 100;

export class ExpansionStore {
  private readonly byKey = new Map<string, Map<string, number>>();

  constructor(private readonly cap = DEFAULT_EXPANSION_CAP) {}

  /** Attach `query` to `key`; returns false when the query has no searchable words. */
  add(key: string, query: string, weight = 1): boolean {
    const normal = terms(query).join(' ');
    if (!normal || !(weight > 0)) return false;
    let queries = this.byKey.get(key);
    if (!queries) this.byKey.set(key, (queries = new Map()));
    queries.set(normal, (queries.get(normal) ?? 0) + weight);
    if (queries.size > this.cap) {
      let worst: string | undefined;
      let worstWeight = Infinity;
      for (const [q, w] of queries) if (w < worstWeight) [worst, worstWeight] = [q, w];
      if (worst !== undefined) queries.delete(worst);
    }
    return true;
  }

  /** Multiply every weight by `factor` (0..1) and drop what falls under `floor`. */
  decay(factor: number, floor = 0.05): string[] {
    const touched: string[] = [];
    for (const [key, queries] of this.byKey) {
      for (const [q, w] of queries) {
        if (w * factor < floor) queries.delete(q);
        else queries.set(q, w * factor);
      }
      if (queries.size === 0) this.byKey.delete(key);
      touched.push(key);
    }
    return touched;
  }

  remove(key: string): void {
    this.byKey.delete(key);
  }

  /** The stored queries of `key` with their weights (for persistence and inspection). */
  entries(key: string): Array<{ query: string; weight: number }> {
    return [...(this.byKey.get(key) ?? [])].map(([query, weight]) => ({ query, weight }));
  }

  /**
   * Term frequencies of the learned field: each stored query counts its weight, compressed so a tool
   * with many queries does not drown every other field (sqrt of the summed weight per term).
   */
  termFrequencies(key: string): Map<string, number> {
    const tf = new Map<string, number>();
    const queries = this.byKey.get(key);
    if (!queries) return tf;
    for (const [q, w] of queries) {
      for (const t of new Set(q.split(' '))) tf.set(t, (tf.get(t) ?? 0) + w);
    }
    for (const [t, v] of tf) tf.set(t, Math.sqrt(v));
    return tf;
  }
}
