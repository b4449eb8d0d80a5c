import { PyRandom } from '../rng/index.js';
import { type DepthCount, fitRetention, quantileLinear, sampleBinomial } from '../stats/index.js';

/**
 * Δp_d = candidate − baseline with a 95% parametric-bootstrap interval: each side's per-depth counts
 * are resampled from its own fitted p̂^N and refitted, independently, B times.
 */
export function retentionDifference(
  baseline: DepthCount[],
  candidate: DepthCount[],
  options: { seed: number; resamples?: number },
): { difference: number; ci95: [number, number] } {
  const resamples = options.resamples ?? 2000;
  const base = fitRetention(baseline).pd;
  const cand = fitRetention(candidate).pd;
  const rng = new PyRandom(`compare-retention:${options.seed}`);
  const draw = (counts: DepthCount[], pd: number): DepthCount[] =>
    counts.map((c) => ({ ...c, correct: sampleBinomial(rng, c.n, pd ** c.depth) }));
  const differences: number[] = [];
  for (let b = 0; b < resamples; b++) {
    differences.push(fitRetention(draw(candidate, cand)).pd - fitRetention(draw(baseline, base)).pd);
  }
  differences.sort((a, b) => a - b);
  return { difference: cand - base, ci95: [quantileLinear(differences, 0.025), quantileLinear(differences, 0.975)] };
}
