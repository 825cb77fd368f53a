// Owns `bench retrieval --cross <folders> --tune-on <set>`: the two-fold protocol of issue 20 from
// the command line. Validates the tuning flags, tunes the engine's knobs on the named set only, and
// prints the chosen configuration with every set's run (plain BM25, start, shipped, tuned) and a
// verdict per confirming set.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { loadBench } from '../search/bench.js';
import type { EvalSet } from '../search/cross.js';
import { confirmOn, DEFAULT_TUNE_OPTIONS, formatTune, tune, TUNE_METRICS, type TuneOptions } from '../search/tune.js';
import { WORD_LISTS } from '../search/tune-knobs.js';
import { UsageError } from './inventory.js';

export interface BenchTuneFlags {
  tuneOn: string;
  lists?: string;
  tuneSample?: string;
  tuneSeed?: string;
  tunePasses?: string;
  tuneMetric?: string;
  limitQueries?: number;
  json?: string;
}

const positiveInt = (flag: string) =>
  z.coerce.number({ message: `${flag} must be a positive integer.` }).int(`${flag} must be a positive integer.`).positive(`${flag} must be a positive integer.`);

const FlagsSchema = z.object({
  lists: z.enum(WORD_LISTS, { message: `--lists must be one of ${WORD_LISTS.join(', ')} (the curated synonym lists off or on).` }).default(DEFAULT_TUNE_OPTIONS.lists),
  sample: positiveInt('--tune-sample').default(DEFAULT_TUNE_OPTIONS.sample),
  seed: z.coerce.number({ message: '--tune-seed must be an integer.' }).int('--tune-seed must be an integer.').default(DEFAULT_TUNE_OPTIONS.seed),
  passes: positiveInt('--tune-passes').max(5, '--tune-passes is at most 5 (the search stays bounded).').default(DEFAULT_TUNE_OPTIONS.passes),
  metric: z.enum(TUNE_METRICS, { message: `--tune-metric must be one of ${TUNE_METRICS.join(', ')}.` }).default(DEFAULT_TUNE_OPTIONS.metric),
});

function parseFlags(flags: BenchTuneFlags): TuneOptions {
  const parsed = FlagsSchema.safeParse({ lists: flags.lists, sample: flags.tuneSample, seed: flags.tuneSeed, passes: flags.tunePasses, metric: flags.tuneMetric });
  if (!parsed.success) throw new UsageError(parsed.error.issues.map((i) => i.message).join(' '));
  return parsed.data;
}

/** The set `--tune-on` names: by set name, or by folder. */
function findSet(sets: readonly EvalSet[], wanted: string): EvalSet {
  const byName = sets.find((s) => s.name === wanted);
  const byFolder = sets.find((s) => path.resolve(path.dirname(s.tools)) === path.resolve(wanted));
  const found = byName ?? byFolder;
  if (!found) throw new UsageError(`--tune-on ${wanted}: no such set; the --cross folders hold ${sets.map((s) => s.name).join(', ')}.`);
  return found;
}

export async function benchTuneCommand(sets: readonly EvalSet[], flags: BenchTuneFlags): Promise<void> {
  const options = parseFlags(flags);
  if (sets.length < 2) throw new UsageError('--tune-on needs at least two sets in the --cross folders: one to tune on, one to confirm on.');
  const tuneSet = findSet(sets, flags.tuneOn);
  const loaded = sets.map((s) => ({ name: s.name, input: loadBench(s.tools, s.queries) }));
  const tuned = tune(loaded.find((s) => s.name === tuneSet.name)!.input, options);
  const rows = await confirmOn(loaded, tuneSet.name, tuned, flags.limitQueries);
  process.stdout.write(`${formatTune(tuneSet.name, options, tuned, rows).join('\n')}\n`);
  if (flags.json) writeFileSync(flags.json, `${JSON.stringify({ tunedOn: tuneSet.name, options, tuned, rows }, null, 2)}\n`);
}
