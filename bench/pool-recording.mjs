// @ts-check
// Pools several `npm run bench -- --recording --json FILE` runs into one estimate, because one run on
// a shared machine moves by a few points from the next (see docs/performance.md):
//   node bench/pool-recording.mjs run1.json run2.json ...
// Prints, over every adjacent (on, off) pair of every run: the median per-pair cost, and the cost of
// the aggregate throughput (all calls over all time, per variant); each with a 95 % bootstrap
// interval that resamples whole rounds (blocks of one round share the machine's state).
import { readFileSync } from 'node:fs';
import { quantile } from './lib/stats.mjs';

/** @typedef {{round: number, pair: number, variant: 'on' | 'off', calls: number, wall_ms: number}} Sample */
/** @typedef {{on: Sample, off: Sample}} Pair */

const files = process.argv.slice(2);
if (files.length === 0) {
  process.stderr.write('usage: node bench/pool-recording.mjs RUN.json [RUN.json ...] (files written by npm run bench -- --recording --json RUN.json)\n');
  process.exit(2);
}

/** @type {Pair[][]} pairs grouped by (run, round) */
const rounds = [];
for (const file of files) {
  /** @type {{samples: Sample[], plan?: {rounds: number}}} */
  const run = JSON.parse(readFileSync(file, 'utf8'));
  /** @type {Map<number, Map<number, Partial<Pair>>>} */
  const byRound = new Map();
  for (const s of run.samples) {
    let pairs = byRound.get(s.round);
    if (!pairs) byRound.set(s.round, (pairs = new Map()));
    let pair = pairs.get(s.pair);
    if (!pair) pairs.set(s.pair, (pair = {}));
    pair[s.variant] = s;
  }
  for (const pairs of byRound.values()) rounds.push(/** @type {Pair[]} */ ([...pairs.values()].filter((p) => p.on && p.off)));
}

/** @param {Pair} p */
const ratio = (p) => p.on.calls / p.on.wall_ms / (p.off.calls / p.off.wall_ms);
/** @param {Pair[]} pairs */
const perPair = (pairs) => /** @type {number} */ (quantile(pairs.map(ratio), 0.5));
/** @param {Pair[]} pairs */
const aggregate = (pairs) => {
  const total = { on: [0, 0], off: [0, 0] };
  for (const p of pairs) for (const v of /** @type {const} */ (['on', 'off'])) (total[v][0] += p[v].calls), (total[v][1] += p[v].wall_ms);
  return total.on[0] / total.on[1] / (total.off[0] / total.off[1]);
};

let seed = 0x5eed;
const random = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
/** @param {(pairs: Pair[]) => number} statistic */
function bootstrap(statistic) {
  const values = [];
  for (let b = 0; b < 2000; b++) {
    const pairs = [];
    for (let i = 0; i < rounds.length; i++) pairs.push(...rounds[Math.floor(random() * rounds.length)]);
    values.push(statistic(pairs));
  }
  return [quantile(values, 0.025), quantile(values, 0.975)];
}

const all = rounds.flat();
const cost = (/** @type {number | null} */ r) => (r === null ? '–' : `${((1 - r) * 100).toFixed(2)} %`);
for (const [label, statistic] of /** @type {const} */ ([['median per-pair cost', perPair], ['aggregate throughput cost', aggregate]])) {
  const [low, high] = bootstrap(statistic);
  process.stdout.write(`${label}: ${cost(statistic(all))} (95 % CI ${cost(high)} to ${cost(low)})\n`);
}
process.stdout.write(`${files.length} run(s), ${rounds.length} rounds, ${all.length} pairs\n`);
