// Owns the gateway's tool search services: one search engine per catalog (lexical, plus semantic when
// an embedding provider is configured, with vectors cached in the store), learning from use (a
// session's search followed by a successful call of a tool it returned attaches the query to that
// tool, stored and fading), and success-rate priors read from the call recorder's in-memory table.
import type { SearchSettings } from '../config/types.js';
import type { Logger } from '../logging/logger.js';
import { SearchEngine, type SearchMode } from '../search/engine.js';
import { OpenAiCompatibleProvider } from '../search/semantic/provider.js';
import { SemanticIndex, type SemanticStatus } from '../search/semantic/semantic-index.js';
import type { Store } from '../store/index.js';
import type { ToolStatsView } from '../metrics/tool-stats-table.js';
import type { Catalog } from '../catalog/catalog.js';
import type { EmbedReport } from '../search/semantic/semantic-index.js';
import { snapshotOf, type SearchContext } from '../views/meta-index.js';
import { LearningGuard, type LearningLimits } from './learning-guard.js';
import { OpenAiChatModel, samplingChatModel, type ChatModel, type CreateMessage } from '../search/rerank/chat.js';
import { LlmReranker } from '../search/rerank/llm-rerank.js';

/** A search is linked to a later call of one of its results for this long. */
const LEARNING_WINDOW_MS = 10 * 60_000;
const SEARCHES_KEPT_PER_SESSION = 4;

interface NotedSearch {
  query: string;
  /** `server\0tool` of every returned tool that has not been learned from this search yet. */
  tools: Set<string>;
  at: number;
}

/** Asked for embeddings while none are configured. */
export class NoEmbeddingProvider extends Error {
  constructor() {
    super('No embedding provider is configured: set "search": {"embeddings": {"baseUrl", "model"}} in the switchboard settings (see docs/search.md). Search works lexically without one.');
    this.name = 'NoEmbeddingProvider';
  }
}

export interface ToolSearchOptions {
  settings: SearchSettings;
  store?: Store;
  /** Recorded per-tool counts (the call recorder's table), for success-rate priors. */
  stats?: ToolStatsView;
  log: Logger;
  serverDescription: (server: string) => string | undefined;
  clock?: () => number;
  /** Bounds on learning (quorum of teachers, per-session count, query length); default: one teacher is enough. */
  learningLimits?: () => LearningLimits;
}

/** A fresh engine for one catalog (or the CLI): semantic when embeddings are configured, stored learned queries applied. */
export function createSearchEngine(settings: SearchSettings, store: Store | undefined, clock: () => number = Date.now): SearchEngine {
  const semantic = settings.embeddings ? new SemanticIndex(new OpenAiCompatibleProvider(settings.embeddings), store?.vectors, clock) : undefined;
  let learned: Map<string, Array<{ query: string; weight: number }>> | undefined;
  const learnedOf = (server: string, tool: string) => {
    if (!store || !settings.learning) return [];
    if (!learned) {
      learned = new Map();
      for (const q of store.learnedQueries.all()) {
        const id = `${q.server}\u0000${q.tool}`;
        learned.set(id, [...(learned.get(id) ?? []), { query: q.query, weight: q.weight }]);
      }
    }
    return learned.get(`${server}\u0000${tool}`) ?? [];
  };
  return new SearchEngine({ ...(semantic && { semantic }), learned: (doc) => learnedOf(doc.server, doc.name) });
}

export class ToolSearch {
  readonly settings: SearchSettings;
  private readonly store: Store | undefined;
  private readonly log: Logger;
  private readonly clock: () => number;
  /** Live engines (weakly held: an engine goes with its catalog when the last session of a profile ends). */
  private readonly engines = new Set<WeakRef<SearchEngine>>();
  private readonly searches = new Map<string, NotedSearch[]>();
  private readonly stats: ToolStatsView | undefined;
  readonly context: SearchContext;
  /** Who may teach the shared index what (see learning-guard.ts). */
  readonly learning: LearningGuard;
  /** The llm mode's re-ranker; its answer cache is shared by every session. */
  readonly reranker: LlmReranker;
  private readonly endpointModel: ChatModel | undefined;

