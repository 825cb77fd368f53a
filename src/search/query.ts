// Owns query analysis: a query becomes a list of words, each with weighted alternative index terms
// (its stem at full weight, synonyms, and for words the index does not know, one-edit typo
// corrections and prefix completions). A document scores a word by its best alternative only, so a
// tool mentioning both "delete" and "remove" is not paid twice for the query word "rm".
// QueryAnalyzer caches each word's alternatives (bounded, dropped when the vocabulary changes), so
// a repeated word costs one lookup instead of synonym, typo and prefix expansion.
import type { Vocabulary } from './fuzzy.js';
import { numeronymsIn } from './abbreviations.js';
import { synonymsOf } from './synonyms.js';
import { STOP_WORDS, intern, splitWords, stem, type Term } from './tokenize.js';

export interface QueryOptions {
  synonymWeight: number;
  fuzzyWeight: number;
  prefixWeight: number;
  maxCompletions: number;
  fuzzyMinLength: number;
  synonyms: boolean;
  /** Also the topic groups of synonyms.ts (weather, stocks, jobs, ...), not only verbs and abbreviations. */
  domainSynonyms: boolean;
  fuzzy: boolean;
  prefix: boolean;
  /** Distinct query words kept (the rest of a very long request is ignored). */
  maxWords: number;
  /** Weight of abbreviations learned from the catalog (`repo` <-> `repository`); 0: off. */
  abbreviationWeight: number;
  /** Abbreviations also by contraction (`msg` <-> `message`), not only by prefix. */
  abbreviationContractions: boolean;
  /** Weight of a numeronym's expansions from the catalog's words (`k8s` -> `kubernetes`); 0: off. */
  numeronymWeight: number;
}

export const DEFAULT_QUERY_OPTIONS: QueryOptions = {
  synonymWeight: 0.5,
  fuzzyWeight: 0.5,
  prefixWeight: 0.5,
  maxCompletions: 8,
  fuzzyMinLength: 5,
  synonyms: true,
  domainSynonyms: true,
  fuzzy: true,
  prefix: true,
  maxWords: 64,
  abbreviationWeight: 0,
  abbreviationContractions: false,
  numeronymWeight: 0,
};

export interface QueryWord {
  word: string;
  /** Index term -> weight (0..1]. Shared with the analyzer's cache: read only. */
  alternatives: ReadonlyMap<string, number>;
}

// Runs of 48+ base64 characters whose character class (lower, upper, digit, symbol) changes more
// often than every fourth character are pasted data (images, hashes, keys), not words: splitting them
// on case and digit changes would add hundreds of junk words to the query. Paths and identifiers
// change class far less often.
const DATA_RUN = /[A-Za-z0-9+/=]{48,}/g;

function classOf(c: number): number {
  if (c >= 97 && c <= 122) return 0;
  if (c >= 65 && c <= 90) return 1;
  if (c >= 48 && c <= 57) return 2;
  return 3;
}

function dropOpaqueData(text: string): string {
  return text.replace(DATA_RUN, (run) => {
    let changes = 0;
    for (let i = 1; i < run.length; i++) if (classOf(run.charCodeAt(i)) !== classOf(run.charCodeAt(i - 1))) changes++;
    return changes * 4 > run.length ? ' ' : run;
  });
}

/** The non-stop words of a query in order (repeats kept), at most `max`. */
function nonStopWords(text: string, max: number): string[] {
  const raw = splitWords(text.length >= 48 ? dropOpaqueData(text) : text);
  return raw.filter((w) => !STOP_WORDS.has(w)).slice(0, max);
}

/** The distinct (by stem) non-stop words of a query, in order, at most `max`. */
export function queryWords(text: string, max = DEFAULT_QUERY_OPTIONS.maxWords): string[] {
  const raw = splitWords(text.length >= 48 ? dropOpaqueData(text) : text);
  let words = raw.filter((w) => !STOP_WORDS.has(w));
  if (words.length === 0) words = raw; // a query made only of stop words still searches
  const seen = new Set<string>();
  const out: string[] = [];
  for (const word of words) {
    const s = stem(word);
    if (seen.has(s)) continue;
    seen.add(s);
    out.push(word);
    if (out.length >= max) break;
  }
  return out;
}

