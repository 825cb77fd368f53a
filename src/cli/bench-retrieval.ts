// Owns `switchboard bench retrieval`: score the tool search on an eval set (format of
// eval/retrieval/README.md) and print Recall@k, Complete@k, MRR@10, nDCG@10 and latency;
// `--report-baseline` adds plain BM25 from the same run, `--cross <dirs>` runs every set found there
// side by side with BM25 and tunes nothing, `--index-options` switches one signal for an ablation,
// `--tune-on <set>` (with --cross) is the two-fold protocol of bench-tune.ts.
import { writeFileSync } from 'node:fs';
import { BENCH_ENGINES, loadBench, runBench, type BenchEngine, type BenchOptions, type BenchResult } from '../search/bench.js';
import { discoverSets, formatCross, mergeIndexOptions, runCross } from '../search/cross.js';
import { SEARCH_MODES, type SearchMode } from '../search/engine.js';
import type { IndexOptions } from '../search/index.js';
import { speedMiniSearch } from '../search/minisearch-ab.js';
import { OpenAiChatModel } from '../search/rerank/chat.js';
import { runSpeed } from '../search/speed.js';
import { UsageError } from './inventory.js';
import { loadWordVectorsForBench } from './bench-word-vectors.js';
import { benchTuneCommand } from './bench-tune.js';

export interface BenchRetrievalOptions {
  tools?: string;
  queries?: string;
  trainSplit?: string;
  limitQueries?: string;
  engine?: string;
  mode?: string;
  embeddingsUrl?: string;
  embeddingsModel?: string;
  embeddingsKeyEnv?: string;
  llmUrl?: string;
  llmModel?: string;
  llmKeyEnv?: string;
  llmCandidates?: string;
  llmTimeoutMs?: string;
  scale?: string;
  reportBaseline?: boolean;
  cross?: string;
  indexOptions?: string;
  wordVectors?: string;
  vectorOptions?: string;
  json?: string;
  tuneOn?: string;
  lists?: string;
  tuneSample?: string;
  tuneSeed?: string;
  tunePasses?: string;
  tuneMetric?: string;
}

function parseIndexOptions(text: string | undefined): Partial<IndexOptions> | undefined {
  if (text === undefined) return undefined;
  try {
    const parsed = JSON.parse(text) as unknown;
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object');
    return parsed as Partial<IndexOptions>;
  } catch (error) {
    throw new UsageError(`--index-options must be a JSON object of index options (e.g. '{"maxPerServer":2}'): ${(error as Error).message}`);
  }
}

/** The llm stage asked for with --llm-url and --llm-model, or undefined. */
function llmStage(options: BenchRetrievalOptions): BenchOptions['llm'] {
  if (options.llmUrl === undefined && options.llmModel === undefined) return undefined;
  if (!(options.llmUrl && options.llmModel)) throw new UsageError('the llm mode needs both --llm-url (an OpenAI-compatible base URL, e.g. http://127.0.0.1:11434/v1) and --llm-model.');
  const candidates = options.llmCandidates === undefined ? undefined : Number(options.llmCandidates);
  if (candidates !== undefined && !(Number.isInteger(candidates) && candidates >= 2 && candidates <= 50)) throw new UsageError('--llm-candidates must be an integer from 2 to 50.');
  const timeoutMs = options.llmTimeoutMs === undefined ? undefined : Number(options.llmTimeoutMs);
  if (timeoutMs !== undefined && !(Number.isInteger(timeoutMs) && timeoutMs > 0)) throw new UsageError('--llm-timeout-ms must be a positive integer.');
  return {
    model: new OpenAiChatModel({ baseUrl: options.llmUrl, model: options.llmModel, ...(options.llmKeyEnv && { apiKeyEnv: options.llmKeyEnv }) }),
    options: { ...(candidates !== undefined && { candidates }), ...(timeoutMs !== undefined && { timeoutMs }) },
  };
}

const f = (x: number) => x.toFixed(3);

