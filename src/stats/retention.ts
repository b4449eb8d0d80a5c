import { PyRandom } from '../rng/index.js';
import { sampleBinomial } from './binomial.js';
import { type DepthCount, normalizeCounts } from './depth-counts.js';
import { quantileLinear } from './quantile.js';
import { logChoose, normalCdf, normalQuantile } from './special.js';

/**
 * 'bca' (default): bias-corrected and accelerated percentile interval; 'percentile': the plain percentile
 * interval of the released code (docs/spec/ccb.md §6.4), which under-covers at low p_d (see test/stats/coverage.test.ts).
 */
export type BootstrapMethod = 'bca' | 'percentile';

/** The paper's admissible range for p_d. */
export const PD_LOWER = 0.5;
export const PD_UPPER = 1;

export interface RetentionMle {
  /** Maximum-likelihood p_d on [0.5, 1]. */
  pd: number;
  /** p_d sits at 0.5: no statistically identifiable step retention (includes "no data"). */
  atLowerBound: boolean;
  /** Full binomial log-likelihood at pd, including Σ ln C(n, c). */
  logLik: number;
  /** Depths with n > 0 after merging duplicates. */
  depthsUsed: number;
}

/**
 * Log-likelihood kernel Σ [c·N·ln p + (n − c)·ln(1 − p^N)] (no binomial coefficients), 0·ln 0 = 0.
 * ln(1 − p^N) is evaluated as ln(−expm1(N ln p)) so that p near 1 keeps full precision.
 */
export function geometricKernel(counts: readonly DepthCount[], p: number): number {
  const x = Math.log(p);
  let total = 0;
  for (const { depth, correct, n } of counts) {
    if (correct > 0) total += correct * depth * x;
    if (n > correct) total += (n - correct) * Math.log(-Math.expm1(depth * x));
  }
  return total;
}

/** Σ ln C(n, c) over the depths. */
export function binomialConstant(counts: readonly DepthCount[]): number {
  return counts.reduce((sum, { correct, n }) => sum + logChoose(n, correct), 0);
}

/** Full binomial log-likelihood of the geometric model p^N (counts must already be normalized). */
export function geometricLogLik(counts: readonly DepthCount[], p: number): number {
  return geometricKernel(counts, p) + binomialConstant(counts);
}

/** dℓ/dx and d²ℓ/dx² in x = ln p, for depths with generic exponents (N or N^γ). */
function scoreAndCurvature(exponents: Float64Array, correct: Float64Array, failed: Float64Array, x: number) {
  let score = 0;
  let curvature = 0;
  for (let i = 0; i < exponents.length; i++) {
    const m = exponents[i];
    score += m * correct[i];
    if (failed[i] > 0) {
      const q = Math.exp(m * x);
      const oneMinusQ = -Math.expm1(m * x);
      const odds = q / oneMinusQ;
      score -= failed[i] * m * odds;
      curvature -= (failed[i] * m * m * odds) / oneMinusQ;
    }
  }
  return { score, curvature };
}

/**
 * Maximises Σ [c·M·x + f·ln(1 − e^{M x})] over x = ln p ∈ [xLow, 0] for exponents M > 0.
 * The objective is strictly concave in x, so its score is decreasing: a safeguarded Newton iteration inside
 * a shrinking sign bracket converges to the exact maximiser (|Δx| ≤ 1e-13). Returns x, or 0 when no trial
 * failed, or xLow when the score at xLow is ≤ 0.
 */
export function maximizeConcaveRetention(
  exponents: Float64Array,
  correct: Float64Array,
  failed: Float64Array,
  xLow: number,
): number {
  let anyFailed = false;
  for (let i = 0; i < failed.length; i++) if (failed[i] > 0) anyFailed = true;
  if (!anyFailed) return 0;
  if (scoreAndCurvature(exponents, correct, failed, xLow).score <= 0) return xLow;
  let lo = xLow; // score(lo) > 0
  let hi = 0; // score → −∞ as x → 0⁻ because some trial failed
  let x = xLow / 2;
  for (let iteration = 0; iteration < 200; iteration++) {
    const { score, curvature } = scoreAndCurvature(exponents, correct, failed, x);
    if (score > 0) lo = x;
    else hi = x;
    let next = x - score / curvature;
    if (!(next > lo && next < hi)) next = (lo + hi) / 2;
    if (Math.abs(next - x) <= 1e-13 || hi - lo <= 1e-13) return next;
    x = next;
  }
  return (lo + hi) / 2;
}

