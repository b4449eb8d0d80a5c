/** Correct answers out of n trials at one depth N. */
export interface DepthCount {
  depth: number;
  correct: number;
  n: number;
}

/**
 * Validates per-depth counts and returns the ones that carry data: n = 0 depths are dropped, duplicate
 * depths are merged (their trials pooled), and the result is sorted by depth. Throws a RangeError naming
 * the offending entry otherwise.
 */
export function normalizeCounts(counts: readonly DepthCount[]): DepthCount[] {
  const byDepth = new Map<number, DepthCount>();
  counts.forEach((entry, index) => {
    const { depth, correct, n } = entry;
    if (!Number.isInteger(depth) || depth < 1) {
      throw new RangeError(`counts[${index}]: depth=${depth} must be a positive integer`);
    }
    if (!Number.isInteger(n) || n < 0) throw new RangeError(`counts[${index}]: n=${n} must be a non-negative integer`);
    if (!Number.isInteger(correct) || correct < 0 || correct > n) {
      throw new RangeError(`counts[${index}]: correct=${correct} must be an integer between 0 and n=${n}`);
    }
    if (n === 0) return;
    const previous = byDepth.get(depth);
    byDepth.set(
      depth,
      previous ? { depth, correct: previous.correct + correct, n: previous.n + n } : { depth, correct, n },
    );
  });
  return [...byDepth.values()].sort((a, b) => a.depth - b.depth);
}

/** Total number of trials over the depths. */
export function totalTrials(counts: readonly DepthCount[]): number {
  return counts.reduce((sum, c) => sum + c.n, 0);
}
