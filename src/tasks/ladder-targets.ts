import type { PyRandom } from '../rng/index.js';

// The SCC ladder's targets (docs/spec/scc.md §4): the ladder draws each tier's, and a counting plugin's `generate`
// draws one the same way when no `count` is given. Task-free: every ladder family shares them.

/** The authors' jitter: targets are drawn uniformly from [floor(0.8L), ceil(1.2L)]. */
export const DEFAULT_JITTER = 0.2;

/**
 * `sample_low = max(1, floor(L·(1 − j)))`, `sample_high = max(low, ceil(L·(1 + j)))`, with the authors'
 * expression order (equal to exact integer arithmetic for every L ≤ 20000 at j = 0.2).
 */
export function targetRange(center: number, jitter = DEFAULT_JITTER): { low: number; high: number } {
  const low = Math.max(1, Math.floor(center * (1 - jitter)));
  const high = Math.max(low, Math.ceil(center * (1 + jitter)));
  return { low, high };
}

/** One target: `rng.randint(low, high)` (CPython: low + _randbelow(high − low + 1)). */
export function drawTarget(rng: PyRandom, center: number, jitter = DEFAULT_JITTER): number {
  const { low, high } = targetRange(center, jitter);
  return rng.randint(low, high);
}