/** Packs normalized counts into typed arrays (exponent, correct, failed) for the inner loops. */
export function packCounts(counts: readonly DepthCount[], exponent: (depth: number) => number = (d) => d) {
  return {
    exponents: Float64Array.from(counts, (c) => exponent(c.depth)),
    correct: Float64Array.from(counts, (c) => c.correct),
    failed: Float64Array.from(counts, (c) => c.n - c.correct),
  };
}

const X_LOWER = Math.log(PD_LOWER);

function fitNormalized(counts: readonly DepthCount[]): RetentionMle {
  if (counts.length === 0) return { pd: PD_LOWER, atLowerBound: true, logLik: 0, depthsUsed: 0 };
  const { exponents, correct, failed } = packCounts(counts);
  const x = maximizeConcaveRetention(exponents, correct, failed, X_LOWER);
  const pd = x === X_LOWER ? PD_LOWER : Math.exp(x);
  return { pd, atLowerBound: pd === PD_LOWER, logLik: geometricLogLik(counts, pd), depthsUsed: counts.length };
}

/**
 * Maximum-likelihood p_d of P(correct | N) = p_d^N on [0.5, 1] (paper 000 §3, docs/spec/ccb.md §6.3): exact, not the
 * release's 5,000-point grid. All correct → 1; no identifiable retention (score ≤ 0 at 0.5, e.g. nothing
 * correct, or no data) → 0.5 with atLowerBound. n = 0 depths are skipped; n may differ between depths.
 */
export function fitRetention(counts: DepthCount[]): RetentionMle {
  return fitNormalized(normalizeCounts(counts));
}

/**
 * The released code's estimator (`fit_pd_model`), kept for parity checks only: first argmin of the
 * clipped NLL over np.linspace(0.5, 0.9999, 5000).
 */
export function fitRetentionReleaseGrid(counts: DepthCount[]): number {
  const data = normalizeCounts(counts);
  const clip = (v: number) => Math.min(Math.max(v, 1e-9), 1 - 1e-9);
  let best = Number.POSITIVE_INFINITY;
  let bestP = PD_LOWER;
  for (let i = 0; i < 5000; i++) {
    const p = clip(0.5 + (i * 0.4999) / 4999);
    let nll = 0;
    for (const { depth, correct, n } of data) {
      const q = clip(p ** depth);
      nll -= correct * Math.log(q) + (n - correct) * Math.log(1 - q);
    }
    if (nll < best) {
      best = nll;
      bestP = 0.5 + (i * 0.4999) / 4999;
    }
  }
  return bestP;
}

/**
 * Parametric-bootstrap percentile interval for p_d (docs/spec/ccb.md §6.4): B resamples k_N ~ Binomial(n_N, p̂^N),
 * each refitted; percentiles by numpy's linear rule. Seeded: one PyRandom(seed), depths drawn in
 * ascending order within each resample. p̂ = 1 gives [1, 1] (every resample is all-correct); use
 * profileLikelihoodCI for a non-degenerate interval there.
 *
 * Performance sanity (not a unit test): 2,000 resamples × 10 depths × refit take ≈ 10–20 ms on a laptop.
 */
export function bootstrapRetentionCI(
  counts: DepthCount[],
  opts: { seed: number; resamples?: number; level?: number; method?: BootstrapMethod },
): [number, number] {
  const data = normalizeCounts(counts);
  const resamples = opts.resamples ?? 2000;
  const level = opts.level ?? 0.95;
  if (!Number.isInteger(resamples) || resamples < 1) throw new RangeError(`resamples=${resamples} must be ≥ 1`);
  if (!(level > 0 && level < 1)) throw new RangeError(`level=${level} must lie strictly between 0 and 1`);
  if (data.length === 0) return [PD_LOWER, PD_UPPER];
  const pd = fitNormalized(data).pd;
  const rng = new PyRandom(opts.seed);
  const { exponents } = packCounts(data);
  const trials = data.map((c) => c.n);
  const probabilities = data.map((c) => pd ** c.depth);
  const correct = new Float64Array(data.length);
  const failed = new Float64Array(data.length);
  const estimates = new Array<number>(resamples);
  for (let b = 0; b < resamples; b++) {
    for (let i = 0; i < data.length; i++) {
      const k = sampleBinomial(rng, trials[i], probabilities[i]);
      correct[i] = k;
      failed[i] = trials[i] - k;
    }
    const x = maximizeConcaveRetention(exponents, correct, failed, X_LOWER);
    estimates[b] = x === X_LOWER ? PD_LOWER : Math.exp(x);
  }
  const tail = (1 - level) / 2;
  const method = opts.method ?? 'bca';
  const [lowerLevel, upperLevel] =
    method === 'bca' ? bcaLevels(data, pd, estimates, tail) : ([tail, 1 - tail] as const);
  return [quantileLinear(estimates, lowerLevel), quantileLinear(estimates, upperLevel)];
}