function resultLines(result: BenchResult): string[] {
  return [
    `engine ${result.engine}, ${result.mode}${result.llm ? ` + llm re-ranking of the top ${result.llm.candidates} by ${result.llm.model} (${result.llm.reranked} of ${result.llm.asked} answers used)` : ''}: ${result.tools} tools, ${result.queries} queries scored${result.trainQueries ? `, ${result.trainQueries} learned` : ''}, indexed in ${result.indexMs.toFixed(1)} ms`,
    `Recall@1 ${f(result.recall[1]!)}  @3 ${f(result.recall[3]!)}  @5 ${f(result.recall[5]!)}  @10 ${f(result.recall[10]!)}`,
    `Complete@5 ${f(result.complete[5]!)}  @10 ${f(result.complete[10]!)}`,
    `MRR@10 ${f(result.mrr10)}  nDCG@10 ${f(result.ndcg10)}`,
    `latency p50 ${result.latencyMs.p50.toFixed(3)} ms  p99 ${result.latencyMs.p99.toFixed(3)} ms${result.embedMs !== undefined ? `  (tools embedded in ${result.embedMs.toFixed(0)} ms)` : ''}`,
    ...(result.degraded ? [`warning: ${result.degraded.queries} queries answered lexically: ${result.degraded.reason}`] : []),
  ];
}