  constructor(options: ToolSearchOptions) {
    this.learning = new LearningGuard(options.learningLimits ?? (() => ({ quorum: 1, perSession: Infinity, maxQueryLength: Infinity })));
    this.settings = options.settings;
    const llm = this.settings.llm ?? {};
    this.reranker = new LlmReranker({
      ...(llm.candidates !== undefined && { candidates: llm.candidates }),
      ...(llm.timeoutMs !== undefined && { timeoutMs: llm.timeoutMs }),
      ...(llm.maxAnswerTokens !== undefined && { maxAnswerTokens: llm.maxAnswerTokens }),
      ...(llm.maxPromptTokens !== undefined && { maxPromptTokens: llm.maxPromptTokens }),
    });
    this.endpointModel = llm.baseUrl && llm.model ? new OpenAiChatModel({ baseUrl: llm.baseUrl, model: llm.model, ...(llm.apiKeyEnv && { apiKeyEnv: llm.apiKeyEnv }) }) : undefined;
    this.store = options.store;
    this.stats = options.stats;
    this.log = options.log;
    this.clock = options.clock ?? Date.now;
    this.context = {
      serverDescription: options.serverDescription,
      newEngine: () => {
        const engine = createSearchEngine(this.settings, this.store, this.clock);
        this.engines.add(new WeakRef(engine));
        return engine;
      },
    };
  }

  /**
   * The chat model of llm mode: the configured endpoint, else the client's sampling (handed in only
   * when the client declared it) unless search.llm.sampling is false; undefined when there is none.
   */
  chatModel(createMessage?: CreateMessage): ChatModel | undefined {
    if (this.endpointModel) return this.endpointModel;
    if (createMessage && this.settings.llm?.sampling !== false) return samplingChatModel(createMessage);
    return undefined;
  }

  /** The mode a search without one uses. */
  get defaultMode(): SearchMode {
    return this.settings.mode ?? (this.settings.embeddings ? 'hybrid' : 'lexical');
  }

  /** State of the semantic side of every engine (empty when no provider is configured). */
  semanticStatus(): SemanticStatus[] {
    return this.liveEngines().flatMap((e) => (e.semantic ? [e.semantic.status()] : []));
  }

  /**
   * A factor for ranking (0.8..1): tools that fail often sink a little, more so with more calls behind
   * the rate and right after a failure; tools never called keep 1. Only reorders, never hides.
   */
  prior(server: string, tool: string): number {
    if (!this.settings.priors || !this.stats) return 1;
    const now = this.clock();
    const s = this.stats.get(server, tool);
    if (!s || s.successRate === null || s.calls === 0) return 1;
    const confidence = s.calls / (s.calls + 5);
    let factor = 1 - 0.15 * (1 - s.successRate) * confidence;
    if (s.lastError && now - s.lastError.at < 10 * 60_000) factor *= 0.95;
    return factor;
  }

  /** Remembers what a session searched for and which tools it was shown. */
  noteSearch(session: string, query: string, tools: ReadonlyArray<{ server: string; tool: string }>): void {
    if (!this.settings.learning || !query.trim() || tools.length === 0 || !this.learning.acceptsQuery(query.trim())) return;
    const list = this.searches.get(session) ?? [];
    list.push({ query: query.trim(), tools: new Set(tools.map((t) => `${t.server}\u0000${t.tool}`)), at: this.clock() });
    if (list.length > SEARCHES_KEPT_PER_SESSION) list.shift();
    this.searches.set(session, list);
  }

  /**
   * A session called a tool successfully: each recent search of that session that showed the tool
   * teaches it the query (once per search), in the store and in every live index.
   */
  noteCall(session: string, server: string, tool: string): void {
    const list = this.searches.get(session);
    if (!list) return;
    const now = this.clock();
    const id = `${server}\u0000${tool}`;
    for (const search of list) {
      if (now - search.at > LEARNING_WINDOW_MS || !search.tools.delete(id)) continue;
      const weight = this.learning.vote(session, id, search.query);
      if (weight === 0) continue;
      try {
        this.store?.learnedQueries.add(server, tool, search.query, weight);
      } catch (error) {
        this.log.warn({ err: (error as Error).message, server, tool }, 'could not store a learned query');
      }
      for (const engine of this.liveEngines()) engine.learnFor(server, tool, search.query, weight);
      this.log.debug({ server, tool }, 'learned a search query from use');
    }
    this.searches.set(session, list.filter((s) => now - s.at <= LEARNING_WINDOW_MS && s.tools.size > 0));
  }

  /** Embeds a catalog's tools now (cached vectors reused unless `force`); throws NoEmbeddingProvider or the provider's EmbeddingError. */
  async embed(catalog: Catalog, options: { force?: boolean; onProgress?: (done: number, total: number) => void } = {}): Promise<EmbedReport & { model: string; endpoint: string }> {
    const semantic = snapshotOf(catalog, this.context).engine.semantic;
    if (!semantic) throw new NoEmbeddingProvider();
    const report = await semantic.embedAll(options);
    return { ...report, model: semantic.provider.model, endpoint: semantic.provider.endpoint };
  }

  private liveEngines(): SearchEngine[] {
    const live: SearchEngine[] = [];
    for (const ref of this.engines) {
      const engine = ref.deref();
      if (engine) live.push(engine);
      else this.engines.delete(ref);
    }
    return live;
  }

  forgetSession(session: string): void {
    this.searches.delete(session);
    this.learning.forgetSession(session);
  }
}