/**
 * BCa percentile levels (Efron 1987) for the one-parameter model: bias correction z0 = Φ⁻¹(share of replicates
 * below p̂, ties counted half) and the parametric acceleration a = skewness of the score at p̂ / 6, with score
 * U = Σ w_N (c_N − n_N q_N), w_N = N / (1 − q_N), q_N = p̂^N. At a bound of [0.5, 1] (or when every replicate
 * falls on one side) the correction is undefined and the plain percentile levels are returned.
 */
function bcaLevels(
  data: readonly DepthCount[],
  pd: number,
  estimates: readonly number[],
  tail: number,
): [number, number] {
  if (pd <= PD_LOWER || pd >= PD_UPPER) return [tail, 1 - tail];
  let below = 0;
  for (const e of estimates) below += e < pd ? 1 : e === pd ? 0.5 : 0;
  const share = below / estimates.length;
  if (share <= 0 || share >= 1) return [tail, 1 - tail];
  const z0 = normalQuantile(share);
  let k2 = 0;
  let k3 = 0;
  for (const { depth, n } of data) {
    const q = pd ** depth;
    const w = depth / (1 - q);
    k2 += w * w * n * q * (1 - q);
    k3 += w * w * w * n * q * (1 - q) * (1 - 2 * q);
  }
  const a = k2 > 0 ? k3 / (6 * k2 ** 1.5) : 0;
  const adjusted = (alpha: number) => {
    const z = z0 + normalQuantile(alpha);
    const denominator = 1 - a * z;
    return denominator > 0 ? normalCdf(z0 + z / denominator) : Number.NaN;
  };
  const levels: [number, number] = [adjusted(tail), adjusted(1 - tail)];
  // An acceleration so large that 1 − a·z ≤ 0 leaves BCa undefined; fall back to the percentile levels.
  return levels.every((l) => l >= 0 && l <= 1) ? levels : [tail, 1 - tail];
}

/** χ²₁ quantile at `level`, as the square of the normal quantile. */
function chiSquare1Quantile(level: number): number {
  const z = normalQuantile((1 + level) / 2);
  return z * z;
}

/**
 * Profile-likelihood interval {p ∈ [0.5, 1] : 2(ℓ(p̂) − ℓ(p)) ≤ χ²₁(level)}, by bisection on each side
 * (ℓ is unimodal). An end that never crosses the cut-off is the bound itself (0.5 or 1).
 */
export function profileLikelihoodCI(counts: DepthCount[], level = 0.95): [number, number] {
  if (!(level > 0 && level < 1)) throw new RangeError(`level=${level} must lie strictly between 0 and 1`);
  const data = normalizeCounts(counts);
  if (data.length === 0) return [PD_LOWER, PD_UPPER];
  const { pd } = fitNormalized(data);
  const cutoff = geometricKernel(data, pd) - chiSquare1Quantile(level) / 2;
  const inside = (p: number) => geometricKernel(data, p) >= cutoff;
  const crossing = (insideEnd: number, outsideEnd: number) => {
    let a = insideEnd;
    let b = outsideEnd;
    for (let i = 0; i < 200 && Math.abs(b - a) > 1e-13; i++) {
      const mid = (a + b) / 2;
      if (inside(mid)) a = mid;
      else b = mid;
    }
    return (a + b) / 2;
  };
  const lower = inside(PD_LOWER) ? PD_LOWER : crossing(pd, PD_LOWER);
  const upper = inside(PD_UPPER) ? PD_UPPER : crossing(pd, PD_UPPER);
  return [lower, upper];
}

/** Horizon H_s = ln s / ln p_d (Sinha et al.): the depth where p_d^N falls to s; Infinity when p_d = 1. */
export function horizon(pd: number, success: number): number {
  if (!(pd > 0 && pd <= 1)) throw new RangeError(`horizon: pd=${pd} must lie in (0, 1]`);
  if (!(success > 0 && success < 1)) throw new RangeError(`horizon: success=${success} must lie in (0, 1)`);
  if (pd === 1) return Number.POSITIVE_INFINITY;
  return Math.log(success) / Math.log(pd);
}
