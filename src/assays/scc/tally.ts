/**
 * The authors' pass rule (`summarize_evaluation`, docs/spec/scc.md §7) and the early-decision test built on it.
 * passed = parse_rate == 1 and fmean(relative errors of parsed trials) ≤ tolerance.
 */

/** Python's `math.fsum`: exactly rounded sum (Shewchuk partials). */
export function fsum(values: Iterable<number>): number {
  const partials: number[] = [];
  for (let x of values) {
    let i = 0;
    for (let y of partials) {
      if (Math.abs(x) < Math.abs(y)) [x, y] = [y, x];
      const hi = x + y;
      const lo = y - (hi - x);
      if (lo !== 0) partials[i++] = lo;
      x = hi;
    }
    partials.length = i;
    partials.push(x);
  }
  let n = partials.length;
  if (n === 0) return 0;
  let hi = partials[--n];
  let lo = 0;
  while (n > 0) {
    const x = hi;
    const y = partials[--n];
    hi = x + y;
    const yr = hi - x;
    lo = y - yr;
    if (lo !== 0) break;
  }
  if (n > 0 && ((lo < 0 && partials[n - 1] < 0) || (lo > 0 && partials[n - 1] > 0))) {
    const y = lo * 2;
    const x = hi + y;
    if (y === x - hi) hi = x;
  }
  return hi;
}

/** `statistics.fmean`: fsum / n. */
export const fmean = (values: readonly number[]): number => fsum(values) / values.length;

export interface ScoredTrial {
  /** null when unparsed (including error and overflow trials). */
  relativeError: number | null;
}

export interface TierSummary {
  trials: number;
  parseRate: number;
  /** Mean relative error over parsed trials; null when none parsed. */
  mape: number | null;
  passed: boolean;
}

export function summarizeTier(trials: readonly ScoredTrial[], tolerance: number): TierSummary {
  const errors = trials.flatMap((t) => (t.relativeError === null ? [] : [t.relativeError]));
  const parseRate = trials.length === 0 ? 0 : errors.length / trials.length;
  const mape = errors.length === 0 ? null : fmean(errors);
  return { trials: trials.length, parseRate, mape, passed: parseRate === 1 && mape !== null && mape <= tolerance };
}

/**
 * Whether a tier of `planned` trials must fail whatever its remaining trials answer: one unparsed trial
 * fails it (parse_rate < 1), and relative errors are ≥ 0, so a partial sum above tolerance·planned fails
 * it too. The 1e-9 margin keeps float rounding from ever deciding a tier the exact rule would pass.
 */
export function tierMustFail(completed: readonly ScoredTrial[], planned: number, tolerance: number): boolean {
  if (completed.some((t) => t.relativeError === null)) return true;
  const sum = fsum(completed.map((t) => t.relativeError ?? 0));
  return sum > tolerance * planned * (1 + 1e-9);
}
