import type { PyRandom } from '../rng/index.js';
import { logChoose, regularizedBeta } from './special.js';

function checkTrials(n: number): void {
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`binomial: n=${n} must be a non-negative integer`);
}

function checkProbability(p: number): void {
  if (!(p >= 0 && p <= 1)) throw new RangeError(`binomial: p=${p} must lie in [0, 1]`);
}

/** ln P(X = k) for X ~ Binomial(n, p), with 0 · ln 0 = 0 at p ∈ {0, 1}. */
export function binomialLogPmf(k: number, n: number, p: number): number {
  checkTrials(n);
  checkProbability(p);
  if (!Number.isInteger(k) || k < 0 || k > n) return Number.NEGATIVE_INFINITY;
  const successTerm = k === 0 ? 0 : k * Math.log(p);
  const failureTerm = k === n ? 0 : (n - k) * Math.log1p(-p);
  return logChoose(n, k) + successTerm + failureTerm;
}

/** P(X ≤ k) for X ~ Binomial(n, p), via P(X ≤ k) = I_{1−p}(n − k, k + 1). */
export function binomialCdf(k: number, n: number, p: number): number {
  checkTrials(n);
  checkProbability(p);
  const floor = Math.floor(k);
  if (floor < 0) return 0;
  if (floor >= n) return 1;
  if (p === 0) return 1;
  if (p === 1) return 0;
  return regularizedBeta(1 - p, n - floor, floor + 1);
}

/** Below this ln P(X = 0) the bottom-up inversion would underflow; bisect on the CDF instead. */
const MIN_LOG_START = -700;

/**
 * One draw from Binomial(n, p), using only `rng.random()` (one uniform per draw).
 *
 * Exact inversion: X = min{k : F(k) ≥ U}. For p > 1/2 the draw is n − Binomial(n, 1 − p) so that the
 * bottom-up walk is short; the walk accumulates the pmf by the ratio recurrence from P(X = 0) = (1−p)^n.
 * When (1−p)^n would underflow (n·p ≳ 700) it bisects on the CDF (incomplete beta) instead, which costs
 * O(log n) incomplete-beta evaluations per draw but stays exact.
 */
export function sampleBinomial(rng: PyRandom, n: number, p: number): number {
  checkTrials(n);
  checkProbability(p);
  if (n === 0 || p === 0) return 0;
  if (p === 1) return n;
  if (p > 0.5) return n - sampleBinomial(rng, n, 1 - p);
  const u = rng.random();
  const logStart = n * Math.log1p(-p);
  if (logStart < MIN_LOG_START) return invertByBisection(u, n, p);
  const ratio = p / (1 - p);
  let pmf = Math.exp(logStart);
  let cdf = pmf;
  let k = 0;
  while (u > cdf && k < n) {
    pmf *= (ratio * (n - k)) / (k + 1);
    k++;
    cdf += pmf;
  }
  return k;
}

function invertByBisection(u: number, n: number, p: number): number {
  let lo = 0; // invariant: F(lo − 1) < u (F(−1) = 0)
  let hi = n; // invariant: F(hi) ≥ u
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if (binomialCdf(mid, n, p) >= u) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}
