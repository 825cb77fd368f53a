// Owns the word-vector signal of tool search: each tool becomes one vector, the weighted average of
// the pre-trained vectors of its words (name words counted `nameWeight` times, then the description,
// optionally the parameters), and a request becomes the same kind of average of its words; tools are
// ranked by cosine. Word weights follow SIF (Arora et al. 2017: a / (a + p(word)), p estimated from
// the word's frequency rank in the vectors' training corpus by Zipf's law), the catalog's idf, or
// both; optionally the catalog's common component (first principal direction of the tool vectors) is
// removed from every vector. No network, no model: a table lookup and a dot product per tool.
import type { ToolDoc } from '../document.js';
import { splitWords, STOP_WORDS } from '../tokenize.js';
import type { WordVectorTable } from './table.js';

export const WORD_WEIGHTINGS = ['sif', 'idf', 'sif-idf', 'uniform'] as const;
export type WordWeighting = (typeof WORD_WEIGHTINGS)[number];

export interface WordVectorOptions {
  weighting: WordWeighting;
  /** SIF's smoothing constant a (smaller: common words count less). */
  sifA: number;
  /** How many times a word of the tool's name (and title) counts. */
  nameWeight: number;
  /** Also the parameters' names and descriptions. */
  params: boolean;
  /** Drop the tokenizer's stop words (English function words and request filler). */
  dropStopWords: boolean;
  /** Remove the catalog's first principal direction from every vector (SIF's second step). */
  removeCommonComponent: boolean;
}

export const DEFAULT_WORD_VECTOR_OPTIONS: WordVectorOptions = {
  weighting: 'sif',
  sifA: 1e-3,
  nameWeight: 2,
  params: false,
  dropStopWords: true,
  removeCommonComponent: false,
};

export interface WordVectorHit {
  key: string;
  score: number;
}

/** Bag of words with counts. */
type Bag = Map<string, number>;

function addWords(bag: Bag, text: string | undefined, times: number, dropStopWords: boolean): void {
  if (!text) return;
  for (const word of splitWords(text)) {
    if (dropStopWords && STOP_WORDS.has(word)) continue;
    if (!/[a-z]/.test(word)) continue; // numbers carry no meaning in these vectors
    bag.set(word, (bag.get(word) ?? 0) + times);
  }
}

function paramText(schema: unknown): string {
  const props = (schema as { properties?: Record<string, { description?: unknown }> } | undefined)?.properties;
  if (!props || typeof props !== 'object') return '';
  return Object.entries(props)
    .map(([name, p]) => (typeof p?.description === 'string' ? `${name} ${p.description}` : name))
    .join(' ');
}

export class WordVectorIndex {
  readonly options: WordVectorOptions;
  private readonly keys: string[] = [];
  private readonly bags: Bag[] = [];
  private readonly documentFrequency = new Map<string, number>();
  private matrix = new Float32Array(0); // tool vectors, row by row (unit length)
  private common: Float32Array | undefined;
  private readonly harmonic: number;

  constructor(
    private readonly table: WordVectorTable,
    docs: readonly ToolDoc[],
    options: Partial<WordVectorOptions> = {},
  ) {
    this.options = { ...DEFAULT_WORD_VECTOR_OPTIONS, ...options };
    this.harmonic = Math.log(Math.max(2, table.size)) + 0.5772; // Zipf: p(rank r) ~ 1 / ((r + 1) * H)
    const o = this.options;
    for (const doc of docs) {
      const bag: Bag = new Map();
      addWords(bag, doc.name, o.nameWeight, o.dropStopWords);
      if (doc.title) addWords(bag, doc.title, o.nameWeight, o.dropStopWords);
      addWords(bag, doc.description, 1, o.dropStopWords);
      if (o.params) addWords(bag, paramText(doc.inputSchema), 1, o.dropStopWords);
      this.keys.push(doc.key);
      this.bags.push(bag);
      for (const word of bag.keys()) this.documentFrequency.set(word, (this.documentFrequency.get(word) ?? 0) + 1);
    }
    const d = table.dimensions;
    this.matrix = new Float32Array(this.keys.length * d);
    this.bags.forEach((bag, i) => this.matrix.set(this.average(bag), i * d));
    if (o.removeCommonComponent && this.keys.length > 1) {
      this.common = firstPrincipalDirection(this.matrix, d);
      for (let i = 0; i < this.keys.length; i++) this.matrix.set(this.project(this.matrix.subarray(i * d, (i + 1) * d)), i * d);
    }
  }

