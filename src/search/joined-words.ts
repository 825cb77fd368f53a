// Owns splitting names written as one lower-case run ("airqualityforecast", "exportchat",
// "fundsdbsearch") into the words the same tool's own text uses ("air", "quality", "export", "chat"),
// so a request in plain words reaches the name. Nothing is curated: the dictionary is the tool's own
// description, title and parameter names. camelCase and snake_case names are split by tokenize.ts
// already; this is for the names that give no boundary at all.
import { splitWords } from './tokenize.js';

const MIN_JOINED = 7; // shorter runs are usually one word
const MIN_PART = 3;
const MIN_COVERED = 0.5; // share of the run's letters the parts must cover

/**
 * The parts of each joined run in `name` found in `ownText` (words of 3+ letters), in order. A run
 * that is itself a word of `ownText`, or whose parts cover less than half its letters, gives none.
 */
export function joinedNameParts(name: string, ownText: string): string[] {
  const dictionary = new Set(splitWords(ownText).filter((w) => w.length >= MIN_PART && /^[a-z]+$/.test(w)));
  if (dictionary.size === 0) return [];
  const out: string[] = [];
  for (const run of splitWords(name)) {
    if (run.length < MIN_JOINED || !/^[a-z]+$/.test(run) || dictionary.has(run)) continue;
    out.push(...segment(run, dictionary));
  }
  return out;
}

/** The dictionary words covering the most letters of `run` (gaps allowed), or [] when under MIN_COVERED. */
function segment(run: string, dictionary: ReadonlySet<string>): string[] {
  const n = run.length;
  // best[i]: most letters of run[0..i) covered; from[i]: the word ending at i on that path ('' = a gap).
  const best = new Array<number>(n + 1).fill(0);
  const from = new Array<string>(n + 1).fill('');
  for (let i = 1; i <= n; i++) {
    best[i] = best[i - 1]!;
    from[i] = '';
    for (let start = 0; start <= i - MIN_PART; start++) {
      const word = run.slice(start, i);
      if (!dictionary.has(word)) continue;
      const covered = best[start]! + word.length;
      if (covered > best[i]!) {
        best[i] = covered;
        from[i] = word;
      }
    }
  }
  if (best[n]! < MIN_COVERED * n) return [];
  const parts: string[] = [];
  for (let i = n; i > 0; ) {
    const word = from[i]!;
    if (word) {
      parts.push(word);
      i -= word.length;
    } else {
      i--;
    }
  }
  return parts.reverse();
}
