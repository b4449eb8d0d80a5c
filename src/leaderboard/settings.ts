import type { BoardSettings } from './board/draft.js';

export interface LeaderboardOptions {
  /** Family-wise significance level (default 0.05). */
  alpha?: number;
  /** Bootstrap resamples per retention pair (default 2000). */
  resamples?: number;
  /** Root seed of the bootstrap streams (default 0). */
  seed?: number;
  /**
   * Each project's gated baseline subject spec (its notWorseThan gate): compared with every subject of the project's
   * boards, besides the adjacent ranks.
   */
  baselines?: Readonly<Record<string, string>>;
}

/** The options checked and defaulted: α in (0, 1), B ≥ 1 resamples, a safe-integer seed. */
export function settingsOf(options: LeaderboardOptions): BoardSettings {
  const alpha = options.alpha ?? 0.05;
  const resamples = options.resamples ?? 2000;
  const seed = options.seed ?? 0;
  if (!(alpha > 0 && alpha < 1)) throw new RangeError(`alpha=${alpha} must lie strictly between 0 and 1`);
  if (!Number.isInteger(resamples) || resamples < 1) throw new RangeError(`resamples=${resamples} must be ≥ 1`);
  if (!Number.isSafeInteger(seed)) throw new RangeError(`seed=${seed} must be a safe integer`);
  return { alpha, resamples, seed };
}
