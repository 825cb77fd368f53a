// Owns the MiniSearch side of the ADR 0003 A/B (benchmark only): the same tools indexed by MiniSearch 7
// with the same fields and field weights as ToolIndex. Two set-ups: `minisearch-default` (its own
// tokenizer, lower-casing, OR, no prefix or fuzzy matching: the library's defaults) and `minisearch` (our
// tokenizer, stop words and stems, our synonyms through 7.1's per-term boosts at our synonym weight).
// `minisearch` is a devDependency: it is imported only when the benchmark asks for it.
import { fieldTexts, FIELDS, type Field, type ToolDoc } from './document.js';
import { DEFAULT_INDEX_OPTIONS } from './index.js';
import { DEFAULT_QUERY_OPTIONS, queryWords } from './query.js';
import { synonymsOf } from './synonyms.js';
import { percentile } from './metrics.js';
import { replicate } from './speed.js';
import { splitWords, stem, termOf } from './tokenize.js';

export type MiniSearchVariant = 'minisearch' | 'minisearch-default';

export interface MiniRanker {
  search(query: string, limit: number): string[];
}

const INDEXED: readonly Field[] = ['name', 'server', 'description', 'params', 'enums', 'serverInfo'];

/** Builds a MiniSearch index over `tools`; the returned ranker answers with tool keys, best first. */
export async function buildMiniSearch(tools: readonly ToolDoc[], variant: MiniSearchVariant): Promise<MiniRanker> {
  let mod: typeof import('minisearch');
  try {
    mod = await import('minisearch');
  } catch {
    throw new Error('the MiniSearch A/B needs the devDependency minisearch@^7 (run npm install in the repository)');
  }
  const MiniSearch = mod.default;
  const ours = variant === 'minisearch';
  const boost: Record<string, number> = {};
  for (const f of INDEXED) boost[f] = DEFAULT_INDEX_OPTIONS.weights[f];
  const ms = new MiniSearch<Record<string, string>>({
    fields: [...INDEXED],
    idField: 'id',
    ...(ours && {
      tokenize: (text: string) => splitWords(text),
      processTerm: (word: string) => termOf(word)?.text ?? null,
    }),
  });
  ms.addAll(
    tools.map((t) => {
      const texts = fieldTexts(t);
      const doc: Record<string, string> = { id: t.key };
      for (const f of INDEXED) doc[f] = texts[FIELDS.indexOf(f)]!;
      return doc;
    }),
  );
  if (!ours) {
    return { search: (q, limit) => ms.search(q, { boost }).slice(0, limit).map((r) => String(r.id)) };
  }
  return {
    search(q, limit) {
      // Typed words first at weight 1, then their synonyms at the synonym weight (per-term boost).
      const typed = [...new Set(queryWords(q).map(stem))];
      const extra = [...new Set(typed.flatMap((s) => synonymsOf(s)))].filter((s) => !typed.includes(s));
      const all = [...typed, ...extra];
      if (all.length === 0) return [];
      const results = ms.search(all.join(' '), {
        boost,
        tokenize: () => all,
        processTerm: (t: string) => t,
        boostTerm: (_t: string, i: number) => (i < typed.length ? 1 : DEFAULT_QUERY_OPTIONS.synonymWeight),
        prefix: (t: string) => t.length >= 3,
        fuzzy: (t: string) => (t.length >= DEFAULT_QUERY_OPTIONS.fuzzyMinLength ? 0.2 : false),
      });
      return results.slice(0, limit).map((r) => String(r.id));
    },
  };
}

/** Speed side of the A/B: build time and query latency of MiniSearch over `target` replicated tools. */
export async function speedMiniSearch(pool: readonly ToolDoc[], target: number, queries: readonly string[], variant: MiniSearchVariant): Promise<{ tools: number; indexMs: number; query: { p50: number; p99: number; count: number } }> {
  const tools = replicate(pool, target);
  await buildMiniSearch([], variant); // loads the module outside the timing
  const t0 = performance.now();
  const ranker = await buildMiniSearch(tools, variant);
  const indexMs = performance.now() - t0;
  for (const q of queries.slice(0, 50)) ranker.search(q, 10); // JIT warm-up
  const times: number[] = [];
  const rounds = Math.min(10, Math.ceil(1000 / Math.max(1, queries.length)));
  for (let round = 0; round < rounds; round++) {
    for (const q of queries) {
      const s = performance.now();
      ranker.search(q, 10);
      times.push(performance.now() - s);
    }
  }
  return { tools: tools.length, indexMs, query: { p50: percentile(times, 50), p99: percentile(times, 99), count: times.length } };
}
