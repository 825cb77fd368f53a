// Owns the in-memory vector side of search: one unit-length vector per tool key, the text hash it was
// made from, and exact cosine top-k (a dot product per tool: 10,000 tools of 1,536 dimensions is
// ~15 M multiply-adds, a few ms; no approximate index needed at catalog sizes).

export interface VectorHit {
  key: string;
  score: number;
}

/** A copy scaled to length 1 (a zero vector stays zero and never matches). */
export function normalized(vector: Float32Array): Float32Array {
  let sum = 0;
  for (let i = 0; i < vector.length; i++) sum += vector[i]! * vector[i]!;
  const out = new Float32Array(vector.length);
  if (sum === 0) return out;
  const scale = 1 / Math.sqrt(sum);
  for (let i = 0; i < vector.length; i++) out[i] = vector[i]! * scale;
  return out;
}

export class VectorIndex {
  private readonly vectors = new Map<string, { hash: string; vector: Float32Array }>();
  private dims = -1;

  get size(): number {
    return this.vectors.size;
  }

  /** Length of the vectors held (-1 while empty). */
  get dimensions(): number {
    return this.vectors.size ? this.dims : -1;
  }

  /** The hash of the text a key's vector was made from, if it has one. */
  hashOf(key: string): string | undefined {
    return this.vectors.get(key)?.hash;
  }

  /** Sets a key's vector; a vector of another length than the others resets the index (the model changed). */
  set(key: string, hash: string, vector: Float32Array): void {
    if (this.dims >= 0 && vector.length !== this.dims) this.vectors.clear();
    this.dims = vector.length;
    this.vectors.set(key, { hash, vector: normalized(vector) });
  }

  delete(key: string): void {
    this.vectors.delete(key);
  }

  keys(): IterableIterator<string> {
    return this.vectors.keys();
  }

  /** The `limit` keys most similar to `query` (cosine, negatives reported as 0), best first; ties by key for a stable order. */
  search(query: Float32Array, limit: number, accept?: (key: string) => boolean): VectorHit[] {
    if (limit <= 0 || query.length !== this.dims) return [];
    const q = normalized(query);
    const top: VectorHit[] = [];
    for (const [key, { vector }] of this.vectors) {
      if (accept && !accept(key)) continue;
      let dot = 0;
      for (let i = 0; i < q.length; i++) dot += q[i]! * vector[i]!;
      if (top.length === limit && dot <= top[limit - 1]!.score) continue;
      if (top.length === limit) top.pop();
      let i = top.length;
      top.push({ key, score: dot });
      for (; i > 0 && (top[i - 1]!.score < dot || (top[i - 1]!.score === dot && top[i - 1]!.key > key)); i--) top[i] = top[i - 1]!;
      top[i] = { key, score: dot };
    }
    for (const hit of top) if (hit.score < 0) hit.score = 0; // scores are shares of the best and priors multiply them
    return top;
  }
}
