// Owns the honest protocol of the retrieval benchmark: find every eval set under the given folders
// (a folder with tools.jsonl and queries.jsonl, and its direct subfolders that hold both), run the
// engine and plain BM25 on each in the same run, with nothing tuned, and lay the results side by
// side (R@1, R@5, MRR@10 and the engine's difference to BM25). Also merges partial index options
// given on the command line over the defaults (one level deep), so a signal can be switched alone.
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { loadBench, runBench, type BenchEngine, type BenchOptions, type BenchResult } from './bench.js';
import { DEFAULT_INDEX_OPTIONS, type IndexOptions } from './index.js';

export interface EvalSet {
  name: string;
  tools: string;
  queries: string;
}

function setAt(dir: string, name: string): EvalSet | undefined {
  const tools = path.join(dir, 'tools.jsonl');
  const queries = path.join(dir, 'queries.jsonl');
  return existsSync(tools) && existsSync(queries) ? { name, tools, queries } : undefined;
}

/** Every eval set in `dirs` and their direct subfolders, named by folder. */
export function discoverSets(dirs: readonly string[]): EvalSet[] {
  const out: EvalSet[] = [];
  for (const dir of dirs) {
    if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new Error(`${dir}: not a folder (expected a folder holding tools.jsonl and queries.jsonl)`);
    const top = setAt(dir, path.basename(path.resolve(dir)));
    if (top) out.push(top);
    for (const sub of readdirSync(dir).sort()) {
      const full = path.join(dir, sub);
      if (!statSync(full).isDirectory()) continue;
      const set = setAt(full, sub);
      if (set) out.push(set);
    }
  }
  if (out.length === 0) throw new Error(`no eval set (tools.jsonl + queries.jsonl) in ${dirs.join(', ')} or their subfolders`);
  return out;
}

/** `partial` over the defaults; the nested weights, b and query objects are merged too. */
export function mergeIndexOptions(partial: Partial<IndexOptions> = {}): IndexOptions {
  const d = DEFAULT_INDEX_OPTIONS;
  return {
    ...d,
    ...partial,
    weights: { ...d.weights, ...partial.weights },
    b: { ...d.b, ...partial.b },
    query: { ...d.query, ...partial.query },
    keywords: { ...d.keywords, ...partial.keywords },
  };
}

export interface CrossRow {
  set: string;
  queries: number;
  results: Array<{ engine: string; result: BenchResult }>;
}

export interface CrossOptions {
  engines: readonly BenchEngine[];
  indexOptions?: Partial<IndexOptions>;
  limitQueries?: number;
  /** Also the engine with its top candidates re-ranked by this chat model (row `index+llm`). */
  llm?: BenchOptions['llm'];
  /** Also the word-vector signal alone and fused with each of BM25 and the engine (rows `vectors`, `bm25+vectors`, `index+vectors`). */
  wordVectors?: BenchOptions['wordVectors'];
}

/** Plain BM25 plus `engines` on every set, zero-shot, in one run. */
export async function runCross(sets: readonly EvalSet[], options: CrossOptions): Promise<CrossRow[]> {
  const rows: CrossRow[] = [];
  for (const set of sets) {
    const input = loadBench(set.tools, set.queries);
    const engines: BenchEngine[] = ['bm25', ...options.engines.filter((e) => e !== 'bm25')];
    const results = [];
    for (const engine of engines) {
      const result = await runBench(input, {
        engine,
        ...(options.limitQueries !== undefined && { limitQueries: options.limitQueries }),
        ...(engine === 'index' && { indexOptions: mergeIndexOptions(options.indexOptions) }),
      });
      results.push({ engine, result });
    }
    if (options.llm) {
      const result = await runBench(input, {
        engine: 'index',
        llm: options.llm,
        indexOptions: mergeIndexOptions(options.indexOptions),
        ...(options.limitQueries !== undefined && { limitQueries: options.limitQueries }),
      });
      results.push({ engine: 'index+llm', result });
    }
    if (options.wordVectors) {
      const limit = options.limitQueries !== undefined ? { limitQueries: options.limitQueries } : {};
      const wv = options.wordVectors;
      results.push({ engine: 'vectors', result: await runBench(input, { engine: 'bm25', ...limit, wordVectors: { ...wv, fusion: { ...wv.fusion, method: 'vectors' } } }) });
      results.push({ engine: 'bm25+vectors', result: await runBench(input, { engine: 'bm25', ...limit, wordVectors: wv }) });
      results.push({ engine: 'index+vectors', result: await runBench(input, { engine: 'index', ...limit, indexOptions: mergeIndexOptions(options.indexOptions), wordVectors: wv }) });
    }
    rows.push({ set: set.name, queries: results[0]!.result.queries, results });
  }
  return rows;
}

/** One line per set and engine: R@1 R@5 MRR@10, and the difference to BM25 of the same run. */
export function formatCross(rows: readonly CrossRow[]): string[] {
  const f = (x: number) => x.toFixed(3);
  const d = (x: number) => `${x >= 0 ? '+' : ''}${x.toFixed(3)}`;
  const lines = [`${'set'.padEnd(12)} ${'engine'.padEnd(19)} ${'R@1'.padEnd(6)} ${'R@5'.padEnd(6)} ${'MRR@10'.padEnd(6)}  vs bm25 (R@1 R@5 MRR@10)`];
  for (const row of rows) {
    const base = row.results[0]!.result;
    for (const { engine, result: r } of row.results) {
      const delta = engine === 'bm25' ? '' : `  ${d(r.recall[1]! - base.recall[1]!)} ${d(r.recall[5]! - base.recall[5]!)} ${d(r.mrr10 - base.mrr10)}`;
      const llm = r.llm ? `  (${r.llm.model}: ${r.llm.reranked} of ${r.llm.asked} answers used${r.degraded ? `; first: ${r.degraded.reason.slice(0, 80)}` : ''})` : '';
      lines.push(`${row.set.padEnd(12)} ${engine.padEnd(19)} ${f(r.recall[1]!)}  ${f(r.recall[5]!)}  ${f(r.mrr10)} ${delta}${llm}`);
    }
  }
  return lines;
}