  get size(): number {
    return this.keys.length;
  }

  /** How much a word counts in an average. */
  weightOf(word: string): number {
    const o = this.options;
    let w = 1;
    if (o.weighting === 'sif' || o.weighting === 'sif-idf') {
      const rank = this.table.rankOf(word);
      const p = rank === undefined ? 0 : 1 / ((rank + 1) * this.harmonic);
      w *= o.sifA / (o.sifA + p);
    }
    if (o.weighting === 'idf' || o.weighting === 'sif-idf') {
      const n = this.keys.length;
      const df = this.documentFrequency.get(word) ?? 0;
      w *= Math.log(1 + (n - df + 0.5) / (df + 0.5));
    }
    return w;
  }

  /** The unit-length weighted average of a bag's known words (all zero when none is known). */
  private average(bag: Bag): Float32Array {
    const d = this.table.dimensions;
    const sum = new Float32Array(d);
    for (const [word, count] of bag) {
      const vector = this.table.vectorOf(word);
      if (!vector) continue;
      const w = this.weightOf(word) * count;
      for (let i = 0; i < d; i++) sum[i]! += w * vector[i]!;
    }
    return unitLength(sum);
  }

  private project(vector: Float32Array): Float32Array {
    const c = this.common;
    if (!c) return vector;
    let dot = 0;
    for (let i = 0; i < c.length; i++) dot += vector[i]! * c[i]!;
    const out = new Float32Array(vector.length);
    for (let i = 0; i < c.length; i++) out[i] = vector[i]! - dot * c[i]!;
    return unitLength(out);
  }

  /** The request's vector (all zero when none of its words is known). */
  queryVector(query: string): Float32Array {
    const bag: Bag = new Map();
    addWords(bag, query, 1, this.options.dropStopWords);
    return this.project(this.average(bag));
  }

  /** Cosine of the request with every tool, by catalog position. */
  similarities(query: string): Float32Array {
    const q = this.queryVector(query);
    const d = q.length;
    const out = new Float32Array(this.keys.length);
    for (let t = 0; t < this.keys.length; t++) {
      let dot = 0;
      const base = t * d;
      for (let i = 0; i < d; i++) dot += q[i]! * this.matrix[base + i]!;
      out[t] = dot;
    }
    return out;
  }

  /** The `limit` most similar tools, best first (ties in catalog order). */
  search(query: string, limit: number): WordVectorHit[] {
    const sims = this.similarities(query);
    const order = Array.from(sims.keys()).sort((a, b) => sims[b]! - sims[a]! || a - b);
    return order.slice(0, limit).map((t) => ({ key: this.keys[t]!, score: sims[t]! }));
  }

  /** Cosine by tool key (for a linear mix with the lexical score). */
  scoresByKey(query: string): Map<string, number> {
    const sims = this.similarities(query);
    return new Map(this.keys.map((key, t) => [key, sims[t]!]));
  }
}

function unitLength(vector: Float32Array): Float32Array {
  let sum = 0;
  for (let i = 0; i < vector.length; i++) sum += vector[i]! * vector[i]!;
  if (sum === 0) return vector;
  const scale = 1 / Math.sqrt(sum);
  for (let i = 0; i < vector.length; i++) vector[i]! *= scale;
  return vector;
}

/** The first principal direction (uncentred, as SIF does) of the rows, by power iteration. */
function firstPrincipalDirection(matrix: Float32Array, d: number): Float32Array {
  const rows = matrix.length / d;
  let v: Float32Array = new Float32Array(d).fill(1 / Math.sqrt(d));
  for (let iteration = 0; iteration < 50; iteration++) {
    const next = new Float32Array(d);
    for (let r = 0; r < rows; r++) {
      let dot = 0;
      for (let i = 0; i < d; i++) dot += matrix[r * d + i]! * v[i]!;
      for (let i = 0; i < d; i++) next[i]! += dot * matrix[r * d + i]!;
    }
    v = unitLength(next);
  }
  return v;
}
