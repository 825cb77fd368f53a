// Owns the retrieval benchmark run: read the eval data format (tools.jsonl, queries.jsonl, optional
// servers.jsonl next to the tools), split queries deterministically by a hash of their id, feed the
// train part through learning from use, rank every tool for each held query in the chosen mode
// (lexical, or semantic/hybrid with an embeddings endpoint), optionally re-rank the first stage's top
// candidates with a chat model (the `llm` mode), and score it with metrics.ts. Tools are identified
// as "server/name".
import { readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { PlainBm25 } from './bm25.js';
import type { ToolDoc } from './document.js';
import type { IndexOptions } from './index.js';
import { SearchEngine, type SearchMode } from './engine.js';
import { buildMiniSearch } from './minisearch-ab.js';
import { OpenAiCompatibleProvider, type EmbeddingSettings } from './semantic/provider.js';
import { SemanticIndex } from './semantic/semantic-index.js';
import { percentile, scoreQuery, summarize, type Summary } from './metrics.js';
import type { ChatModel } from './rerank/chat.js';
import { LlmReranker, type RerankOptions } from './rerank/llm-rerank.js';
import { DEFAULT_FUSION, fuseWithVectors, type FusionOptions } from './word-vectors/fusion.js';
import type { WordVectorTable } from './word-vectors/table.js';
import { WordVectorIndex, type WordVectorOptions } from './word-vectors/word-vector-index.js';

interface ToolRef {
  server: string;
  name: string;
}
export interface BenchQuery {
  id: string;
  query: string;
  groups: ToolRef[][];
}

export interface BenchInput {
  tools: ToolDoc[];
  queries: BenchQuery[];
}

export const BENCH_ENGINES = ['index', 'bm25', 'bm25-stem', 'minisearch', 'minisearch-default'] as const;
export type BenchEngine = (typeof BENCH_ENGINES)[number];

export interface BenchOptions {
  /** `index` (ToolIndex), `bm25` (the plain reference), `bm25-stem` (the same with the engine's stemmer) or a MiniSearch set-up (ADR 0003 A/B). */
  engine: BenchEngine;
  /** Search mode of the index engine (default lexical); semantic and hybrid need `embeddings`. */
  mode?: SearchMode;
  embeddings?: EmbeddingSettings;
  trainSplit?: number;
  limitQueries?: number;
  indexOptions?: Partial<IndexOptions>;
  /** Told of progress while tools are embedded. */
  onProgress?: (done: number, total: number) => void;
  /** The llm mode: the first stage's top candidates re-ranked by this chat model (index engine only). */
  llm?: { model: ChatModel; options?: Partial<RerankOptions> };
  /** The word-vector signal fused with the lexical ranking of `bm25` or `index` (lexical mode, no llm). */
  wordVectors?: { table: WordVectorTable; options?: Partial<WordVectorOptions>; fusion?: Partial<FusionOptions> };
}

export interface BenchResult extends Summary {
  engine: string;
  mode: SearchMode;
  /** Time to embed every tool (semantic and hybrid modes). */
  embedMs?: number;
  /** The chat model that re-ranked the first stage (llm mode) and how many candidates it saw. */
  llm?: { model: string; candidates: number; asked: number; reranked: number };
  /** Queries answered in another mode than asked (the embedding endpoint or the chat model failed), with the first reason. */
  degraded?: { queries: number; reason: string };
  tools: number;
  trainQueries: number;
  indexMs: number;
  latencyMs: { p50: number; p99: number };
}

const idOf = (t: ToolRef) => `${t.server}/${t.name}`;

function readJsonl<T>(file: string): T[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as T);
}

/** Loads a benchmark folder's files; servers.jsonl beside the tools file adds server titles and descriptions. */
export function loadBench(toolsFile: string, queriesFile: string): BenchInput {
  const serversFile = path.join(path.dirname(toolsFile), 'servers.jsonl');
  const servers = new Map<string, { title?: string; description?: string }>();
  if (existsSync(serversFile)) for (const s of readJsonl<{ server: string; title?: string; description?: string }>(serversFile)) servers.set(s.server, s);
  const tools = readJsonl<{ server: string; name: string; description?: string; inputSchema?: unknown }>(toolsFile).map((t) => {
    const s = servers.get(t.server);
    const serverDescription = [s?.title, s?.description].filter(Boolean).join('. ');
    return { key: idOf(t), server: t.server, name: t.name, description: t.description, inputSchema: t.inputSchema, ...(serverDescription ? { serverDescription } : {}) };
  });
  const queries = readJsonl<BenchQuery>(queriesFile).map(({ id, query, groups }) => ({ id, query, groups }));
  return { tools, queries };
}

/** FNV-1a of the id mapped to [0, 1): the deterministic split and sampling order. */
export function hashUnit(id: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) {
    h ^= id.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h / 2 ** 32;
}

/** Splits queries deterministically by a hash of their id: [train, held]; `limit` samples the held part. */
export function splitQueries(queries: readonly BenchQuery[], trainSplit?: number, limit?: number): [BenchQuery[], BenchQuery[]] {
  let train: BenchQuery[] = [];
  let held = [...queries];
  if (trainSplit !== undefined && trainSplit > 0) {
    train = queries.filter((q) => hashUnit(q.id) < trainSplit);
    held = queries.filter((q) => hashUnit(q.id) >= trainSplit);
  }
  if (limit !== undefined && held.length > limit) held = held.sort((a, b) => hashUnit(`sample:${a.id}`) - hashUnit(`sample:${b.id}`)).slice(0, limit);
  return [train, held];
}

