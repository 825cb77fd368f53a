// Owns query analysis: a query becomes a list of words, each with weighted alternative index terms
// (its stem at full weight, synonyms, and for words the index does not know, one-edit typo
// corrections and prefix completions). A document scores a word by its best alternative only, so a
// tool mentioning both "delete" and "remove" is not paid twice for the query word "rm".
import type { Vocabulary } from './fuzzy.js';
import { synonymsOf } from './synonyms.js';
import { STOP_WORDS, splitWords, stem } from './tokenize.js';

export interface QueryOptions {
  synonymWeight: number;
  fuzzyWeight: number;
  prefixWeight: number;
  maxCompletions: number;
  fuzzyMinLength: number;
  synonyms: boolean;
  fuzzy: boolean;
  prefix: boolean;
}

export const DEFAULT_QUERY_OPTIONS: QueryOptions = {
  synonymWeight: 0.5,
  fuzzyWeight: 0.5,
  prefixWeight: 0.5,
  maxCompletions: 8,
  fuzzyMinLength: 5,
  synonyms: true,
  fuzzy: true,
  prefix: true,
};

export interface QueryWord {
  word: string;
  alternatives: Map<string, number>; // index term -> weight (0..1]
}

export function analyzeQuery(text: string, vocab: Vocabulary, o: QueryOptions = DEFAULT_QUERY_OPTIONS): QueryWord[] {
  const raw = splitWords(text);
  let words = raw.filter((w) => !STOP_WORDS.has(w));
  if (words.length === 0) words = raw; // a query made only of stop words still searches
  const seen = new Set<string>();
  const out: QueryWord[] = [];
  for (const word of words) {
    const s = stem(word);
    if (seen.has(s)) continue;
    seen.add(s);
    const alternatives = new Map<string, number>();
    const offer = (term: string, weight: number) => {
      if ((alternatives.get(term) ?? 0) < weight) alternatives.set(term, weight);
    };
    offer(s, 1);
    if (word !== s && vocab.has(word)) offer(word, 1); // unstemmed forms (numbers, codes, names)
    if (o.synonyms) {
      for (const syn of synonymsOf(s)) offer(syn, o.synonymWeight);
    }
    if (!vocab.has(s)) {
      if (o.fuzzy && word.length >= o.fuzzyMinLength) {
        for (const w of s === word ? [s] : [s, word]) {
          for (const [t, distance] of vocab.fuzzy(w)) offer(t, distance === 1 ? o.fuzzyWeight : o.fuzzyWeight * 0.7);
        }
        // A typo can hide a synonym: "remvoe" -> "remov" -> "delet".
        if (o.synonyms) {
          for (const [t, w] of [...alternatives]) {
            if (t === s) continue;
            for (const syn of synonymsOf(t)) offer(syn, w * o.synonymWeight);
          }
        }
      }
      if (o.prefix && word.length >= 3) {
        for (const t of vocab.completions(word, o.maxCompletions)) offer(t, o.prefixWeight);
      }
    }
    out.push({ word, alternatives });
  }
  return out;
}
