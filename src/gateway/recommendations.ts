// Owns the ranking service: fallback suggestions for a failing tool, recommend_tools for a task and
// search_tools, weighing search similarity by the success rates recorded (read from the call
// recorder's in-memory table: no SQL on a failed call's path) and leaving out servers that are down.
import type { Catalog } from '../catalog/catalog.js';
import { fallbackSuggestions, type FallbackSuggestion } from '../views/fallbacks.js';
import type { SearchMode } from '../search/engine.js';
import { snapshotOf, type MetaTool } from '../views/meta-index.js';
import type { CreateMessage } from '../search/rerank/chat.js';
import type { ToolStatsView } from '../metrics/tool-stats-table.js';
import type { ServerPool } from '../servers/pool.js';
import type { ToolSearch } from './tool-search.js';

export interface Recommendation {
  toolKey: string;
  server: string;
  tool: string;
  relevance: number;
  success_rate: number | null;
  score: number;
  description: string;
}

const round = (n: number) => Math.round(n * 1000) / 1000;

export interface ToolRankingOptions {
  search: ToolSearch;
  /** Recorded success rates per tool (the call recorder's in-memory table). */
  stats: ToolStatsView;
  /** Which servers are configured, and their connections' state. */
  servers: Pick<ServerPool, 'has' | 'connection'>;
  /** At most this many fallback suggestions unless a caller asks for another number (settings.meta.maxFallbacks). */
  maxFallbacks: number;
}

/** The ranking service: search, fallbacks and recommendations over one catalog at a time. */
export class ToolRanking {
  constructor(private readonly options: ToolRankingOptions) {}

  /** Similar tools for a failing one (its exposed name): never itself, never one of a server that is down. */
  fallbacksFor(catalog: Catalog, exposed: string, max = this.options.maxFallbacks): FallbackSuggestion[] {
    if (max <= 0) return [];
    const snapshot = snapshotOf(catalog, this.options.search.context);
    const failing = snapshot.byKey.get(exposed);
    if (!failing) return [];
    const stats = this.options.stats;
    return fallbackSuggestions(snapshot, failing, {
      max,
      isDown: (server) => this.isDown(catalog, server),
      successRate: (server, tool) => stats.get(server, tool)?.successRate ?? undefined,
    });
  }

  /** Tools for a task (see recommend below). */
  recommend(catalog: Catalog, task: string, topK: number): Recommendation[] {
    return recommend(this.options, catalog, task, topK, (server) => this.isDown(catalog, server));
  }

  /** recommend_tools in `llm` mode (see recommendWithLlm below). */
  recommendWithLlm(catalog: Catalog, task: string, topK: number, createMessage?: CreateMessage): Promise<LlmRecommendations> {
    return recommendWithLlm(this.options.search, this.recommend(catalog, task, Math.max(topK, this.options.search.reranker.options.candidates)), task, topK, createMessage);
  }

  /** search_tools and POST /api/tools/search (see searchTools below). */
  searchTools(catalog: Catalog, query: string, options: SearchToolsOptions): Promise<SearchAnswer> {
    return searchTools(this.options.search, catalog, query, options);
  }

  private isDown(catalog: Catalog, server: string): boolean {
    const state = this.options.servers.connection(server, catalog.profile)?.state;
    return !this.options.servers.has(server) || state === 'failed' || state === 'circuit-open' || Boolean(catalog.listing(server).error);
  }
}

export interface LlmRecommendations {
  mode: 'llm' | 'search';
  tools: Recommendation[];
  note?: string;
  model?: string;
  cached?: boolean;
}

/** Tools for a task: search relevance (0..1) × (0.5 + 0.5 × recorded success rate), servers that are down left out. */
function recommend(options: ToolRankingOptions, catalog: Catalog, task: string, topK: number, isDown: (server: string) => boolean): Recommendation[] {
  const snapshot = snapshotOf(catalog, options.search.context);
  const hits = snapshot.search(task, { limit: Math.min(snapshot.size, topK * 4) }).filter((h) => !isDown(h.tool.server));
  const best = hits[0]?.score ?? 1;
  const stats = options.stats;
  return hits
    .map((h) => {
      const rate = stats.get(h.tool.server, h.tool.originalName)?.successRate ?? undefined;
      const relevance = h.score / best;
      return { toolKey: h.tool.key, server: h.tool.server, tool: h.tool.originalName, relevance: round(relevance), success_rate: rate ?? null, score: round(relevance * (0.5 + 0.5 * (rate ?? 1))), description: h.tool.description.slice(0, 150) };
    })
    .sort((a, b) => b.score - a.score)
    .slice(0, topK);
}

/** recommend_tools in `llm` mode: the search recommendations' top candidates (first) re-ranked by a chat model. */
async function recommendWithLlm(search: ToolSearch, first: Recommendation[], task: string, topK: number, createMessage?: CreateMessage): Promise<LlmRecommendations> {
  const model = search.chatModel(createMessage);
  if (!model) {
    const note = 'no chat model for llm mode: set search.llm.baseUrl and search.llm.model, or connect with a client that declares sampling; these are the search results';
    return { mode: 'search', tools: first.slice(0, topK), note };
  }
  const candidates = first.map((r) => ({ key: r.toolKey, server: r.server, name: r.tool, description: r.description }));
  // The candidates' content is the catalog version that matters: a changed tool asks the model again.
  const version = fingerprint(candidates.map((c) => `${c.key}\u0001${c.description}`).join('\u0000'));
  const result = await search.reranker.rerank(model, task, candidates, version);
  const byKey = new Map(first.map((r) => [r.toolKey, r]));
  const tools = result.keys.slice(0, topK).map((k) => byKey.get(k)!);
  return { mode: result.stage === 'llm' ? 'llm' : 'search', tools, model: model.label, cached: result.cached, ...(result.note !== undefined && { note: result.note }) };
}

function fingerprint(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return `${text.length}:${h.toString(16)}`;
}

export interface SearchResult {
  name: string;
  server: string;
  tool: string;
  category: string;
  score: number;
  relevance: number;
  description: string;
}

export interface SearchAnswer {
  tools: SearchResult[];
  /** The mode that produced the tools. */
  mode: SearchMode;
  /** Why the requested mode was not used (e.g. the embedding provider is down). */
  note?: string;
}

export interface SearchToolsOptions {
  topK: number;
  minScore?: number;
  server?: string;
  category?: string;
  mode?: SearchMode;
}

/** Search over a catalog's tools (exposed names), best first, with success-rate priors; relevance is the score over the best score. */
async function searchTools(search: ToolSearch, catalog: Catalog, query: string, options: SearchToolsOptions): Promise<SearchAnswer> {
  const snapshot = snapshotOf(catalog, search.context);
  const found = await snapshot.find(query, {
    limit: options.topK,
    mode: options.mode ?? search.defaultMode,
    ...(options.server !== undefined && { server: options.server }),
    ...(options.category !== undefined && { filter: (t: MetaTool) => t.category === options.category }),
    prior: (t) => search.prior(t.server, t.originalName),
  });
  const best = found.ranked[0]?.score || 1;
  const tools = found.ranked
    .filter((h) => h.score >= (options.minScore ?? 0))
    .map((h) => ({ name: h.tool.key, server: h.tool.server, tool: h.tool.originalName, category: h.tool.category, score: round(h.score), relevance: round(h.score / best), description: h.tool.description.slice(0, 150) }));
  return { tools, mode: found.mode, ...(found.degraded !== undefined && { note: found.degraded }) };
}
