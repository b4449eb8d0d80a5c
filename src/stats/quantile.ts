/** Sample quantiles of a numeric array (copied and sorted; the input is not modified). */

function sortedCopy(values: readonly number[]): number[] {
  if (values.length === 0) throw new RangeError('quantile of an empty sample is undefined');
  if (values.some((v) => Number.isNaN(v))) throw new RangeError('quantile: sample contains NaN');
  return [...values].sort((a, b) => a - b);
}

/** numpy's default (`method='linear'`, Hyndman–Fan type 7): interpolate at h = (m − 1)·q. */
export function quantileLinear(values: readonly number[], q: number): number {
  const sorted = sortedCopy(values);
  const h = (sorted.length - 1) * q;
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, sorted.length - 1);
  return sorted[lo] + (h - lo) * (sorted[hi] - sorted[lo]);
}

/** Inverse empirical CDF (type 1): the smallest observed value v with F̂(v) ≥ q; never interpolates. */
export function quantileInvertedCdf(values: readonly number[], q: number): number {
  const sorted = sortedCopy(values);
  const index = Math.max(0, Math.ceil(sorted.length * q) - 1);
  return sorted[Math.min(index, sorted.length - 1)];
}

/** The median (mean of the two middle values for an even count, as numpy). */
export function median(values: readonly number[]): number {
  return quantileLinear(values, 0.5);
}
