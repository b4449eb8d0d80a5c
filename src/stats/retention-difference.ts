import { PyRandom } from '../rng/index.js';
import { sampleBinomial } from './binomial.js';
import type { DepthCount } from './depth-counts.js';
import { quantileLinear } from './quantile.js';
import { fitRetention } from './retention.js';

/**
 * The parametric bootstrap behind retentionDifference, from a given RNG: candidate − baseline, and the B
 * resampled differences (each side's per-depth counts redrawn from its own fitted p̂^N and refitted,
 * independently; candidate first within each resample), in draw order.
 */
export function retentionDifferenceDraws(
  baseline: DepthCount[],
  candidate: DepthCount[],
  options: { rng: PyRandom; resamples?: number },
): { difference: number; draws: number[] } {
  const resamples = options.resamples ?? 2000;
  const base = fitRetention(baseline).pd;
  const cand = fitRetention(candidate).pd;
  const { rng } = options;
  const draw = (counts: DepthCount[], pd: number): DepthCount[] =>
    counts.map((c) => ({ ...c, correct: sampleBinomial(rng, c.n, pd ** c.depth) }));
  const draws: number[] = [];
  for (let b = 0; b < resamples; b++) {
    draws.push(fitRetention(draw(candidate, cand)).pd - fitRetention(draw(baseline, base)).pd);
  }
  return { difference: cand - base, draws };
}

/**
 * Δp_d = candidate − baseline with a 95% parametric-bootstrap interval: each side's per-depth counts
 * are resampled from its own fitted p̂^N and refitted, independently, B times.
 */
export function retentionDifference(
  baseline: DepthCount[],
  candidate: DepthCount[],
  options: { seed: number; resamples?: number },
): { difference: number; ci95: [number, number] } {
  const rng = new PyRandom(`compare-retention:${options.seed}`);
  const { difference, draws } = retentionDifferenceDraws(baseline, candidate, { rng, resamples: options.resamples });
  draws.sort((a, b) => a - b);
  return { difference, ci95: [quantileLinear(draws, 0.025), quantileLinear(draws, 0.975)] };
}
