import { median } from './quantile.js';

export interface KStarSummary {
  /** Divergence steps summarised (k* = −1, "no divergence", is ignored). */
  n: number;
  mean: number | null;
  median: number | null;
  /** Counts by bucket: early k* ≤ 3, mid 4–10, late > 10. */
  early: number;
  mid: number;
  late: number;
  /** Bucket shares of n (null when n = 0); unlike the released summaries they never exceed 1 (docs/spec/ccb.md §6.1). */
  shares: { early: number | null; mid: number | null; late: number | null };
  /** Count per k* value, keyed by the value as a string. */
  histogram: Record<string, number>;
}

/**
 * Summary of first-divergence steps k* (1-based). Which trials to pass (e.g. incorrect parseable trials) is
 * the caller's choice and defines the population; −1 entries are skipped, anything else non-positive or
 * fractional is rejected.
 */
export function summarizeKStar(kStars: number[]): KStarSummary {
  const used: number[] = [];
  kStars.forEach((k, index) => {
    if (k === -1) return;
    if (!Number.isInteger(k) || k < 1)
      throw new RangeError(`kStars[${index}]=${k}: k* must be −1 or a positive integer`);
    used.push(k);
  });
  const early = used.filter((k) => k <= 3).length;
  const mid = used.filter((k) => k >= 4 && k <= 10).length;
  const late = used.filter((k) => k > 10).length;
  const histogram: Record<string, number> = {};
  for (const k of [...used].sort((x, y) => x - y)) histogram[String(k)] = (histogram[String(k)] ?? 0) + 1;
  const n = used.length;
  const share = (count: number) => (n === 0 ? null : count / n);
  return {
    n,
    mean: n === 0 ? null : used.reduce((s, k) => s + k, 0) / n,
    median: n === 0 ? null : median(used),
    early,
    mid,
    late,
    shares: { early: share(early), mid: share(mid), late: share(late) },
    histogram,
  };
}

/** TFBC rate = TFBC / correct (docs/spec/ccb.md §6.1); null when there is no correct answer. */
export function tfbcRate(tfbc: number, correct: number): number | null {
  if (!Number.isInteger(correct) || correct < 0)
    throw new RangeError(`correct=${correct} must be a non-negative integer`);
  if (!Number.isInteger(tfbc) || tfbc < 0 || tfbc > correct) {
    throw new RangeError(`tfbc=${tfbc} must be an integer between 0 and correct=${correct}`);
  }
  return correct === 0 ? null : tfbc / correct;
}
