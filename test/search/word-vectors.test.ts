// The word-vector signal of the issue-20 experiment on a small hand-made catalog and a hand-made
// 4-dimensional table: a request with no word in common with a tool still finds it by meaning
// ("physician" -> doctors), SIF weighs corpus-common words down, fusion with the lexical ranking
// changes the order where the lexical ranking alone is wrong, and the compact int8 file keeps the
// vectors' directions and frequency ranks and rejects a damaged file.
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ToolIndex, type ToolDoc } from '../../src/search/index.js';
import { CompactWordVectorTable, encodeCompact } from '../../src/search/word-vectors/compact.js';
import { DEFAULT_FUSION, fuseWithVectors } from '../../src/search/word-vectors/fusion.js';
import { loadWordVectorFile } from '../../src/search/word-vectors/load.js';
import { MapWordVectorTable, WordVectorError } from '../../src/search/word-vectors/table.js';
import { WordVectorIndex } from '../../src/search/word-vectors/word-vector-index.js';

// Four directions: health, place, vehicle, and the generic words every text has. Most frequent first.
const WORDS: Array<[string, number[]]> = [
  ['the', [0.2, 0.2, 0.2, 1]],
  ['find', [0.1, 0.1, 0.1, 1]],
  ['search', [0.1, 0.1, 0.1, 0.9]],
  ['book', [0.1, 0.1, 0.3, 0.8]],
  ['look', [0.1, 0.1, 0.1, 0.9]],
  ['near', [0, 1, 0, 0.1]],
  ['places', [0, 0.9, 0.1, 0.2]],
  ['location', [0, 1, 0.1, 0]],
  ['car', [0, 0, 1, 0]],
  ['rental', [0.1, 0.2, 0.8, 0.2]],
  ['title', [0.1, 0.1, 0, 0.6]],
  ['catalog', [0.1, 0.1, 0.1, 0.7]],
  ['doctors', [0.95, 0.1, 0.05, 0]],
  ['specialty', [0.7, 0, 0.3, 0]],
  ['nearby', [0.05, 0.95, 0, 0.1]],
  ['physician', [0.9, 0.15, 0, 0.05]],
  ['automobile', [0.05, 0, 0.95, 0.1]],
];

function handTable(): MapWordVectorTable {
  const table = new MapWordVectorTable(4);
  for (const [word, vector] of WORDS) table.add(word, Float32Array.from(vector));
  return table;
}

const tool = (server: string, name: string, description: string): ToolDoc => ({ key: `${server}_${name}`, server, name, description });

const cosine = (a: Float32Array, b: Float32Array) => {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! ** 2;
    nb += b[i]! ** 2;
  }
  return dot / Math.sqrt(na * nb);
};

describe('word vectors (issue 20 experiment)', () => {
  const catalog = [tool('places', 'search_nearby', 'Find places near a location.'), tool('clinics', 'search_doctors', 'Look up doctors by specialty.')];

  it('finds a tool by meaning when the request shares no word with it, where the lexical index finds nothing', () => {
    const lexical = new ToolIndex();
    for (const doc of catalog) lexical.add(doc);
    expect(lexical.search('physician').map((h) => h.key)).not.toContain('clinics_search_doctors');
    const vectors = new WordVectorIndex(handTable(), catalog);
    const hits = vectors.search('physician', 2);
    expect(hits.map((h) => h.key)).toEqual(['clinics_search_doctors', 'places_search_nearby']);
    expect(hits[0]!.score).toBeGreaterThan(0.8);
  });

  it('SIF weighs words that are common in the vectors\' corpus down; idf weighs words common in the catalog down', () => {
    const sif = new WordVectorIndex(handTable(), catalog, { weighting: 'sif' });
    expect(sif.weightOf('find')).toBeLessThan(sif.weightOf('physician'));
    expect(sif.weightOf('unknownword')).toBe(1);
    const idf = new WordVectorIndex(handTable(), catalog, { weighting: 'idf' });
    expect(idf.weightOf('search')).toBeLessThan(idf.weightOf('doctors')); // in both names vs in one tool
    // Without stop words dropped, "the" and "a" take part; with them dropped (default) they do not.
    expect(Array.from(new WordVectorIndex(handTable(), catalog).queryVector('the'))).toEqual([0, 0, 0, 0]);
    expect(Array.from(new WordVectorIndex(handTable(), catalog, { dropStopWords: false }).queryVector('the')).some((x) => x !== 0)).toBe(true);
  });

  it('fused with the lexical ranking, it changes the order where the words alone point to the wrong tool', () => {
    const docs = [tool('library', 'book_search', 'Search a book catalog by book title.'), tool('travel', 'book_car', 'Book a rental car.')];
    const lexical = new ToolIndex();
    for (const doc of docs) lexical.add(doc);
    const lexicalHits = lexical.search('book an automobile');
    expect(lexicalHits[0]!.key).toBe('library_book_search');
    const vectors = new WordVectorIndex(handTable(), docs);
    const linear = fuseWithVectors('book an automobile', lexicalHits, vectors, { ...DEFAULT_FUSION, method: 'linear', vectorWeight: 0.5 }, 10);
    expect(linear[0]).toBe('travel_book_car');
    const rrf = fuseWithVectors('book an automobile', lexicalHits, vectors, { ...DEFAULT_FUSION, method: 'rrf' }, 10);
    expect(rrf).toEqual(expect.arrayContaining(['travel_book_car', 'library_book_search']));
    // A vector weight of 0 leaves the lexical order as it was.
    expect(fuseWithVectors('book an automobile', lexicalHits, vectors, { ...DEFAULT_FUSION, method: 'linear', vectorWeight: 0 }, 10)[0]).toBe('library_book_search');
  });

  it('removing the catalog\'s common component keeps every vector at unit length and still ranks by meaning', () => {
    const vectors = new WordVectorIndex(handTable(), catalog, { removeCommonComponent: true });
    const q = vectors.queryVector('physician');
    expect(Math.hypot(...q)).toBeCloseTo(1, 5);
    expect(vectors.search('physician', 1)[0]!.key).toBe('clinics_search_doctors');
  });
});

