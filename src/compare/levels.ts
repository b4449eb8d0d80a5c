import type { DepthCount } from '../stats/index.js';

/** The levels a fit measured: depths with at least one counted trial (what the estimator uses), ascending. */
export const levelsOf = (counts: readonly DepthCount[]): number[] =>
  [...new Set(counts.filter((c) => c.n > 0).map((c) => c.depth))].sort((a, b) => a - b);

export const without = (levels: readonly number[], drop: readonly number[]): number[] =>
  levels.filter((l) => !drop.includes(l));

export const within = (levels: readonly number[], keep: readonly number[]): number[] =>
  levels.filter((l) => keep.includes(l));

export const sameLevels = (a: readonly number[], b: readonly number[]): boolean =>
  a.length === b.length && a.every((l, i) => l === b[i]);

/** The counts at the given levels only. */
export const restrictCounts = (counts: readonly DepthCount[], levels: readonly number[]): DepthCount[] =>
  counts.filter((c) => levels.includes(c.depth));

/**
 * Levels for a reader: a run of four or more levels that are consecutive in `universe` (all the levels either side
 * has) is written as a range, "20–50"; the others are listed, "5, 10, 15". Without a universe, all are listed.
 */
export function formatLevels(levels: readonly number[], universe?: readonly number[]): string {
  const sorted = [...levels].sort((a, b) => a - b);
  if (!universe) return sorted.join(', ');
  const all = [...new Set([...universe, ...levels])].sort((a, b) => a - b);
  const parts: string[] = [];
  let start = 0;
  while (start < sorted.length) {
    let end = start;
    while (end + 1 < sorted.length && all.indexOf(sorted[end + 1]) === all.indexOf(sorted[end]) + 1) end++;
    parts.push(end - start >= 3 ? `${sorted[start]}–${sorted[end]}` : sorted.slice(start, end + 1).join(', '));
    start = end + 1;
  }
  return parts.join(', ');
}