export async function benchRetrievalCommand(options: BenchRetrievalOptions): Promise<void> {
  const trainSplit = options.trainSplit === undefined ? undefined : Number(options.trainSplit);
  if (trainSplit !== undefined && !(trainSplit >= 0 && trainSplit < 1)) throw new UsageError('--train-split must be a fraction in [0, 1).');
  const limitQueries = options.limitQueries === undefined ? undefined : Number(options.limitQueries);
  if (limitQueries !== undefined && !(Number.isInteger(limitQueries) && limitQueries > 0)) throw new UsageError('--limit-queries must be a positive integer.');
  const engine = (options.engine ?? 'index') as BenchEngine;
  if (!BENCH_ENGINES.includes(engine)) throw new UsageError(`--engine must be one of ${BENCH_ENGINES.join(', ')}.`);
  const indexOptions = parseIndexOptions(options.indexOptions);
  const llm = llmStage(options);
  const wordVectors = loadWordVectorsForBench(options.wordVectors, options.vectorOptions);
  if (wordVectors && (llm || options.scale !== undefined || (options.mode ?? 'lexical') !== 'lexical' || engine.startsWith('minisearch'))) {
    throw new UsageError('--word-vectors fuses with --engine bm25 or index in lexical mode; drop --llm-url, --scale, --mode and minisearch engines.');
  }
  if (llm && engine !== 'index') throw new UsageError('the llm mode re-ranks the index engine: drop --engine or use --engine index.');
  const tuneFlags = [options.lists, options.tuneSample, options.tuneSeed, options.tunePasses, options.tuneMetric].some((x) => x !== undefined);
  if (options.tuneOn === undefined && tuneFlags) throw new UsageError('--lists, --tune-sample, --tune-seed, --tune-passes and --tune-metric belong to --tune-on <set>.');
  if (options.tuneOn !== undefined) {
    if (options.cross === undefined) throw new UsageError('--tune-on needs --cross <folders>: the sets to tune on and to confirm on.');
    if (trainSplit !== undefined || indexOptions || llm || wordVectors || engine !== 'index' || options.scale !== undefined || (options.mode ?? 'lexical') !== 'lexical') {
      throw new UsageError('--tune-on searches the lexical engine\'s knobs itself: drop --train-split, --index-options, --engine, --mode, --scale, --llm-* and --word-vectors.');
    }
    const { tuneOn, lists, tuneSample, tuneSeed, tunePasses, tuneMetric, json } = options;
    await benchTuneCommand(discoverSets(options.cross.split(',').filter(Boolean)), {
      tuneOn,
      ...(lists !== undefined && { lists }),
      ...(tuneSample !== undefined && { tuneSample }),
      ...(tuneSeed !== undefined && { tuneSeed }),
      ...(tunePasses !== undefined && { tunePasses }),
      ...(tuneMetric !== undefined && { tuneMetric }),
      ...(limitQueries !== undefined && { limitQueries }),
      ...(json !== undefined && { json }),
    });
    return;
  }
  if (options.cross !== undefined) {
    if (trainSplit !== undefined) throw new UsageError('--cross tunes nothing: it runs zero-shot, without --train-split.');
    const sets = discoverSets(options.cross.split(',').filter(Boolean));
    const engines: BenchEngine[] = engine === 'index' ? ['index'] : [engine, 'index'];
    const rows = await runCross(sets, { engines, ...(indexOptions && { indexOptions }), ...(limitQueries !== undefined && { limitQueries }), ...(llm && { llm }), ...(wordVectors && { wordVectors }) });
    process.stdout.write(`cross: ${rows.map((r) => `${r.set} (${r.queries} queries)`).join(', ')}; zero-shot, plain BM25 from the same run\n${formatCross(rows).join('\n')}\n`);
    if (options.json) writeFileSync(options.json, `${JSON.stringify(rows, null, 2)}\n`);
    return;
  }
  if (!options.tools || !options.queries) throw new UsageError('bench retrieval needs --tools and --queries (or --cross <folders>).');
  const input = loadBench(options.tools, options.queries);
  if (options.scale !== undefined) {
    if (llm) throw new UsageError('--scale times the index alone: drop --llm-url and --llm-model.');
    const target = Number(options.scale);
    if (!(Number.isInteger(target) && target > 0)) throw new UsageError('--scale must be a positive integer.');
    const queries = input.queries.slice(0, limitQueries ?? 2000).map((q) => q.query);
    const ms = (x: number) => `${x.toFixed(3)} ms`;
    if (engine === 'minisearch' || engine === 'minisearch-default') {
      const speed = await speedMiniSearch(input.tools, target, queries, engine);
      process.stdout.write(`speed (${engine}): ${speed.tools} tools indexed in ${speed.indexMs.toFixed(1)} ms\nquery  p50 ${ms(speed.query.p50)}  p99 ${ms(speed.query.p99)}  (${speed.query.count} queries)\n`);
      if (options.json) writeFileSync(options.json, `${JSON.stringify(speed, null, 2)}\n`);
      return;
    }
    if (engine === 'bm25' || engine === 'bm25-stem') throw new UsageError('--scale measures index or a minisearch engine.');
    const speed = runSpeed(input.tools, target, queries, mergeIndexOptions(indexOptions));
    process.stdout.write(
      [
        `speed: ${speed.tools} tools (the pool replicated under renamed servers) indexed in ${speed.indexMs.toFixed(1)} ms`,
        `query  p50 ${ms(speed.query.p50)}  p99 ${ms(speed.query.p99)}  (${speed.query.count} queries)`,
        `update p50 ${ms(speed.update.p50)}  p99 ${ms(speed.update.p99)}  max ${ms(speed.update.max)}  (${speed.update.count} single-tool updates)`,
        `remove p50 ${ms(speed.remove.p50)}  p99 ${ms(speed.remove.p99)}  (${speed.remove.count} single-tool removals)`,
      ].join('\n') + '\n',
    );
    if (options.json) writeFileSync(options.json, `${JSON.stringify(speed, null, 2)}\n`);
    return;
  }
  const mode = (options.mode ?? 'lexical') as SearchMode;
  if (!SEARCH_MODES.includes(mode)) throw new UsageError(`--mode must be one of ${SEARCH_MODES.join(', ')}.`);
  if (mode !== 'lexical' && engine !== 'index') throw new UsageError(`--engine ${engine} is lexical only.`);
  if (mode !== 'lexical' && !(options.embeddingsUrl && options.embeddingsModel)) {
    throw new UsageError(`--mode ${mode} needs --embeddings-url (an OpenAI-compatible base URL, e.g. http://127.0.0.1:11434/v1) and --embeddings-model.`);
  }
  const embeddings = mode === 'lexical' ? undefined : { baseUrl: options.embeddingsUrl!, model: options.embeddingsModel!, ...(options.embeddingsKeyEnv && { apiKeyEnv: options.embeddingsKeyEnv }) };
  const tty = process.stderr.isTTY;
  const result = await runBench(input, {
    engine,
    mode,
    trainSplit,
    limitQueries,
    ...(engine === 'index' && { indexOptions: mergeIndexOptions(indexOptions) }),
    ...(llm && { llm }),
    ...(wordVectors && { wordVectors }),
    ...(embeddings && { embeddings, onProgress: (done: number, total: number) => process.stderr.write(tty ? `\rembedding ${done}/${total}` : `embedded ${done}/${total}\n`) }),
  });
  if (embeddings && tty) process.stderr.write('\n');
  const lines = resultLines(result);
  let baseline: BenchResult | undefined;
  if (options.reportBaseline && engine !== 'bm25') {
    // Plain BM25 on exactly the same held queries, in the same process.
    baseline = await runBench(input, { engine: 'bm25', trainSplit, limitQueries });
    const d = (x: number) => `${x >= 0 ? '+' : ''}${x.toFixed(3)}`;
    lines.push(
      ...resultLines(baseline),
      `vs bm25: R@1 ${d(result.recall[1]! - baseline.recall[1]!)}  R@5 ${d(result.recall[5]! - baseline.recall[5]!)}  MRR@10 ${d(result.mrr10 - baseline.mrr10)}`,
    );
  }
  process.stdout.write(`${lines.join('\n')}\n`);
  if (options.json) writeFileSync(options.json, `${JSON.stringify(baseline ? { result, baseline } : result, null, 2)}\n`);
}
