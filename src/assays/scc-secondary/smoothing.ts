/**
 * The five-point centred moving average of paper Fig. 2F / Supplementary Note 7: each point is the mean of the
 * values at its own index and up to `half` neighbours on each side that exist (at the ends the window is
 * truncated, like pandas `rolling(window, center=True, min_periods=1)`). Null values are skipped; a window
 * with no value gives null. The window runs over the sampled counts in ascending order.
 */
export function centeredMovingAverage(values: readonly (number | null)[], window = 5): (number | null)[] {
  if (!Number.isInteger(window) || window < 1 || window % 2 === 0)
    throw new RangeError(`smoothing window must be an odd positive integer, got ${window}`);
  const half = (window - 1) / 2;
  return values.map((_, i) => {
    let sum = 0;
    let n = 0;
    for (let j = Math.max(0, i - half); j <= Math.min(values.length - 1, i + half); j++) {
      const v = values[j];
      if (v !== null) {
        sum += v;
        n++;
      }
    }
    return n === 0 ? null : sum / n;
  });
}

/** Ordinary least-squares slope of y on x; null with fewer than two distinct x. */
export function olsSlope(points: readonly { x: number; y: number }[]): number | null {
  if (points.length < 2) return null;
  const mx = points.reduce((s, p) => s + p.x, 0) / points.length;
  const my = points.reduce((s, p) => s + p.y, 0) / points.length;
  let sxx = 0;
  let sxy = 0;
  for (const p of points) {
    sxx += (p.x - mx) ** 2;
    sxy += (p.x - mx) * (p.y - my);
  }
  return sxx === 0 ? null : sxy / sxx;
}
