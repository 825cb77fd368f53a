// Owns abbreviations learned from the catalog itself: when one tool's own text uses a short word and
// a longer word that starts with it (`repo` and `repository`, `config` and `configuration`, `env` and
// `environment`), the two stand in for each other in queries. Nothing is curated: the pairs come
// from the indexed tools and go with them (reference-counted per tool). Compounds are not pairs.
import { STOP_WORDS, stem } from './tokenize.js';

const MIN_SHORT = 3;
const MAX_SHORT = 6;
const MIN_EXTRA = 3; // the long form has at least this many more letters

export class AbbreviationTable {
  // stem -> related stem -> number of tools that showed the pair
  private readonly related = new Map<string, Map<string, number>>();
  private readonly byTool = new Map<string, Array<[string, string]>>();
  version = 0;

  /**
   * Learns the pairs in one tool's words (replacing what this tool taught before). `known` says whether
   * a word is in the catalog: a long form whose rest is itself a word is a compound (`leaderboard`,
   * `timezone`, `website`), not an expansion of its first part.
   */
  add(key: string, words: Iterable<string>, known: (word: string) => boolean = () => false): void {
    this.remove(key);
    const distinct = [...new Set(words)].filter((w) => /^[a-z]+$/.test(w) && !STOP_WORDS.has(w));
    const shorts = distinct.filter((w) => w.length >= MIN_SHORT && w.length <= MAX_SHORT);
    const pairs: Array<[string, string]> = [];
    for (const s of shorts) {
      const ss = stem(s);
      for (const l of distinct) {
        if (l.length < s.length + MIN_EXTRA || !l.startsWith(s)) continue;
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

  private bump(a: string, b: string, by: number): void {
    let m = this.related.get(a);
    if (!m) this.related.set(a, (m = new Map()));
    const n = (m.get(b) ?? 0) + by;
    if (n > 0) m.set(b, n);
    else m.delete(b);
    if (m.size === 0) this.related.delete(a);
  }
}
