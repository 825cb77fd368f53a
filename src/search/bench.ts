// Owns the retrieval benchmark run: read the eval data format (tools.jsonl, queries.jsonl, optional
// servers.jsonl next to the tools), split queries deterministically by a hash of their id, feed the
// train part to the index as learned queries, rank every tool for each held query and score it with
// metrics.ts. Tools are identified as "server/name".
import { readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { PlainBm25 } from './bm25.js';
import type { ToolDoc } from './document.js';
import { ToolIndex, type IndexOptions } from './index.js';
import { percentile, scoreQuery, summarize, type Summary } from './metrics.js';

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

export interface BenchOptions {
  engine: 'index' | 'bm25';
  trainSplit?: number;
  limitQueries?: number;
  indexOptions?: Partial<IndexOptions>;
}

export interface BenchResult extends Summary {
  engine: string;
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

export function runBench(input: BenchInput, options: BenchOptions): BenchResult {
  let train: BenchQuery[] = [];
  let held = input.queries;
  if (options.trainSplit !== undefined && options.trainSplit > 0) {
    train = input.queries.filter((q) => hashUnit(q.id) < options.trainSplit!);
    held = input.queries.filter((q) => hashUnit(q.id) >= options.trainSplit!);
  }
  if (options.limitQueries !== undefined && held.length > options.limitQueries) {
    held = [...held].sort((a, b) => hashUnit(`sample:${a.id}`) - hashUnit(`sample:${b.id}`)).slice(0, options.limitQueries);
  }
  const started = performance.now();
  const engine = options.engine === 'bm25' ? new PlainBm25() : new ToolIndex(options.indexOptions);
  for (const tool of input.tools) engine.add(tool);
  if (engine instanceof ToolIndex) {
    for (const q of train) for (const g of q.groups) for (const t of g) engine.addExpansion(idOf(t), q.query, 1);
    engine.search('warm up'); // folds learned queries in, so they count as indexing time
  }
  const indexMs = performance.now() - started;
  for (const q of held.slice(0, 50)) engine.search(q.query, { limit: 10 }); // JIT warm-up, untimed and unscored
  const latencies: number[] = [];
  const scores = held.map((q) => {
    const t0 = performance.now();
    const hits = engine.search(q.query, { limit: 10 });
    latencies.push(performance.now() - t0);
    return scoreQuery(
      hits.map((h) => h.key),
      q.groups.map((g) => g.map(idOf)),
    );
  });
  return {
    engine: options.engine,
    tools: input.tools.length,
    trainQueries: engine instanceof ToolIndex ? train.length : 0,
    indexMs,
    latencyMs: { p50: percentile(latencies, 50), p99: percentile(latencies, 99) },
    ...summarize(scores),
  };
}
