// Owns the statistics of description evaluation, as pure functions: Wilson and Clopper–Pearson intervals,
// exact binomial tails (McNemar), a sign-flip permutation test clustered by prompt, a bootstrap lower bound
// over prompts, Holm's correction, and a seeded RNG so every result is reproducible.

/** mulberry32: a small, fast, seeded PRNG with uniform output in [0, 1). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Standard normal quantile (Acklam's rational approximation, |error| < 1.2e-9 after one Newton step). */
export function normalQuantile(p: number): number {
  if (!(p > 0 && p < 1)) throw new RangeError(`normalQuantile: p must be in (0, 1), got ${p}`);
  const a = [-39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716, 2.506628277459239];
  const b = [-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572];
  const c = [-0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968, 2.938163982698783];
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
  const low = 0.02425;
  let x: number;
  if (p < low) {
    const q = Math.sqrt(-2 * Math.log(p));
    x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  } else if (p <= 1 - low) {
    const q = p - 0.5;
    const r = q * q;
    x = ((((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q) / (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
  } else {
    const q = Math.sqrt(-2 * Math.log(1 - p));
    x = -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  }
  return x;
}

export interface Interval {
  rate: number;
  low: number;
  high: number;
}

/** Wilson score interval for k successes in n trials at the given two-sided confidence (default 95%). */
export function wilson(k: number, n: number, confidence = 0.95): Interval {
  if (n === 0) return { rate: 0, low: 0, high: 1 };
  const z = normalQuantile(1 - (1 - confidence) / 2);
  const p = k / n;
  const denom = 1 + (z * z) / n;
  const centre = (p + (z * z) / (2 * n)) / denom;
  const half = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / denom;
  return { rate: p, low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

function logGamma(x: number): number {
  // Lanczos approximation (g = 7, n = 9).
  const g = 7;
  const coef = [0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7];
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x);
  const y = x - 1;
  let s = coef[0];
  for (let i = 1; i < g + 2; i++) s += coef[i] / (y + i);
  const t = y + g + 0.5;
  return 0.5 * Math.log(2 * Math.PI) + (y + 0.5) * Math.log(t) - t + Math.log(s);
}

/** Continued fraction of the incomplete beta function (modified Lentz). */
function betaFraction(x: number, a: number, b: number): number {
  const tiny = 1e-300;
  let c = 1;
  let d = 1 - ((a + b) * x) / (a + 1);
  if (Math.abs(d) < tiny) d = tiny;
  d = 1 / d;
  let h = d;
  for (let m = 1; m <= 300; m++) {
    const m2 = 2 * m;
    let num = (m * (b - m) * x) / ((a + m2 - 1) * (a + m2));
    d = 1 + num * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + num / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    h *= d * c;
    num = (-(a + m) * (a + b + m) * x) / ((a + m2) * (a + m2 + 1));
    d = 1 + num * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + num / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const step = d * c;
    h *= step;
    if (Math.abs(step - 1) < 1e-14) break;
  }
  return h;
}

/** Regularized incomplete beta I_x(a, b). */
export function incompleteBeta(x: number, a: number, b: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const front = Math.exp(logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log(1 - x));
  if (x < (a + 1) / (a + b + 2)) return (front * betaFraction(x, a, b)) / a;
  return 1 - (front * betaFraction(1 - x, b, a)) / b;
}

/** The p-quantile of Beta(a, b), by bisection on the incomplete beta (60 halvings: ~1e-18). */
export function betaQuantile(p: number, a: number, b: number): number {
  let lo = 0;
  let hi = 1;
  for (let i = 0; i < 60; i++) {
    const mid = (lo + hi) / 2;
    if (incompleteBeta(mid, a, b) < p) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/** Clopper–Pearson (exact) two-sided interval for k of n at the given confidence (default 95%). */
export function clopperPearson(k: number, n: number, confidence = 0.95): Interval {
  if (n === 0) return { rate: 0, low: 0, high: 1 };
  const alpha = 1 - confidence;
  return {
    rate: k / n,
    low: k === 0 ? 0 : betaQuantile(alpha / 2, k, n - k + 1),
    high: k === n ? 1 : betaQuantile(1 - alpha / 2, k + 1, n - k),
  };
}

/** P(X >= k) for X ~ Binomial(n, p). */
export function binomialUpperTail(k: number, n: number, p = 0.5): number {
  if (k <= 0) return 1;
  if (k > n) return 0;
  let total = 0;
  for (let i = k; i <= n; i++) total += Math.exp(logChoose(n, i) + i * Math.log(p) + (n - i) * Math.log(1 - p));
  return Math.min(1, total);
}

function logChoose(n: number, k: number): number {
  return logGamma(n + 1) - logGamma(k + 1) - logGamma(n - k + 1);
}

/**
 * Exact McNemar test, one-sided (candidate better): `better` = pairs the candidate got right and the baseline
 * wrong, `worse` = the opposite. p = P(Bin(better + worse, 1/2) >= better).
 */
export function mcnemarExact(better: number, worse: number): number {
  return binomialUpperTail(better, better + worse, 0.5);
}

export interface PermutationOptions {
  /** Enumerate every sign assignment up to this many non-zero differences (2^n); above it, sample. */
  exactUpTo?: number;
  samples?: number;
  seed?: number;
}

/**
 * One-sided sign-flip permutation test on per-prompt paired differences (each prompt one cluster: its repeats
 * averaged first). H0: differences symmetric around 0. p = share of sign assignments whose sum >= the observed
 * sum (exact enumeration for few prompts, else (hits + 1) / (samples + 1) with a seeded RNG).
 */
export function signFlipTest(differences: readonly number[], options: PermutationOptions = {}): number {
  const values = differences.filter((d) => Math.abs(d) > 1e-12);
  if (values.length === 0) return 1;
  const observed = values.reduce((s, d) => s + d, 0) - 1e-9;
  const exactUpTo = options.exactUpTo ?? 16;
  if (values.length <= exactUpTo) {
    const total = 2 ** values.length;
    let hits = 0;
    for (let mask = 0; mask < total; mask++) {
      let sum = 0;
      for (let i = 0; i < values.length; i++) sum += mask & (1 << i) ? -values[i] : values[i];
      if (sum >= observed) hits++;
    }
    return hits / total;
  }
  const random = seededRandom(options.seed ?? 1);
  const samples = options.samples ?? 20_000;
  let hits = 0;
  for (let s = 0; s < samples; s++) {
    let sum = 0;
    for (const d of values) sum += random() < 0.5 ? -d : d;
    if (sum >= observed) hits++;
  }
  return (hits + 1) / (samples + 1);
}

/** Lower bound of the mean of `values` at `level` (e.g. 0.90: the 10th percentile), percentile bootstrap over the values. */
export function bootstrapMeanLowerBound(values: readonly number[], level: number, options: { samples?: number; seed?: number } = {}): number {
  if (values.length === 0) return 0;
  const distinct = new Set(values);
  if (distinct.size === 1) return values[0];
  const random = seededRandom(options.seed ?? 7);
  const samples = options.samples ?? 4000;
  const means = new Float64Array(samples);
  for (let s = 0; s < samples; s++) {
    let sum = 0;
    for (let i = 0; i < values.length; i++) sum += values[Math.floor(random() * values.length)];
    means[s] = sum / values.length;
  }
  means.sort();
  return means[Math.floor((1 - level) * samples)];
}

/** Holm–Bonferroni adjusted p-values (same order as given; monotone, capped at 1). */
export function holm(pValues: readonly number[]): number[] {
  const order = pValues.map((p, i) => ({ p, i })).sort((x, y) => x.p - y.p);
  const adjusted = new Array<number>(pValues.length);
  let running = 0;
  order.forEach(({ p, i }, rank) => {
    running = Math.max(running, Math.min(1, (pValues.length - rank) * p));
    adjusted[i] = running;
  });
  return adjusted;
}
