import type { PyRandom } from '../../rng/index.js';
import type { SimKnobs } from '../task.js';
import { countSequence, type Motif } from './stimulus.js';

/**
 * A simulated counter with a known capacity c (knobs.capacity), shaped after the paper's observations:
 *
 * - n ≤ 0.9c: exact; 0.9c < n ≤ c: exact, off by one 10% of the time;
 * - n > c: the state is exhausted; the relative error grows with the overshoot r = (n − c)/c (on
 *   average r, so that a tier centred at L = c has an expected MAPE of ≈ 0.05, the pass threshold),
 *   mostly undercounting; answers snap to round numbers (multiples of 10) and, once r > 0.5, to the
 *   attractors 50, 100, 200, 250, 500, 1000, 2000, 5000, 10000 (Fig. 2C/D);
 * - r > 0.25: rising format collapse (Table S2): step-by-step prose ending in a wrong number, blank
 *   output, or a copied stretch of the sequence (prompt echo), with probability min(0.6, r − 0.25).
 *
 * Tiers centred well below c therefore pass and tiers well above c fail, so the ladder's bounds bracket c.
 */
export const ATTRACTORS = [50, 100, 200, 250, 500, 1000, 2000, 5000, 10000] as const;

function nearestAttractor(value: number): number {
  let best: number = ATTRACTORS[0];
  for (const attractor of ATTRACTORS) {
    if (Math.abs(Math.log(attractor / value)) < Math.abs(Math.log(best / value))) best = attractor;
  }
  return best;
}

function collapsedResponse(n: number, wrong: number, rng: PyRandom, motif: Motif): string {
  const mode = rng.randbelow(3);
  if (mode === 0) {
    const groups = Math.max(1, Math.floor(wrong / 10));
    return `Let me count the "${motif.item}" items in groups of 10.\n\n${groups} groups of 10 = ${groups * 10}\n\n${wrong}`;
  }
  if (mode === 1) return rng.random() < 0.5 ? '' : '\n  \n';
  return countSequence(Math.min(n, 40 + rng.randbelow(40)), motif);
}

export function simulateCount(n: number, rng: PyRandom, knobs: SimKnobs, motif: Motif): string {
  const capacity = Math.max(1, knobs.capacity);
  if (n <= capacity) {
    if (n > 0.9 * capacity && rng.random() < 0.1) return String(n + (rng.random() < 0.5 ? -1 : 1));
    return String(n);
  }
  const overshoot = (n - capacity) / capacity;
  const magnitude = overshoot * (0.5 + rng.random());
  const sign = rng.random() < 0.7 ? -1 : 1;
  let estimate = Math.max(1, Math.round(n * (1 + sign * magnitude)));
  if (overshoot > 0.5) estimate = nearestAttractor(estimate);
  else if (estimate >= 50 && rng.random() < 0.5) estimate = Math.max(10, Math.round(estimate / 10) * 10);
  if (estimate === n) estimate = n + sign * Math.max(1, Math.round(n * 0.02));
  if (overshoot > 0.25 && rng.random() < Math.min(0.6, overshoot - 0.25)) {
    return collapsedResponse(n, estimate, rng, motif);
  }
  return String(estimate);
}
