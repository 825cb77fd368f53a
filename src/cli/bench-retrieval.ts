// Owns `switchboard bench retrieval`: score the tool search on an eval set (format of
// eval/retrieval/README.md) and print Recall@k, Complete@k, MRR@10, nDCG@10 and latency.
import { writeFileSync } from 'node:fs';
import { loadBench, runBench, type BenchOptions } from '../search/bench.js';
import { SEARCH_MODES, type SearchMode } from '../search/engine.js';
import { runSpeed } from '../search/speed.js';
import { UsageError } from './inventory.js';

export interface BenchRetrievalOptions {
  tools: string;
  queries: string;
  trainSplit?: string;
  limitQueries?: string;
  engine?: string;
  mode?: string;
  embeddingsUrl?: string;
  embeddingsModel?: string;
  embeddingsKeyEnv?: string;
  scale?: string;
  json?: string;
}

export async function benchRetrievalCommand(options: BenchRetrievalOptions): Promise<void> {
  const trainSplit = options.trainSplit === undefined ? undefined : Number(options.trainSplit);
  if (trainSplit !== undefined && !(trainSplit >= 0 && trainSplit < 1)) throw new UsageError('--train-split must be a fraction in [0, 1).');
  const limitQueries = options.limitQueries === undefined ? undefined : Number(options.limitQueries);
  if (limitQueries !== undefined && !(Number.isInteger(limitQueries) && limitQueries > 0)) throw new UsageError('--limit-queries must be a positive integer.');
  const engine = (options.engine ?? 'index') as BenchOptions['engine'];
  if (engine !== 'index' && engine !== 'bm25') throw new UsageError('--engine must be index or bm25.');
  const input = loadBench(options.tools, options.queries);
  if (options.scale !== undefined) {
    const target = Number(options.scale);
    if (!(Number.isInteger(target) && target > 0)) throw new UsageError('--scale must be a positive integer.');
    const speed = runSpeed(input.tools, target, input.queries.slice(0, limitQueries ?? 2000).map((q) => q.query));
    const ms = (x: number) => `${x.toFixed(3)} ms`;
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
  if (mode !== 'lexical' && engine === 'bm25') throw new UsageError('--engine bm25 is lexical only.');
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
    ...(embeddings && { embeddings, onProgress: (done: number, total: number) => process.stderr.write(tty ? `\rembedding ${done}/${total}` : `embedded ${done}/${total}\n`) }),
  });
  if (embeddings && tty) process.stderr.write('\n');
  const f = (x: number) => x.toFixed(3);
  const lines = [
    `engine ${result.engine}, ${result.mode}: ${result.tools} tools, ${result.queries} queries scored${result.trainQueries ? `, ${result.trainQueries} learned` : ''}, indexed in ${result.indexMs.toFixed(1)} ms`,
    `Recall@1 ${f(result.recall[1]!)}  @3 ${f(result.recall[3]!)}  @5 ${f(result.recall[5]!)}  @10 ${f(result.recall[10]!)}`,
    `Complete@5 ${f(result.complete[5]!)}  @10 ${f(result.complete[10]!)}`,
    `MRR@10 ${f(result.mrr10)}  nDCG@10 ${f(result.ndcg10)}`,
    `latency p50 ${result.latencyMs.p50.toFixed(3)} ms  p99 ${result.latencyMs.p99.toFixed(3)} ms${result.embedMs !== undefined ? `  (tools embedded in ${result.embedMs.toFixed(0)} ms)` : ''}`,
    ...(result.degraded ? [`warning: ${result.degraded.queries} queries answered lexically: ${result.degraded.reason}`] : []),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  if (options.json) writeFileSync(options.json, `${JSON.stringify(result, null, 2)}\n`);
}