describe('the compact word-vector file', () => {
  it('keeps the N most frequent words, their ranks and their directions (int8)', () => {
    const table = handTable();
    const bytes = encodeCompact(table.words(), table, 10, 'hand-made');
    const compact = new CompactWordVectorTable(bytes);
    expect(compact.size).toBe(10);
    expect(compact.dimensions).toBe(4);
    expect(compact.rankOf('the')).toBe(0);
    expect(compact.rankOf('rental')).toBe(9); // the 10th word
    expect(compact.vectorOf('title')).toBeUndefined(); // the 11th: rarer than the 10 kept
    for (const [word] of WORDS.slice(0, 10)) expect(cosine(compact.vectorOf(word)!, table.vectorOf(word)!)).toBeGreaterThan(0.999);
    expect(bytes.length).toBeLessThan(200); // 40 bytes of vectors, the words and a small header
  });

  it('rejects a damaged file with a message that says how to make a good one', () => {
    const table = handTable();
    const bytes = encodeCompact(table.words(), table, 5);
    expect(() => new CompactWordVectorTable(bytes.subarray(0, bytes.length - 1), 'short.sbwv')).toThrow(WordVectorError);
    expect(() => new CompactWordVectorTable(bytes.subarray(0, bytes.length - 1), 'short.sbwv')).toThrow(/short\.sbwv.*bytes where the header announces.*build-word-vectors/);
    const wrong = Buffer.from(bytes);
    wrong.write('XXXX', 0, 'latin1');
    expect(() => new CompactWordVectorTable(wrong)).toThrow(/wrong magic/);
  });

  it('the loader tells the compact file from the wink JSON by content, and names what it cannot read', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'switchboard-word-vectors-'));
    const table = handTable();
    const compactFile = path.join(dir, 'v.sbwv');
    await writeFile(compactFile, encodeCompact(table.words(), table, 100));
    // The wink package's layout: each vector followed by its l2 norm and word index; punctuation entries are skipped.
    const words = ['the', ',', 'physician'];
    const wink = { precision: 8, l2NormIndex: 4, wordIndex: 5, size: 3, dimensions: 4, words, vectors: Object.fromEntries(words.map((w, i) => [w, [...(table.vectorOf(w) ?? [1, 0, 0, 0]), 1, i]])) };
    const jsonFile = path.join(dir, 'v.json');
    await writeFile(jsonFile, JSON.stringify(wink));
    const fromCompact = loadWordVectorFile(compactFile);
    const fromJson = loadWordVectorFile(jsonFile);
    expect(fromCompact.size).toBe(WORDS.length);
    expect(fromJson.size).toBe(2);
    expect(fromJson.rankOf('physician')).toBe(1);
    expect(cosine(fromJson.vectorOf('physician')!, fromCompact.vectorOf('physician')!)).toBeGreaterThan(0.999);
    const other = path.join(dir, 'other.bin');
    await writeFile(other, 'hello world');
    expect(() => loadWordVectorFile(other)).toThrow(/not a word-vector file/);
    expect(() => loadWordVectorFile(path.join(dir, 'missing'))).toThrow(/cannot read the word vectors/);
  });
});
