// Owns self-healing suggestions: when a tool call fails, the tools most like it (searched with the
// failing tool's name and description), never the failing tool itself and never a tool whose server
// is down, ranked by similarity × success rate. Similarity is the search score relative to the score
// the failing tool gets for the same query (1 = as good a match as the tool itself); the success rate
// comes from the metrics store when the tool has recorded calls, else 1.
import type { MetaSnapshot, MetaTool } from './meta-index.js';

export const DEFAULT_MAX_FALLBACKS = 3;

export interface FallbackSuggestion {
  toolKey: string;
  server: string;
  similarity: number;
  success_rate: number;
  reason: string;
}

export interface FallbackOptions {
  max: number;
  /** Whether a server cannot take calls now. */
  isDown(server: string): boolean;
  /** Recorded success rate of a tool (0..1), undefined when it has no calls. */
  successRate(server: string, tool: string): number | undefined;
}

const round = (n: number) => Math.round(n * 1000) / 1000;

export function fallbackSuggestions(snapshot: MetaSnapshot, failing: MetaTool, options: FallbackOptions): FallbackSuggestion[] {
  if (options.max <= 0) return [];
  const words = `${failing.originalName.replace(/[_\-.]+/g, ' ')} ${failing.description.slice(0, 300)}`;
  const hits = snapshot.search(words, { limit: Math.min(snapshot.size, options.max * 8 + 1) });
  const self = hits.find((h) => h.tool.key === failing.key)?.score ?? hits[0]?.score ?? 1;
  const downCache = new Map<string, boolean>();
  const down = (server: string) => {
    if (!downCache.has(server)) downCache.set(server, options.isDown(server));
    return downCache.get(server)!;
  };
  return hits
    .filter((h) => h.tool.key !== failing.key && !down(h.tool.server))
    .map((h) => {
      const similarity = Math.min(1, h.score / self);
      const recorded = options.successRate(h.tool.server, h.tool.originalName);
      const successRate = recorded ?? 1;
      const where = h.tool.server === failing.server ? `also on ${failing.server}` : `on server ${h.tool.server}`;
      const rate = recorded === undefined ? 'no calls recorded yet' : `${Math.round(recorded * 100)}% of recorded calls succeeded`;
      return { toolKey: h.tool.key, server: h.tool.server, similarity: round(similarity), success_rate: round(successRate), reason: `similar to ${failing.key} (${where}); ${rate}`, rank: similarity * successRate };
    })
    .filter((s) => s.rank > 0)
    .sort((a, b) => b.rank - a.rank)
    .slice(0, options.max)
    .map(({ rank: _rank, ...suggestion }) => suggestion);
}
