import { betaQuantile, normalQuantile } from './special.js';

function checkCounts(k: number, n: number): void {
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`n=${n} must be a non-negative integer`);
  if (!Number.isInteger(k) || k < 0 || k > n) throw new RangeError(`k=${k} must be an integer in [0, n=${n}]`);
}

function checkAlpha(alpha: number): void {
  if (!(alpha > 0 && alpha < 1)) throw new RangeError(`alpha=${alpha} must lie strictly between 0 and 1`);
}

/**
 * Exact (Clopper–Pearson) two-sided interval for a binomial proportion at confidence 1 − alpha:
 * lo = BetaInv(α/2; k, n−k+1) (0 if k = 0), hi = BetaInv(1−α/2; k+1, n−k) (1 if k = n); (0, 0) if n = 0,
 * as the released CCB code does (docs/spec/ccb.md §6.4).
 */
export function clopperPearson(k: number, n: number, alpha = 0.05): [number, number] {
  checkCounts(k, n);
  checkAlpha(alpha);
  if (n === 0) return [0, 0];
  const lo = k === 0 ? 0 : betaQuantile(alpha / 2, k, n - k + 1);
  const hi = k === n ? 1 : betaQuantile(1 - alpha / 2, k + 1, n - k);
  return [lo, hi];
}

/** Wilson score interval at confidence 1 − alpha; (0, 0) if n = 0 for symmetry with Clopper–Pearson. */
export function wilson(k: number, n: number, alpha = 0.05): [number, number] {
  checkCounts(k, n);
  checkAlpha(alpha);
  if (n === 0) return [0, 0];
  const z = normalQuantile(1 - alpha / 2);
  const z2 = z * z;
  const phat = k / n;
  const denominator = 1 + z2 / n;
  const centre = (phat + z2 / (2 * n)) / denominator;
  const half = (z * Math.sqrt((phat * (1 - phat)) / n + z2 / (4 * n * n))) / denominator;
  // At k = 0 and k = n the bounds are exactly 0 and 1; rounding must not move them.
  return [k === 0 ? 0 : Math.max(0, centre - half), k === n ? 1 : Math.min(1, centre + half)];
}
