import { PyRandom } from '../../../rng/index.js';

/**
 * The marker-count ladder of `run_agent_count_disruption.py` (`build_count_ladder`, docs/spec/scc.md §11): one
 * candidate per base in range(start, stop + 1, step), jittered by randint(−jitter, jitter), clamped, moved off
 * multiples of 50 and 100, forced above the previous value, repeats dropped. The RNG is
 * `Random(f"{seed}:{salt}:{start}:{stop}:{step}:{jitter}")` with salt `{model}:{group}` (group agent | copy).
 */
export interface CountLadderSpec {
  seed: number;
  salt: string;
  start: number;
  stop: number;
  step: number;
  jitter: number;
}

export const DEFAULT_LADDER = { start: 50, stop: 1000, step: 50, jitter: 10 } as const;

/** `adjust_away_from_round_number`: the nearest value ±1…±11 (+ before −) in range that is no multiple of 50. */
export function adjustAwayFromRoundNumber(value: number, minimum: number, maximum: number): number {
  const candidate = Math.max(minimum, Math.min(maximum, value));
  if (candidate % 50 !== 0 && candidate % 100 !== 0) return candidate;
  for (let delta = 1; delta < 12; delta++) {
    for (const sign of [1, -1]) {
      const shifted = candidate + sign * delta;
      if (shifted >= minimum && shifted <= maximum && shifted % 50 !== 0 && shifted % 100 !== 0) return shifted;
    }
  }
  return candidate;
}

export function buildCountLadder(spec: CountLadderSpec): number[] {
  const { seed, salt, start, stop, step, jitter } = spec;
  if (!(step > 0)) throw new RangeError('count ladder step must be positive');
  if (stop < start) throw new RangeError('count ladder stop must be >= start');
  const rng = new PyRandom(`${seed}:${salt}:${start}:${stop}:${step}:${jitter}`);
  const counts: number[] = [];
  let previous = 0;
  for (let base = start; base <= stop; base += step) {
    let candidate = base + rng.randint(-Math.abs(jitter), Math.abs(jitter));
    candidate = adjustAwayFromRoundNumber(candidate, start, stop);
    if (candidate <= previous) candidate = adjustAwayFromRoundNumber(Math.min(stop, previous + 1), start, stop);
    if (counts.length > 0 && candidate === counts[counts.length - 1]) continue;
    counts.push(candidate);
    previous = candidate;
  }
  return counts;
}

/** The ladder of one model and condition group with the authors' defaults. */
export const agentLadder = (seed: number, model: string, group: 'agent' | 'copy'): number[] =>
  buildCountLadder({ seed, salt: `${model}:${group}`, ...DEFAULT_LADDER });