interface Ranker {
  /** `warm`: a warm-up search (untimed, unscored): the chat model is not asked. */
  search(query: string, warm?: boolean): Promise<{ keys: string[]; degraded?: string }>;
}

export async function runBench(input: BenchInput, options: BenchOptions): Promise<BenchResult> {
  const [train, held] = splitQueries(input.queries, options.trainSplit, options.limitQueries);
  const mode: SearchMode = options.mode ?? 'lexical';
  if (mode !== 'lexical' && !options.embeddings) throw new Error(`mode ${mode} needs an embeddings endpoint`);
  const started = performance.now();
  let ranker: Ranker;
  let embedMs: number | undefined;
  let llmAnswers = 0;
  let llmAsked = 0; // queries with two or more candidates (fewer: nothing to re-rank, the model is not asked)
  const vectors = options.wordVectors && new WordVectorIndex(options.wordVectors.table, input.tools, options.wordVectors.options);
  const fusion: FusionOptions = { ...DEFAULT_FUSION, ...options.wordVectors?.fusion };
  if (vectors && (options.engine === 'minisearch' || options.engine === 'minisearch-default' || mode !== 'lexical' || options.llm)) {
    throw new Error('word vectors fuse with the bm25 or index engine in lexical mode, without the llm stage');
  }
  if (options.engine === 'bm25' || options.engine === 'bm25-stem') {
    const bm25 = new PlainBm25(undefined, undefined, options.engine === 'bm25-stem');
    for (const tool of input.tools) bm25.add(tool);
    ranker = vectors
      ? { search: async (q) => ({ keys: fuseWithVectors(q, bm25.search(q, { limit: Math.max(10, fusion.depth) }), vectors, fusion, 10) }) }
      : { search: async (q) => ({ keys: bm25.search(q, { limit: 10 }).map((h) => h.key) }) };
  } else if (options.engine === 'minisearch' || options.engine === 'minisearch-default') {
    const mini = await buildMiniSearch(input.tools, options.engine);
    ranker = { search: async (q) => ({ keys: mini.search(q, 10) }) };
  } else {
    const semantic = mode === 'lexical' ? undefined : new SemanticIndex(new OpenAiCompatibleProvider(options.embeddings!), undefined);
    const engine = new SearchEngine({ ...(options.indexOptions && { index: options.indexOptions }), ...(semantic && { semantic }) });
    engine.sync(input.tools);
    // The train queries go through learning from use, as if a session had searched and then called the tool.
    for (const q of train) for (const g of q.groups) for (const t of g) engine.learn(idOf(t), q.query, 1);
    engine.lexical.search('warm up'); // folds learned queries in, so they count as indexing time
    if (semantic) {
      const t0 = performance.now();
      await semantic.embedAll({ ...(options.onProgress && { onProgress: options.onProgress }) });
      embedMs = performance.now() - t0;
    }
    const reranker = options.llm && new LlmReranker(options.llm.options);
    const docs = new Map(input.tools.map((t) => [t.key, t]));
    ranker = {
      search: async (q, warm) => {
        if (vectors) return { keys: fuseWithVectors(q, engine.lexical.search(q, { limit: Math.max(10, fusion.depth) }), vectors, fusion, 10) };
        const result = await engine.search(q, { mode, limit: reranker ? Math.max(10, reranker.options.candidates) : 10 });
        let keys = result.hits.map((h) => h.key);
        let degradedReason = result.degraded;
        if (reranker && !warm && keys.length >= 2) {
          llmAsked++;
          const candidates = keys.map((key) => {
            const doc = docs.get(key)!;
            return { key, server: doc.server, name: doc.name, description: doc.description ?? '' };
          });
          const reranked = await reranker.rerank(options.llm!.model, q, candidates, 'bench');
          keys = reranked.keys;
          if (reranked.stage === 'llm') llmAnswers++;
          else degradedReason ??= reranked.note;
        }
        return { keys: keys.slice(0, 10), ...(degradedReason !== undefined && { degraded: degradedReason }) };
      },
    };
  }
  const indexMs = performance.now() - started - (embedMs ?? 0);
  for (const q of held.slice(0, 50)) await ranker.search(q.query, true); // JIT (and query-vector) warm-up, untimed and unscored
  const latencies: number[] = [];
  let degraded: BenchResult['degraded'];
  const scores = [];
  for (const q of held) {
    const t0 = performance.now();
    const result = await ranker.search(q.query);
    latencies.push(performance.now() - t0);
    if (result.degraded) degraded = { queries: (degraded?.queries ?? 0) + 1, reason: degraded?.reason ?? result.degraded };
    scores.push(scoreQuery(result.keys, q.groups.map((g) => g.map(idOf))));
  }
  return {
    engine: vectors ? (fusion.method === 'vectors' ? 'vectors' : `${options.engine}+vectors`) : options.engine,
    mode: options.engine === 'index' ? mode : 'lexical',
    tools: input.tools.length,
    trainQueries: options.engine === 'index' ? train.length : 0,
    indexMs,
    ...(embedMs !== undefined && { embedMs }),
    ...(options.llm && options.engine === 'index' && { llm: { model: options.llm.model.label, candidates: new LlmReranker(options.llm.options).options.candidates, asked: llmAsked, reranked: llmAnswers } }),
    ...(degraded && { degraded }),
    latencyMs: { p50: percentile(latencies, 50), p99: percentile(latencies, 99) },
    ...summarize(scores),
  };
}
