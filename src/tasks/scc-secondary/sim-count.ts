import type { PyRandom } from '../../rng/index.js';
import { ATTRACTORS } from '../count/simulate.js';

/**
 * A simulated count of n items by a model whose counting state holds `capacity` items, shaped like the count
 * plugin's simulator (src/tasks/count/simulate.ts) but returning a number, for answers embedded in JSON:
 * exact up to 0.9·capacity, off by one 10% of the time up to capacity, then a relative error that grows with
 * the overshoot r = (n − c)/c, mostly undercounting (80%, as the paper's dual-task runs do), snapped to
 * multiples of 10 half the time and to the attractors 50, 100, 200, … once r > 0.5.
 */
export function simulatedCount(n: number, capacity: number, rng: PyRandom): number {
  const c = Math.max(1, capacity);
  if (n <= c) {
    if (n > 0.9 * c && rng.random() < 0.1) return n + (rng.random() < 0.5 ? -1 : 1);
    return n;
  }
  const overshoot = (n - c) / c;
  const magnitude = Math.min(0.9, overshoot * (0.5 + rng.random()));
  const sign = rng.random() < 0.8 ? -1 : 1;
  let estimate = Math.max(1, Math.round(n * (1 + sign * magnitude)));
  if (overshoot > 0.5) {
    estimate = ATTRACTORS.reduce((best, a) =>
      Math.abs(Math.log(a / estimate)) < Math.abs(Math.log(best / estimate)) ? a : best,
    );
  } else if (estimate >= 50 && rng.random() < 0.5) estimate = Math.max(10, Math.round(estimate / 10) * 10);
  if (estimate === n) estimate = n + sign * Math.max(1, Math.round(n * 0.02));
  return estimate;
}
