// Owns abbreviations learned from the catalog itself: when one tool's own text uses a short word and
// a longer word that starts with it (`repo` and `repository`, `config` and `configuration`, `env` and
// `environment`), the two stand in for each other in queries. Nothing is curated: the pairs come
// from the indexed tools and go with them (reference-counted per tool). Compounds are not pairs.
// Optionally also contractions (`msg`/`message`, `cfg`/`config`, `db`/`database`: the short word's
// letters in order inside a longer word with the same first letter, in one tool's text) and
// numeronyms (`k8s` for `kubernetes`: first letter, count of the letters between, last letter) of
// the catalog's own long words.
import { STOP_WORDS, stem } from './tokenize.js';

const MIN_SHORT = 3;
const MAX_SHORT = 6;
const MIN_EXTRA = 3; // the long form has at least this many more letters
const MIN_CONTRACTION = 2;
const MIN_NUMERONYM_GAP = 4; // k8s, a11y, i18n; not b2b or p2p

export interface AbbreviationOptions {
  /** Also learn contractions (letters in order, same first letter), not only prefixes. */
  contractions: boolean;
  /** Also remember each long word under its numeronym. */
  numeronyms: boolean;
}

/** Whether `short` is `long` with letters left out (same first letter, the rest in order). */
function isContraction(short: string, long: string): boolean {
  if (short[0] !== long[0]) return false;
  let j = 1;
  for (let i = 1; i < short.length; i++) {
    j = long.indexOf(short[i]!, j) + 1;
    if (j === 0) return false;
  }
  return true;
}

/** The numeronym of a word (`kubernetes` -> `k8s`), or undefined for short words. */
export function numeronymOf(word: string): string | undefined {
  return word.length - 2 >= MIN_NUMERONYM_GAP ? `${word[0]}${word.length - 2}${word[word.length - 1]}` : undefined;
}

const NUMERONYM = /(?<![\p{L}\p{N}])(\p{L})(\d{1,2})(\p{L})(?![\p{L}\p{N}])/gu;

/** The numeronyms written in a text (lower-cased), e.g. `k8s` in "deploy to k8s". */
export function numeronymsIn(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(NUMERONYM)) if (Number(m[2]) >= MIN_NUMERONYM_GAP) out.push(m[0].toLowerCase());
  return out;
}

export class AbbreviationTable {
  // stem -> related stem -> number of tools that showed the pair
  private readonly related = new Map<string, Map<string, number>>();
  private readonly byTool = new Map<string, Array<[string, string]>>();
  // numeronym -> stem of the long word -> number of tools using that word
  private readonly numeronyms = new Map<string, Map<string, number>>();
  private readonly numeronymsByTool = new Map<string, Array<[string, string]>>();
  version = 0;

  constructor(private readonly options: AbbreviationOptions = { contractions: false, numeronyms: false }) {}

  /**
   * Learns the pairs in one tool's words (replacing what this tool taught before). `known` says whether
   * a word is in the catalog: a long form whose rest is itself a word is a compound (`leaderboard`,
   * `timezone`, `website`), not an expansion of its first part.
   */
  add(key: string, words: Iterable<string>, known: (word: string) => boolean = () => false): void {
    this.remove(key);
    const distinct = [...new Set(words)].filter((w) => /^[a-z]+$/.test(w) && !STOP_WORDS.has(w));
    if (this.options.numeronyms) this.learnNumeronyms(key, distinct);
    const minShort = this.options.contractions ? MIN_CONTRACTION : MIN_SHORT;
    const shorts = distinct.filter((w) => w.length >= minShort && w.length <= MAX_SHORT);
    const pairs: Array<[string, string]> = [];
    for (const s of shorts) {
      const ss = stem(s);
      for (const l of distinct) {
        if (l.length < s.length + MIN_EXTRA) continue;
        if (!(s.length >= MIN_SHORT && l.startsWith(s)) && !(this.options.contractions && isContraction(s, l))) continue;
        const rest = l.slice(s.length);
        if (rest.length >= 3 && (known(rest) || known(stem(rest)))) continue;
        const ls = stem(l);
        if (ls === ss || ls.startsWith(ss + ss.slice(-1))) continue; // inflections, not abbreviations
        pairs.push([ss, ls]);
      }
    }
    if (pairs.length === 0) return;
    for (const [a, b] of pairs) {
      this.bump(a, b, 1);
      this.bump(b, a, 1);
    }
    this.byTool.set(key, pairs);
    this.version++;
  }

  remove(key: string): void {
    this.forgetNumeronyms(key);
    const pairs = this.byTool.get(key);
    if (!pairs) return;
    for (const [a, b] of pairs) {
      this.bump(a, b, -1);
      this.bump(b, a, -1);
    }
    this.byTool.delete(key);
    this.version++;
  }

  /** Stems that the catalog uses as an abbreviation or expansion of `termStem`. */
  relatedTo(termStem: string): readonly string[] {
    const m = this.related.get(termStem);
    return m ? [...m.keys()] : [];
  }

  /** Stems of the catalog's words that `numeronym` (lower-case, e.g. `k8s`) stands for. */
  expandNumeronym(numeronym: string): readonly string[] {
    const m = this.numeronyms.get(numeronym);
    return m ? [...m.keys()] : [];
  }

  private learnNumeronyms(key: string, words: readonly string[]): void {
    const entries: Array<[string, string]> = [];
    for (const w of words) {
      const n = numeronymOf(w);
      if (n) entries.push([n, stem(w)]);
    }
    if (entries.length === 0) return;
    for (const [n, s] of entries) this.bump(n, s, 1, this.numeronyms);
    this.numeronymsByTool.set(key, entries);
    this.version++;
  }

  private forgetNumeronyms(key: string): void {
    const entries = this.numeronymsByTool.get(key);
    if (!entries) return;
    for (const [n, s] of entries) this.bump(n, s, -1, this.numeronyms);
    this.numeronymsByTool.delete(key);
    this.version++;
  }

  private bump(a: string, b: string, by: number, table = this.related): void {
    let m = table.get(a);
    if (!m) table.set(a, (m = new Map()));
    const n = (m.get(b) ?? 0) + by;
    if (n > 0) m.set(b, n);
    else m.delete(b);
    if (m.size === 0) table.delete(a);
  }
}
