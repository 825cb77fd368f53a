// @ts-check
// Small statistics helpers: percentiles of latency samples and medians across rounds.

/**
 * The q-quantile (0..1) of samples, by linear interpolation between closest ranks.
 * @param {ArrayLike<number>} samples
 * @param {number} q
 * @returns {number | null}
 */
export function quantile(samples, q) {
  const n = samples.length;
  if (n === 0) return null;
  const sorted = Float64Array.from(samples).sort();
  const rank = q * (n - 1);
  const low = Math.floor(rank);
  const high = Math.min(n - 1, low + 1);
  return sorted[low] + (sorted[high] - sorted[low]) * (rank - low);
}

/**
 * The median of the numbers among values (nulls and undefined are ignored); null when there are none.
 * @param {Array<number | null | undefined>} values
 * @returns {number | null}
 */
export function median(values) {
  const present = /** @type {number[]} */ (values.filter((v) => typeof v === 'number' && Number.isFinite(v)));
  return quantile(present, 0.5);
}

/**
 * Rounds to a number of decimals, passing null through.
 * @param {number | null | undefined} value
 * @param {number} [decimals]
 * @returns {number | null}
 */
export function round(value, decimals = 3) {
  if (typeof value !== 'number' || !Number.isFinite(value)) return null;
  const factor = 10 ** decimals;
  return Math.round(value * factor) / factor;
}

/**
 * Latency summary of samples in milliseconds.
 * @param {ArrayLike<number>} samples
 */
export function summarize(samples) {
  return {
    n: samples.length,
    p50_ms: round(quantile(samples, 0.5)),
    p90_ms: round(quantile(samples, 0.9)),
    p99_ms: round(quantile(samples, 0.99)),
  };
}

/**
 * A bootstrap confidence interval of the median: `resamples` resamples with replacement, drawn with
 * a fixed-seed generator so the same samples always give the same interval. Null for no samples.
 * @param {number[]} samples
 * @param {{level?: number, resamples?: number, seed?: number}} [options]
 * @returns {[number, number] | null}
 */
export function bootstrapMedianCi(samples, { level = 0.95, resamples = 2000, seed = 0x5eed } = {}) {
  const n = samples.length;
  if (n === 0) return null;
  let state = seed >>> 0;
  // mulberry32: small, fast, and good enough to pick indices
  const random = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const medians = new Float64Array(resamples);
  const draw = new Float64Array(n);
  for (let b = 0; b < resamples; b++) {
    for (let i = 0; i < n; i++) draw[i] = samples[Math.floor(random() * n)];
    medians[b] = /** @type {number} */ (quantile(draw, 0.5));
  }
  const tail = (1 - level) / 2;
  return [/** @type {number} */ (quantile(medians, tail)), /** @type {number} */ (quantile(medians, 1 - tail))];
}
