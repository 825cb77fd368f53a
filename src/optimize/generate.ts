// Owns the offline generators: candidate descriptions that add the task words a tool's optimize-split golden
// prompts use and its description lacks (no model needed), and the light paraphrase used for the null-control
// and for scoring each candidate after paraphrase. Deterministic: the same inputs give the same texts.
import { STOP_WORDS, splitWords, stem } from '../search/tokenize.js';
import { MAX_DESCRIPTION_CHARS } from './lint.js';

export interface OfflineCandidate {
  description: string;
  source: string;
}

/**
 * Up to `count` candidates for a tool: its description followed by "Use for: w1, w2, ..." with the 3, 5, 8, 12
 * (and so on) most frequent content words of the prompts (stems counted once per prompt, each stem represented by
 * its most common surface form) that the description, the tool name and the parameter names do not already
 * contain. A description too long to take the words is cut at a sentence boundary first; candidates stay within
 * 280 characters.
 */
export function offlineCandidates(tool: { name: string; description?: string; inputSchema?: unknown }, prompts: readonly string[], count: number): OfflineCandidate[] {
  const known = new Set([...splitWords(`${tool.name} ${tool.description ?? ''} ${paramNames(tool.inputSchema).join(' ')}`)].map(stem));
  const df = new Map<string, { n: number; forms: Map<string, number> }>();
  for (const prompt of prompts) {
    const seen = new Set<string>();
    for (const word of splitWords(prompt)) {
      if (word.length < 3 || STOP_WORDS.has(word) || /^\d+$/.test(word)) continue;
      const s = stem(word);
      if (known.has(s)) continue;
      const entry = df.get(s) ?? { n: 0, forms: new Map() };
      entry.forms.set(word, (entry.forms.get(word) ?? 0) + 1);
      if (!seen.has(s)) entry.n++;
      seen.add(s);
      df.set(s, entry);
    }
  }
  // Words used by at least two prompts (one prompt's words are its own, not the task's), most frequent first.
  const ranked = [...df.entries()]
    .filter(([, e]) => e.n >= Math.min(2, prompts.length))
    .sort((a, b) => b[1].n - a[1].n || a[0].localeCompare(b[0]))
    .map(([, e]) => [...e.forms.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0][0]);
  const sizes = [3, 5, 8, 12, 16, 20].slice(0, count);
  const out: OfflineCandidate[] = [];
  for (const size of sizes) {
    const words = ranked.slice(0, size);
    if (words.length === 0 || (out.length && words.length === ranked.slice(0, sizes[out.length - 1]).length && size > ranked.length)) break;
    const suffix = ` Use for: ${words.join(', ')}.`;
    const base = fit((tool.description ?? '').trim(), MAX_DESCRIPTION_CHARS - suffix.length);
    if (base === undefined) continue;
    const description = `${base}${suffix}`.trim();
    if (!out.some((c) => c.description === description)) out.push({ description, source: `offline:task-words:${words.length}` });
  }
  return out;
}

function paramNames(schema: unknown): string[] {
  const props = (schema as { properties?: Record<string, unknown> } | undefined)?.properties;
  return props && typeof props === 'object' ? Object.keys(props) : [];
}

/** The text cut at the last sentence end that fits in `max` characters (whole text when it fits). */
function fit(text: string, max: number): string | undefined {
  if (max <= 0) return undefined;
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  const end = Math.max(cut.lastIndexOf('. '), cut.lastIndexOf('.\n'));
  if (end > 20) return cut.slice(0, end + 1);
  const space = cut.lastIndexOf(' ');
  return space > 20 ? `${cut.slice(0, space)}.` : undefined;
}

/** Word-level rewrites that keep the meaning: verbs, connectives, and common nouns of tool descriptions. */
const REWRITES: ReadonlyArray<[string, string]> = [
  ['returns', 'gives back'], ['return', 'give back'], ['retrieves', 'fetches'], ['retrieve', 'fetch'], ['gets', 'obtains'], ['get', 'obtain'],
  ['creates', 'makes'], ['create', 'make'], ['lists', 'enumerates'], ['list', 'enumerate'], ['searches', 'looks through'], ['search', 'look through'],
  ['finds', 'locates'], ['find', 'locate'], ['deletes', 'removes'], ['delete', 'remove'], ['updates', 'modifies'], ['update', 'modify'],
  ['shows', 'displays'], ['show', 'display'], ['provides', 'offers'], ['provide', 'offer'], ['allows', 'lets'], ['helps', 'assists'],
  ['information', 'details'], ['info', 'details'], ['data', 'records'], ['using', 'with'], ['use', 'employ'], ['specified', 'given'],
  ['specific', 'particular'], ['multiple', 'several'], ['various', 'different'], ['also', 'as well'], ['quickly', 'fast'], ['easily', 'simply'],
  ['current', 'present'], ['latest', 'newest'], ['large', 'big'], ['small', 'little'], ['file', 'document'], ['files', 'documents'],
  ['and', '&'], ['with', 'along with'], ['for', 'to handle'], ['about', 'regarding'], ['into', 'to'], ['from', 'out of'],
];
const REWRITE = new Map(REWRITES);

/**
 * A light paraphrase that adds no information: common words swapped for near-synonyms, the items of a
 * "Use for:" list (or any comma list) in reverse order, and the sentences rotated (the last one first).
 */
export function paraphrase(text: string): string {
  const sentences = text.split(/(?<=[.!?])\s+/).filter(Boolean);
  const rotated = sentences.length > 1 ? [sentences[sentences.length - 1], ...sentences.slice(0, -1)] : sentences;
  return rotated
    .map((sentence) => {
      const list = /^(.*?:\s*)([^:]+?)([.!?]?)$/.exec(sentence);
      const body = list && list[2].includes(',') ? `${list[1]}${list[2].split(/\s*,\s*/).reverse().join(', ')}${list[3]}` : sentence;
      return body.replace(/[A-Za-z]+/g, (word) => {
        const swap = REWRITE.get(word.toLowerCase());
        if (!swap) return word;
        return word[0] === word[0].toUpperCase() ? swap[0].toUpperCase() + swap.slice(1) : swap;
      });
    })
    .join(' ');
}
