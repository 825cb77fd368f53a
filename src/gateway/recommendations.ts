// Owns ranking tools for the gateway's self-healing and recommendations: fallback suggestions for
// a failing tool and recommend_tools for a task, both weighing search similarity by the success
// rates recorded (read from the call recorder's in-memory table: no SQL on a failed call's path)
// and leaving out servers that are down.
import type { Catalog } from '../catalog/catalog.js';
import { fallbackSuggestions, type FallbackSuggestion } from '../views/fallbacks.js';
import type { SearchMode } from '../search/engine.js';
import { snapshotOf, type MetaTool } from '../views/meta-index.js';
import type { Gateway } from './gateway.js';

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

/** Similar tools for a failing one (its exposed name): never itself, never one of a server that is down. */
export function fallbacksFor(gateway: Gateway, catalog: Catalog, exposed: string, max: number): FallbackSuggestion[] {
  if (max <= 0) return [];
  const snapshot = snapshotOf(catalog, gateway.search.context);
  const failing = snapshot.byKey.get(exposed);
  if (!failing) return [];
  const stats = gateway.calls.stats;
  return fallbackSuggestions(snapshot, failing, {
    max,
    isDown: (server) => isDown(gateway, catalog, server),
    successRate: (server, tool) => stats.get(server, tool)?.successRate ?? undefined,
  });
}

/** Tools for a task: search relevance (0..1) × (0.5 + 0.5 × recorded success rate), servers that are down left out. */
export function recommend(gateway: Gateway, catalog: Catalog, task: string, topK: number): Recommendation[] {
  const snapshot = snapshotOf(catalog, gateway.search.context);
  const hits = snapshot.search(task, { limit: Math.min(snapshot.size, topK * 4) }).filter((h) => !isDown(gateway, catalog, h.tool.server));
  const best = hits[0]?.score ?? 1;
  const stats = gateway.calls.stats;
  return hits
    .map((h) => {
      const rate = stats.get(h.tool.server, h.tool.originalName)?.successRate ?? undefined;
      const relevance = h.score / best;
      return { toolKey: h.tool.key, server: h.tool.server, tool: h.tool.originalName, relevance: round(relevance), success_rate: rate ?? null, score: round(relevance * (0.5 + 0.5 * (rate ?? 1))), description: h.tool.description.slice(0, 150) };
    })
    .sort((a, b) => b.score - a.score)
    .slice(0, topK);
}

function isDown(gateway: Gateway, catalog: Catalog, server: string): boolean {
  const state = gateway.pool.connection(server, catalog.profile)?.state;
  return !gateway.pool.has(server) || state === 'failed' || state === 'circuit-open' || Boolean(catalog.listing(server).error);
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
export async function searchTools(gateway: Gateway, catalog: Catalog, query: string, options: SearchToolsOptions): Promise<SearchAnswer> {
  const snapshot = snapshotOf(catalog, gateway.search.context);
  const search = gateway.search;
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
