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