/** Weighted index terms standing in for one query word. */
export function expandWord(word: string, vocab: Vocabulary, o: QueryOptions = DEFAULT_QUERY_OPTIONS, related?: (termStem: string) => readonly string[]): Map<string, number> {
  const s = stem(word);
  const alternatives = new Map<string, number>();
  const offer = (term: string, weight: number) => {
    if ((alternatives.get(term) ?? 0) < weight) alternatives.set(term, weight);
  };
  offer(s, 1);
  if (word !== s && vocab.has(word)) offer(word, 1); // unstemmed forms (numbers, codes, names)
  if (o.synonyms) {
    for (const syn of synonymsOf(s, o.domainSynonyms)) offer(syn, o.synonymWeight);
  }
  if (related && o.abbreviationWeight > 0) {
    for (const r of related(s)) offer(r, o.abbreviationWeight);
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
          for (const syn of synonymsOf(t, o.domainSynonyms)) offer(syn, w * o.synonymWeight);
        }
      }
    }
    if (o.prefix && word.length >= 3) {
      for (const t of vocab.completions(word, o.maxCompletions)) offer(t, o.prefixWeight);
    }
  }
  return alternatives;
}

/** The index term of two adjacent terms (a phrase): both texts joined by a space. */
export function phraseTerm(a: Term, b: Term): Term {
  return intern(`${a.text} ${b.text}`);
}

export function isPhrase(text: string): boolean {
  return text.includes(' ');
}

/** Adjacent pairs of the query's non-stop words (as stems), each once, as phrase words of weight `weight`. */
function phraseWords(words: readonly string[], weight: number): QueryWord[] {
  const out: QueryWord[] = [];
  const seen = new Set<string>();
  for (let i = 1; i < words.length; i++) {
    const a = stem(words[i - 1]!);
    const b = stem(words[i]!);
    const text = `${a} ${b}`;
    if (a === b || seen.has(text)) continue;
    seen.add(text);
    out.push({ word: text, alternatives: new Map([[text, weight]]) });
  }
  return out;
}

/** Uncached analysis (tests, one-off use). */
export function analyzeQuery(text: string, vocab: Vocabulary, o: QueryOptions = DEFAULT_QUERY_OPTIONS): QueryWord[] {
  return queryWords(text, o.maxWords).map((word) => ({ word, alternatives: expandWord(word, vocab, o) }));
}

const CACHE_SIZE = 4096;

/** Query analysis with a bounded per-word cache of alternatives, valid for one vocabulary version. */
export class QueryAnalyzer {
  private readonly cache = new Map<string, ReadonlyMap<string, number>>();
  private version = -1;

  private relatedVersion = -1;

  constructor(
    private readonly vocab: Vocabulary,
    private readonly options: QueryOptions = DEFAULT_QUERY_OPTIONS,
    private readonly phraseWeight = 0,
    private readonly abbreviations?: { version: number; relatedTo(termStem: string): readonly string[]; expandNumeronym(numeronym: string): readonly string[] },
  ) {}

  analyze(text: string): QueryWord[] {
    const relatedVersion = this.abbreviations?.version ?? 0;
    if (this.version !== this.vocab.version || this.relatedVersion !== relatedVersion) {
      this.cache.clear();
      this.version = this.vocab.version;
      this.relatedVersion = relatedVersion;
    }
    const out: QueryWord[] = [];
    for (const word of queryWords(text, this.options.maxWords)) {
      let alternatives = this.cache.get(word);
      if (alternatives === undefined) {
        alternatives = expandWord(word, this.vocab, this.options, this.abbreviations && ((t) => this.abbreviations!.relatedTo(t)));
        if (this.cache.size >= CACHE_SIZE) this.cache.delete(this.cache.keys().next().value!);
        this.cache.set(word, alternatives);
      }
      out.push({ word, alternatives });
    }
    if (this.abbreviations && this.options.numeronymWeight > 0) {
      for (const numeronym of numeronymsIn(text)) {
        const stems = this.abbreviations.expandNumeronym(numeronym);
        if (stems.length > 0) out.push({ word: numeronym, alternatives: new Map(stems.map((t) => [t, this.options.numeronymWeight])) });
      }
    }
    creditTermsOnce(out);
    if (this.phraseWeight > 0) out.push(...phraseWords(nonStopWords(text, this.options.maxWords), this.phraseWeight));
    return out;
  }
}

/**
 * An index term counts for one query word only: the word that reaches it with the highest weight
 * (the first such word on a tie). Without this, "plot it as a bar chart" pays tools that say "chart"
 * twice, once for "chart" and once for its synonym "plot".
 */
export function creditTermsOnce(words: QueryWord[]): void {
  const owner = new Map<string, { index: number; weight: number }>();
  words.forEach((w, index) => {
    for (const [term, weight] of w.alternatives) {
      const best = owner.get(term);
      if (!best || weight > best.weight) owner.set(term, { index, weight });
    }
  });
  words.forEach((w, index) => {
    let kept: Map<string, number> | undefined;
    for (const term of w.alternatives.keys()) {
      if (owner.get(term)!.index === index) continue;
      kept ??= new Map(w.alternatives);
      kept.delete(term);
    }
    if (kept) words[index] = { word: w.word, alternatives: kept };
  });
}
