// Owns query keyword extraction: which words of a request carry its objects and actions and which
// are filler ("I'm planning", "show me", "provide a brief summary"). Nothing is curated: the signal
// is the catalog's own document frequency. A word most tools share says little about which tool is
// wanted; relative to the most specific word of the same request, it is scaled down or dropped.
// Words the catalog has never seen are left alone (typos and new names go through query.ts).
import type { QueryWord } from './query.js';
import { idf } from './scan.js';
import { stem } from './tokenize.js';

export interface KeywordOptions {
  /**
   * A word whose idf is below this share of the request's highest idf (among words the catalog
   * knows) has its weight scaled by idf / (share x highest idf) (0: off).
   */
  relativeIdf: number;
  /** Raise that scale to this power (large: a hard cut). */
  sharpness: number;
  /** Only requests with at least this many known words are reduced (a short request is all keywords). */
  minWords: number;
}

export const DEFAULT_KEYWORD_OPTIONS: KeywordOptions = { relativeIdf: 0, sharpness: 1, minWords: 3 };

/**
 * The request's words with filler scaled down. `documentFrequency` gives the number of tools holding
 * a term (0 when unknown); `n` is the catalog size. Returns `words` itself when nothing changes.
 */
export function extractKeywords(words: readonly QueryWord[], documentFrequency: (term: string) => number, n: number, o: KeywordOptions): readonly QueryWord[] {
  if (o.relativeIdf <= 0 || n === 0) return words;
  const idfs = words.map((w) => {
    const df = documentFrequency(stem(w.word));
    return df > 0 ? idf(n, df) : -1;
  });
  const known = idfs.filter((x) => x >= 0);
  if (known.length < o.minWords) return words;
  const cut = o.relativeIdf * Math.max(...known);
  let changed = false;
  const out = words.map((w, i) => {
    const d = idfs[i]!;
    if (d < 0 || d >= cut) return w;
    changed = true;
    const scale = Math.pow(d / cut, o.sharpness);
    const alternatives = new Map<string, number>();
    for (const [term, weight] of w.alternatives) alternatives.set(term, weight * scale);
    return { word: w.word, alternatives };
  });
  return changed ? out : words;
}
