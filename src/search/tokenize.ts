// Owns text normalisation for tool search: splitting identifiers and prose into words (separators,
// camelCase, letter/digit boundaries), stop words, and Porter stemming (cached). Index and queries
// go through the same functions so their terms meet.
import { stemmer } from 'stemmer';

/**
 * Words of `text`, lower-cased: split on anything that is not a letter or digit, on camelCase and
 * acronym boundaries (`getHTTPResponse` -> get http response) and between letters and digits.
 */
export function splitWords(text: string): string[] {
  if (!/[^\x00-\x7f]/.test(text)) {
    // ASCII fast path (most tool text): same rules with cheaper expressions.
    return text
      .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
      .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
      .replace(/([a-zA-Z])([0-9])|([0-9])([a-zA-Z])/g, (_m, a, b, c, d) => (a ? `${a} ${b}` : `${c} ${d}`))
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter(Boolean);
  }
  const spaced = text
    .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1 $2')
    .replace(/(\p{Lu}+)(\p{Lu}\p{Ll})/gu, '$1 $2')
    .replace(/(\p{L})(\p{N})|(\p{N})(\p{L})/gu, (_m, a, b, c, d) => (a ? `${a} ${b}` : `${c} ${d}`));
  const out: string[] = [];
  for (const word of spaced.toLowerCase().split(/[^\p{L}\p{N}]+/u)) {
    if (!word) continue;
    // Scripts without spaces (CJK): index each character so such text still matches something.
    if (/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u.test(word)) {
      for (const ch of word) out.push(ch);
    } else {
      out.push(word);
    }
  }
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

const stemCache = new Map<string, string>();

/** Porter stem of one lower-case word (cached; digits and single characters pass through). */
export function stem(word: string): string {
  let s = stemCache.get(word);
  if (s === undefined) {
    s = word.length <= 2 || !/^[a-z]+$/.test(word) ? word : stemmer(word);
    if (stemCache.size > 200_000) stemCache.clear();
    stemCache.set(word, s);
  }
  return s;
}

/** Index/query terms of `text`: split, stop words dropped, stemmed. */
export function terms(text: string, keepStopWords = false): string[] {
  const out: string[] = [];
  for (const w of splitWords(text)) {
    if (!keepStopWords && STOP_WORDS.has(w)) continue;
    out.push(stem(w));
  }
  return out;
}
