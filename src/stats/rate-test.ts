import type { PyRandom } from '../rng/index.js';
import { binomialCdf, sampleBinomial } from './binomial.js';
import { normalCdf, normalQuantile } from './special.js';

/**
 * An upper-threshold rate gate (maxTfbcRate: the share of correct answers with a divergent trace) as a test with
 * stated errors (docs/gates.md#error-controlled-gates), the binomial counterpart of the retention test in
 * sequential.ts: each of n events is "bad" with probability r; the log likelihood ratio of the alternative
 * r₁ = threshold + margin (a model over the limit by the margin) against the null r₀ = threshold is
 *
 *     Λ = x · ln(r₁/r₀) + (n − x) · ln((1 − r₁)/(1 − r₀))
 *
 * and the gate FAILS when Λ ≥ ln(1/α). Under r₀, e^Λ is a non-negative martingale with mean 1 as events accrue;
 * under any r < r₀ each event's factor has mean below 1. By Ville's inequality the chance it ever reaches 1/α is
 * at most α — for one look and for any number of looks, whatever stopped the trials (the sequential design stops
 * on the retention test; this bound does not care). r₀ = 0 is allowed: one bad event is then conclusive (Λ = ∞),
 * and a model at 0 never fails.
 */
export interface RateTest {
  /** r₀: the most the rate may be. */
  threshold: number;
  /** The smallest excess the test must catch: r₁ = threshold + margin. */
  margin: number;
  alpha: number;
}

/** Throws a RangeError unless 0 ≤ threshold < threshold + margin < 1 and 0 < α < 1. */
export function checkRateTest(test: RateTest): void {
  const { threshold, margin, alpha } = test;
  if (!(threshold >= 0 && threshold < 1)) throw new RangeError(`threshold=${threshold} must lie in [0, 1)`);
  if (!(margin > 0 && threshold + margin < 1))
    throw new RangeError(`margin=${margin} must be > 0 with threshold + margin < 1`);
  if (!(alpha > 0 && alpha < 1)) throw new RangeError(`alpha=${alpha} must lie in (0, 1)`);
}

/** Λ for x bad events out of n (∞ when r₀ = 0 and x > 0). */
export function rateLogLikelihoodRatio(x: number, n: number, test: RateTest): number {
  const r0 = test.threshold;
  const r1 = test.threshold + test.margin;
  const bad = x === 0 ? 0 : x * (Math.log(r1) - Math.log(r0));
  const good = n - x === 0 ? 0 : (n - x) * (Math.log1p(-r1) - Math.log1p(-r0));
  return bad + good;
}

/** Fails iff Λ ≥ ln(1/α) on x bad events out of n. */
export function rateTestFails(x: number, n: number, test: RateTest): boolean {
  checkRateTest(test);
  return rateLogLikelihoodRatio(x, n, test) >= Math.log(1 / test.alpha);
}

/** The fewest bad events out of n that fail the test (n + 1 when none does). Λ rises with x. */
export function rateCriticalCount(n: number, test: RateTest): number {
  checkRateTest(test);
  const critical = Math.log(1 / test.alpha);
  for (let x = 0; x <= n; x++) if (rateLogLikelihoodRatio(x, n, test) >= critical) return x;
  return n + 1;
}

/** P(the one-look test on n events fails) when the true rate is r: exact, a binomial tail. */
export function rateTestFailProbability(n: number, test: RateTest, r: number): number {
  const k = rateCriticalCount(n, test);
  if (k > n) return 0;
  return 1 - binomialCdf(k - 1, n, r);
}

/**
 * About the fewest events at which the one-look test reaches `power` at r₁ (doubling, then bisection: the exact power
 * is not monotone in n by a little, as every discrete test's); null beyond 100,000.
 */
export function rateTestTrials(test: RateTest, power: number): number | null {
  const r1 = test.threshold + test.margin;
  const enough = (n: number) => rateTestFailProbability(n, test, r1) >= power;
  let hi = 8;
  while (!enough(hi)) {
    hi *= 2;
    if (hi > 100_000) return null;
  }
  let lo = hi / 2;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (enough(mid)) hi = mid;
    else lo = mid;
  }
  return hi;
}

/** Simulated one-look runs at true rate r on n events: the share that fail (for tests and the calibration study). */
export function simulateRateTest(rng: PyRandom, n: number, test: RateTest, r: number, runs: number): number {
  let fails = 0;
  for (let i = 0; i < runs; i++) if (rateTestFails(sampleBinomial(rng, n, r), n, test)) fails++;
  return fails / runs;
}

/**
 * The power of a one-sided bound test on a difference (notWorseThan: fail iff the (1 − α) upper bound of Δ is below
 * −margin) to catch a difference one `shortfall` beyond −margin, when Δ's estimate has standard error `se`: about
 * Φ(shortfall/se − z₁₋α) (the normal approximation of the bound; src/leaderboard/not-worse.ts).
 */
export function boundTestPower(se: number, shortfall: number, alpha: number): number {
  if (!(se > 0)) return shortfall > 0 ? 1 : alpha;
  return normalCdf(shortfall / se - normalQuantile(1 - alpha));
}
