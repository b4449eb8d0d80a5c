/** Small descriptive statistics for the perf scripts (not estimators: src/stats holds those). */

export function median(xs: readonly number[]): number {
  return quantile(xs, 0.5);
}

/** Linear-interpolation quantile of a sample. */
export function quantile(xs: readonly number[], q: number): number {
  if (xs.length === 0) return Number.NaN;
  const sorted = [...xs].sort((a, b) => a - b);
  const h = (sorted.length - 1) * q;
  const lo = Math.floor(h);
  return sorted[lo] + (h - lo) * ((sorted[Math.min(lo + 1, sorted.length - 1)] ?? sorted[lo]) - sorted[lo]);
}

export function summarize(xs: readonly number[]): {
  mean: number;
  median: number;
  p90: number;
  min: number;
  max: number;
} {
  return {
    mean: xs.reduce((a, b) => a + b, 0) / xs.length,
    median: median(xs),
    p90: quantile(xs, 0.9),
    min: Math.min(...xs),
    max: Math.max(...xs),
  };
}
