// Owns searching one catalog's tools in any mode: keeps the lexical index (and the semantic index when
// an embedding provider is configured) in step with the tool list, re-indexing only tools whose
// content changed; answers lexical, semantic or hybrid (reciprocal rank fusion) queries with server
// and custom filters and a gentle per-tool prior; falls back to lexical, saying why, when semantic
// search cannot answer.
import type { ToolDoc } from './document.js';
import { reciprocalRankFusion } from './hybrid.js';
import { ToolIndex, type IndexOptions } from './index.js';
import { SemanticIndex, SemanticUnavailable } from './semantic/semantic-index.js';

export const SEARCH_MODES = ['lexical', 'semantic', 'hybrid'] as const;
export type SearchMode = (typeof SEARCH_MODES)[number];

export interface EngineHit {
  key: string;
  server: string;
  name: string;
  /** BM25F score (lexical), cosine similarity (semantic) or fused RRF score (hybrid), times the prior. */
  score: number;
}

export interface EngineSearchOptions {
  mode?: SearchMode;
  limit?: number;
  server?: string;
  filter?: (doc: ToolDoc) => boolean;
  /** A factor per tool (about 0.8..1): success-rate priors; only reorders candidates, never drops one. */
  prior?: (key: string) => number;
  /** How long a semantic search waits for tools still being embedded (default 2000 ms). */
  waitMs?: number;
}

export interface EngineResult {
  hits: EngineHit[];
  requested: SearchMode;
  /** The mode that produced the hits (lexical when semantic search could not answer). */
  mode: SearchMode;
  /** Why the requested mode was not used. */
  degraded?: string;
}

export interface EngineOptions {
  index?: Partial<IndexOptions>;
  semantic?: SemanticIndex;
  /** Stored learned queries of a tool, applied when the tool enters the index. */
  learned?: (doc: ToolDoc) => ReadonlyArray<{ query: string; weight: number }>;
}

export class SearchEngine {
  readonly lexical: ToolIndex;
  readonly semantic: SemanticIndex | undefined;
  private readonly docs = new Map<string, { doc: ToolDoc; content: string }>();
  private readonly learned: EngineOptions['learned'];

  constructor(options: EngineOptions = {}) {
    this.lexical = new ToolIndex(options.index);
    this.semantic = options.semantic;
    this.learned = options.learned;
  }

  get size(): number {
    return this.docs.size;
  }

  doc(key: string): ToolDoc | undefined {
    return this.docs.get(key)?.doc;
  }

  /** Makes the indexed set exactly `docs`; returns what changed. */
  sync(docs: readonly ToolDoc[]): { added: number; updated: number; removed: number } {
    const counts = { added: 0, updated: 0, removed: 0 };
    const seen = new Set<string>();
    for (const doc of docs) {
      seen.add(doc.key);
      const content = JSON.stringify(doc);
      const before = this.docs.get(doc.key);
      if (before?.content === content) continue;
      this.docs.set(doc.key, { doc, content });
      this.lexical.add(doc);
      if (before) {
        counts.updated++;
        continue;
      }
      counts.added++;
      for (const { query, weight } of this.learned?.(doc) ?? []) this.lexical.addExpansion(doc.key, query, weight);
    }
    for (const key of [...this.docs.keys()]) {
      if (seen.has(key)) continue;
      this.docs.delete(key);
      this.lexical.remove(key);
      counts.removed++;
    }
    this.semantic?.sync([...this.docs.values()].map((d) => d.doc));
    return counts;
  }

  /** Learning from use: the query led to this tool (in memory; persisting is the caller's). */
  learn(key: string, query: string, weight = 1): boolean {
    return this.lexical.addExpansion(key, query, weight);
  }

  /** Learning from use by server and original tool name (every exposed key of that tool learns). */
  learnFor(server: string, name: string, query: string, weight = 1): number {
    let learned = 0;
    for (const [key, { doc }] of this.docs) if (doc.server === server && doc.name === name && this.lexical.addExpansion(key, query, weight)) learned++;
    return learned;
  }

  async search(query: string, options: EngineSearchOptions = {}): Promise<EngineResult> {
    const requested = options.mode ?? (this.semantic ? 'hybrid' : 'lexical');
    const limit = options.limit ?? 10;
    // Priors and fusion reorder a wider candidate set than what is returned.
    const wide = options.prior || requested === 'hybrid' ? Math.max(limit * 3, limit + 10) : limit;
    const scope = { limit: wide, ...(options.server !== undefined && { server: options.server }), ...(options.filter && { filter: options.filter }) };
    const lexical = () => this.lexical.search(query, scope).map(({ key, server, name, score }) => ({ key, server, name, score }));
    let hits: EngineHit[];
    let mode: SearchMode = requested;
    let degraded: string | undefined;
    if (requested === 'lexical') {
      hits = lexical();
    } else if (!this.semantic) {
      mode = 'lexical';
      degraded = 'no embedding provider is configured (settings.search.embeddings); these are lexical results';
      hits = lexical();
    } else {
      try {
        const accept = (key: string) => {
          const doc = this.docs.get(key)?.doc;
          return doc !== undefined && (options.server === undefined || doc.server === options.server) && (!options.filter || options.filter(doc));
        };
        const vector = await this.semantic.search(query, wide, { accept, ...(options.waitMs !== undefined && { waitMs: options.waitMs }) });
        // A sync() during the await may have removed a tool: it is left out.
        const asHits = (list: ReadonlyArray<{ key: string; score: number }>): EngineHit[] =>
          list.flatMap(({ key, score }) => {
            const doc = this.docs.get(key)?.doc;
            return doc ? [{ key, server: doc.server, name: doc.name, score }] : [];
          });
        hits = requested === 'semantic' ? asHits(vector) : asHits(reciprocalRankFusion([lexical(), vector]));
      } catch (error) {
        if (!(error instanceof SemanticUnavailable)) throw error;
        mode = 'lexical';
        degraded = `semantic search unavailable: ${error.message}; these are lexical results`;
        hits = lexical();
      }
    }
    if (options.prior) {
      const prior = options.prior;
      hits = hits
        .map((h, i) => ({ hit: { ...h, score: h.score * prior(h.key) }, i }))
        .sort((a, b) => b.hit.score - a.hit.score || a.i - b.i)
        .map((x) => x.hit);
    }
    return { hits: hits.slice(0, limit), requested, mode, ...(degraded !== undefined && { degraded }) };
  }
}
