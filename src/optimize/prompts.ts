// Owns building golden prompts from a labelled query set (the offline path; model backends generate them
// otherwise): positives are the queries labelled with the tool (direct when they name a word of the tool's name,
// else indirect), negatives are queries of the tool's nearest siblings by search similarity (the confusers a
// model really meets); a deterministic share of each category is held out.
import { SearchEngine } from '../search/engine.js';
import { hashUnit } from '../search/bench.js';
import { STOP_WORDS, splitWords, stem } from '../search/tokenize.js';
import type { PromptCategory } from '../store/index.js';
import { toolId, type EvalTool } from './backends/backend.js';
import type { EvalPrompt } from './evaluate.js';

export interface LabelledQuery {
  id: string;
  query: string;
  /** toolIds that answer the query. */
  tools: readonly string[];
}

export interface PromptOptions {
  /** At most this many prompts per category and tool (default 20). */
  perCategory: number;
  /** Share of each category held out (default 1/3, at least one prompt once a category has 3). */
  holdoutShare: number;
  /** Nearest sibling tools whose queries become negatives (default 3). */
  siblings: number;
}

export const DEFAULT_PROMPT_OPTIONS: PromptOptions = { perCategory: 20, holdoutShare: 1 / 3, siblings: 3 };

/** The nearest other tools of each tool: the top hits when its own name and description are the query. */
export function nearestSiblings(catalog: readonly EvalTool[], count: number): Map<string, string[]> {
  const engine = new SearchEngine();
  engine.sync(catalog.map((t) => ({ key: toolId(t), server: t.server ?? '', name: t.name, description: t.description, inputSchema: t.inputSchema })));
  return new Map(
    catalog.map((t) => {
      const id = toolId(t);
      const hits = engine.lexical.search(`${t.name.replace(/[_-]+/g, ' ')} ${t.description ?? ''}`.slice(0, 500), { limit: count + 1 });
      return [id, hits.map((h) => h.key).filter((k) => k !== id).slice(0, count)];
    }),
  );
}

export function promptsFromQueries(queries: readonly LabelledQuery[], catalog: readonly EvalTool[], partial: Partial<PromptOptions> = {}): EvalPrompt[] {
  const o = { ...DEFAULT_PROMPT_OPTIONS, ...partial };
  const byTool = new Map<string, LabelledQuery[]>();
  for (const q of queries) for (const t of new Set(q.tools)) byTool.set(t, [...(byTool.get(t) ?? []), q]);
  const siblings = nearestSiblings(catalog.filter((t) => byTool.has(toolId(t))), o.siblings);
  const out: EvalPrompt[] = [];
  for (const tool of catalog) {
    const id = toolId(tool);
    const mine = byTool.get(id);
    if (!mine) continue;
    const nameStems = new Set(splitWords(tool.name).filter((w) => !STOP_WORDS.has(w)).map(stem));
    const named = (q: LabelledQuery) => splitWords(q.query).some((w) => nameStems.has(stem(w)));
    const groups: Record<PromptCategory, LabelledQuery[]> = {
      direct: mine.filter(named),
      indirect: mine.filter((q) => !named(q)),
      negative: (siblings.get(id) ?? []).flatMap((s) => byTool.get(s) ?? []).filter((q) => !q.tools.includes(id)),
    };
    for (const category of ['direct', 'indirect', 'negative'] as const) {
      const unique = [...new Map(groups[category].map((q) => [q.id, q])).values()];
      const chosen = unique.sort((a, b) => hashUnit(`${id}:${a.id}`) - hashUnit(`${id}:${b.id}`)).slice(0, o.perCategory);
      const held = chosen.length >= 3 ? Math.max(1, Math.round(chosen.length * o.holdoutShare)) : 0;
      chosen.forEach((q, i) =>
        out.push({
          id: `${id}#${category}#${q.id}`,
          tool: id,
          category,
          prompt: q.query,
          expectedBehavior: { shouldCallTool: category !== 'negative' },
          split: i < held ? 'holdout' : 'optimize',
        }),
      );
    }
  }
  return out;
}
