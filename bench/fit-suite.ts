import type { Bench } from 'tinybench';
import { PyRandom } from '../src/rng/index.js';
import { bootstrapRetentionCI, type DepthCount, estimateRetention, fitRetention } from '../src/stats/index.js';

/** A 40 × 10 CCB grid (depths 5…50) of Bernoulli(p^N) outcomes, seeded. */
export function simulatedGrid(p: number, seed: number): DepthCount[] {
  const rng = new PyRandom(seed);
  return [5, 10, 15, 20, 25, 30, 35, 40, 45, 50].map((depth) => {
    let correct = 0;
    for (let i = 0; i < 40; i++) if (rng.random() < p ** depth) correct++;
    return { depth, correct, n: 40 };
  });
}

/** The p_d fit of one 40 × 10 grid: the MLE alone, the 2,000-resample BCa bootstrap, and the full estimate. */
export function addFitBenches(bench: Bench): void {
  const grid = simulatedGrid(0.95, 7);
  bench.add('p_d fit · MLE (40 × 10 grid)', () => {
    fitRetention(grid);
  });
  bench.add('p_d fit · bootstrap BCa, 2,000 resamples', () => {
    bootstrapRetentionCI(grid, { seed: 1, resamples: 2000 });
  });
  bench.add('p_d fit · estimateRetention (MLE + bootstrap 2,000 + profile + alternatives)', () => {
    estimateRetention(grid, { seed: 1 });
  });
}
