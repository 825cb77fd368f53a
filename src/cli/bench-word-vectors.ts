// Owns the word-vector inputs of `bench retrieval`: `--word-vectors <file>` (or the environment
// variable SWITCHBOARD_WORD_VECTORS) names the wink-embeddings JSON or a compact vectors file, and
// `--vector-options <json>` sets the averaging and fusion parameters (validated here). Reports the
// table's load time and memory on stderr, since that cost is part of the result.
import { z } from 'zod';
import type { BenchOptions } from '../search/bench.js';
import { FUSION_METHODS } from '../search/word-vectors/fusion.js';
import { loadWordVectorFile } from '../search/word-vectors/load.js';
import { WORD_WEIGHTINGS } from '../search/word-vectors/word-vector-index.js';
import { UsageError } from './inventory.js';

const VectorOptions = z
  .object({
    weighting: z.enum(WORD_WEIGHTINGS),
    sifA: z.number().positive(),
    nameWeight: z.number().nonnegative(),
    params: z.boolean(),
    dropStopWords: z.boolean(),
    removeCommonComponent: z.boolean(),
    fusion: z
      .object({
        method: z.enum(FUSION_METHODS),
        k: z.number().positive(),
        depth: z.number().int().positive(),
        vectorWeight: z.number().nonnegative(),
      })
      .partial()
      .strict(),
  })
  .partial()
  .strict();

export function loadWordVectorsForBench(file: string | undefined, optionsJson: string | undefined): BenchOptions['wordVectors'] {
  const source = file ?? process.env.SWITCHBOARD_WORD_VECTORS;
  if (!source) {
    if (optionsJson !== undefined) throw new UsageError('--vector-options needs --word-vectors <file> (or SWITCHBOARD_WORD_VECTORS).');
    return undefined;
  }
  let parsed: z.infer<typeof VectorOptions> = {};
  if (optionsJson !== undefined) {
    try {
      parsed = VectorOptions.parse(JSON.parse(optionsJson));
    } catch (error) {
      throw new UsageError(`--vector-options must be a JSON object such as '{"weighting":"sif","nameWeight":2,"fusion":{"method":"rrf"}}': ${(error as Error).message}`);
    }
  }
  const heapBefore = process.memoryUsage();
  const started = performance.now();
  const table = loadWordVectorFile(source);
  const ms = performance.now() - started;
  global.gc?.();
  const after = process.memoryUsage();
  const mb = (x: number) => `${(x / 2 ** 20).toFixed(0)} MB`;
  process.stderr.write(
    `word vectors: ${table.size} words of ${table.dimensions} dimensions from ${source} in ${ms.toFixed(0)} ms; ` +
      `heap +${mb(after.heapUsed - heapBefore.heapUsed)}, rss ${mb(after.rss)}, array buffers +${mb(after.arrayBuffers - heapBefore.arrayBuffers)}\n`,
  );
  const { fusion, ...options } = parsed;
  return { table, options, ...(fusion && { fusion }) };
}
