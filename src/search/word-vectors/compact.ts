// Owns the compact word-vector file that users are given instead of the 294 MB npm package: the N
// most frequent words (the source is ordered by frequency), each vector quantised to int8 (scaled by
// its largest component; only directions matter, every vector is used at unit length).
// Layout: "SBWV0001", uint32 LE length of a JSON header {dimensions, words, wordBytes, source},
// the header, the words as UTF-8 joined by "\n" (wordBytes long), then words x dimensions int8.
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { WordVectorError, type WordVectorTable } from './table.js';

const MAGIC = 'SBWV0001';

const Header = z.object({
  dimensions: z.number().int().positive().max(4096),
  words: z.number().int().nonnegative(),
  wordBytes: z.number().int().nonnegative(),
  source: z.string().optional(),
});

/** Serialises the first `maxWords` words of `words` (most frequent first) with their vectors. */
export function encodeCompact(words: Iterable<string>, table: WordVectorTable, maxWords: number, source?: string): Buffer {
  const kept: string[] = [];
  for (const word of words) {
    if (kept.length >= maxWords) break;
    if (word.includes('\n') || !table.vectorOf(word)) continue;
    kept.push(word);
  }
  const d = table.dimensions;
  const wordBlock = Buffer.from(kept.join('\n'), 'utf8');
  const header = Buffer.from(JSON.stringify({ dimensions: d, words: kept.length, wordBytes: wordBlock.length, ...(source && { source }) }), 'utf8');
  const vectors = Buffer.alloc(kept.length * d);
  kept.forEach((word, w) => {
    const vector = table.vectorOf(word)!;
    let max = 0;
    for (let i = 0; i < d; i++) max = Math.max(max, Math.abs(vector[i]!));
    const scale = max > 0 ? 127 / max : 0;
    for (let i = 0; i < d; i++) vectors.writeInt8(Math.round(vector[i]! * scale), w * d + i);
  });
  const length = Buffer.alloc(4);
  length.writeUInt32LE(header.length);
  return Buffer.concat([Buffer.from(MAGIC, 'latin1'), length, header, wordBlock, vectors]);
}

/** A table read from the compact format; vectors stay int8 in memory and are expanded per lookup. */
export class CompactWordVectorTable implements WordVectorTable {
  readonly dimensions: number;
  readonly size: number;
  private readonly index = new Map<string, number>();
  private readonly vectors: Int8Array;
  private readonly inverseNorms: Float32Array;

  constructor(bytes: Buffer, where = 'word-vector file') {
    const bad = (why: string) => new WordVectorError(`${where}: not a compact word-vector file (${why}); regenerate it with bench/build-word-vectors.mjs`);
    if (bytes.length < 12 || bytes.toString('latin1', 0, 8) !== MAGIC) throw bad('wrong magic');
    const headerLength = bytes.readUInt32LE(8);
    let header: z.infer<typeof Header>;
    try {
      header = Header.parse(JSON.parse(bytes.toString('utf8', 12, 12 + headerLength)));
    } catch (error) {
      throw bad(`bad header: ${(error as Error).message}`);
    }
    const wordsAt = 12 + headerLength;
    const vectorsAt = wordsAt + header.wordBytes;
    if (bytes.length !== vectorsAt + header.words * header.dimensions) throw bad(`${bytes.length} bytes where the header announces ${vectorsAt + header.words * header.dimensions}`);
    const words = header.words === 0 ? [] : bytes.toString('utf8', wordsAt, vectorsAt).split('\n');
    if (words.length !== header.words) throw bad(`${words.length} words where the header announces ${header.words}`);
    this.dimensions = header.dimensions;
    this.size = words.length;
    words.forEach((word, i) => {
      if (!this.index.has(word)) this.index.set(word, i);
    });
    this.vectors = new Int8Array(bytes.buffer, bytes.byteOffset + vectorsAt, header.words * header.dimensions);
    this.inverseNorms = new Float32Array(words.length);
    const d = this.dimensions;
    for (let w = 0; w < words.length; w++) {
      let sum = 0;
      for (let i = 0; i < d; i++) sum += this.vectors[w * d + i]! ** 2;
      this.inverseNorms[w] = sum > 0 ? 1 / Math.sqrt(sum) : 0;
    }
  }

  vectorOf(word: string): Float32Array | undefined {
    const w = this.index.get(word);
    if (w === undefined) return undefined;
    const d = this.dimensions;
    const out = new Float32Array(d);
    const scale = this.inverseNorms[w]!;
    for (let i = 0; i < d; i++) out[i] = this.vectors[w * d + i]! * scale;
    return out;
  }

  rankOf(word: string): number | undefined {
    return this.index.get(word);
  }
}

export function loadCompact(file: string): CompactWordVectorTable {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    throw new WordVectorError(`cannot read the word vectors at ${file}: ${(error as Error).message}`, { cause: error });
  }
  return new CompactWordVectorTable(bytes, file);
}

export const COMPACT_MAGIC = MAGIC;
