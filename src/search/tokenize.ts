// Owns text normalisation for tool search: splitting identifiers and prose into words (separators,
// camelCase, letter/digit boundaries), stop words, and Porter stemming (cached). Index and queries
// go through the same functions so their terms meet. Text is split by one scan over its characters
// (classes of non-ASCII characters looked up once and remembered); astral characters fall back to
// Unicode-aware expressions with the same rules.
import { stemmer } from 'stemmer';
import { LEMMAS } from './lemmas.js';

const OTHER = 0;
const LOWER = 1; // lower-case and caseless letters
const UPPER = 2;
const DIGIT = 3;
const IDEOGRAPH = 4; // scripts written without spaces (CJK): each character is its own word

// Class of every BMP code point, filled on first sight (ASCII up front).
const kinds = new Uint8Array(65536).fill(255);
for (let c = 0; c < 128; c++) {
  kinds[c] = c >= 97 && c <= 122 ? LOWER : c >= 65 && c <= 90 ? UPPER : c >= 48 && c <= 57 ? DIGIT : OTHER;
}
const IS_IDEOGRAPH = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

function kindOf(c: number): number {
  let k = kinds[c]!;
  if (k === 255) {
    const ch = String.fromCharCode(c);
    k = IS_IDEOGRAPH.test(ch) ? IDEOGRAPH : /\p{Lu}|\p{Lt}/u.test(ch) ? UPPER : /\p{L}/u.test(ch) ? LOWER : /\p{N}/u.test(ch) ? DIGIT : OTHER;
    kinds[c] = k;
  }
  return k;
}

// Astral code points (surrogate pairs) and characters whose lower case has another length go
// through the slower expression-based splitter.
const NEEDS_SLOW_PATH = /[\ud800-\udfff\u0130\u1e9e\u2126\u212a\u212b]/;

/**
 * Calls `emit` with each lower-cased word of `text`: runs of letters and digits, cut at camelCase
 * (`getFile` -> get file), before the last capital of an acronym (`HTTPResponse` -> http response)
 * and between letters and digits (`mp3` -> mp 3). One pass over the characters.
 */
function scanFast(text: string, lower: string, emit: (word: string) => void): void {
  const n = text.length;
  let start = -1;
  let prev = OTHER;
  let prev2 = OTHER;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    const k = c < 128 ? kinds[c]! : kindOf(c);
    if (k === OTHER || k === IDEOGRAPH) {
      if (start >= 0) emit(lower.slice(start, i));
      start = -1;
      prev = prev2 = OTHER;
      if (k === IDEOGRAPH) emit(lower[i]!);
      continue;
    }
    if (start < 0) {
      start = i;
    } else if ((k === UPPER && prev === LOWER) || (k === DIGIT) !== (prev === DIGIT)) {
      emit(lower.slice(start, i));
      start = i;
    } else if (k === LOWER && prev === UPPER && prev2 === UPPER && i - 1 > start) {
      emit(lower.slice(start, i - 1)); // "HTTPResponse": cut before the R
      start = i - 1;
    }
    prev2 = prev;
    prev = k;
  }
  if (start >= 0) emit(lower.slice(start));
}

function scanSlow(text: string, emit: (word: string) => void): void {
  const spaced = text
    .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1 $2')
    .replace(/(\p{Lu}+)(\p{Lu}\p{Ll})/gu, '$1 $2')
    .replace(/(\p{L})(?=\p{N})|(\p{N})(?=\p{L})/gu, '$1$2 ');
  for (const word of spaced.toLowerCase().split(/[^\p{L}\p{N}]+/u)) {
    if (!word) continue;
    if (IS_IDEOGRAPH.test(word)) {
      for (const ch of word) emit(ch);
    } else {
      emit(word);
    }
  }
}

/** Calls `emit` with each lower-cased word of `text` (see splitWords). */
export function scanWords(text: string, emit: (word: string) => void): void {
  const lower = text.toLowerCase();
  if (lower.length !== text.length || NEEDS_SLOW_PATH.test(text)) scanSlow(text, emit);
  else scanFast(text, lower, emit);
}

/**
 * Words of `text`, lower-cased: split on anything that is not a letter or digit, on camelCase and
 * acronym boundaries (`getHTTPResponse` -> get http response) and between letters and digits.
 */
export function splitWords(text: string): string[] {
  const out: string[] = [];
  scanWords(text, (w) => out.push(w));
  return out;
}

/** English function words plus request filler ("please", "can", "want") that never names a tool. */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a an the and or but if then else of to in on at by for with from into onto over under about as is are was were be been ' +
    'being am do does did doing done have has had having i me my mine we us our you your yours he him his she her it its ' +
    'they them their this that these those there here what which who whom whose when where why how all any both each few ' +
    'more most other some such no nor not only own same so than too very can could will would shall should may might must ' +
    'just also please want wants wanted need needs like let lets help me up out via using use used within without per ' +
    'e g eg ie etc s t one want something anything thing things way able tell give know'
  ).split(/\s+/),
);

const CACHE_LIMIT = 200_000;
const stemCache = new Map<string, string>();

/** Porter stem of one lower-case word (cached; digits and single characters pass through). */
export function stem(word: string): string {
  let s = stemCache.get(word);
  if (s === undefined) {
    s = word.length <= 2 || !/^[a-z]+$/.test(word) ? word : stemmer(LEMMAS.get(word) ?? word);
    if (stemCache.size > CACHE_LIMIT) stemCache.clear();
    stemCache.set(word, s);
  }
  return s;
}

/** An index term with a small integer id (stable for the process), for array-indexed bookkeeping. */
export interface Term {
  readonly text: string;
  readonly id: number;
}

// Term text -> Term: permanent, grows with the distinct terms ever indexed (tens of thousands).
const interned = new Map<string, Term>();
// Word -> its Term, or null for a stop word: one lookup per word on the indexing hot path. Capped.
const wordTerms = new Map<string, Term | null>();

/** The interned Term of a term text. */
export function intern(text: string): Term {
  let t = interned.get(text);
  if (t === undefined) interned.set(text, (t = { text, id: interned.size }));
  return t;
}

/** Number of Terms interned so far (ids are below it). */
export function internedCount(): number {
  return interned.size;
}

/** The Term of one word: its interned stem, or null when it is a stop word. */
export function termOf(word: string): Term | null {
  let t = wordTerms.get(word);
  if (t === undefined) {
    t = STOP_WORDS.has(word) ? null : intern(stem(word));
    if (wordTerms.size > CACHE_LIMIT) wordTerms.clear();
    wordTerms.set(word, t);
  }
  return t;
}

/** Calls `emit` with each index Term of `text` (stop words dropped, stemmed), in order. */
export function scanTerms(text: string, emit: (term: Term) => void): void {
  scanWords(text, (w) => {
    const t = termOf(w);
    if (t !== null) emit(t);
  });
}

/** Index/query terms of `text`: split, stop words dropped, stemmed. */
export function terms(text: string, keepStopWords = false): string[] {
  const out: string[] = [];
  if (keepStopWords) scanWords(text, (w) => out.push(stem(w)));
  else scanTerms(text, (t) => out.push(t.text));
  return out;
}
