import type { PyRandom } from '../../../rng/index.js';
import type { SimKnobs } from '../../task.js';
import type { CheckersInstance } from './generate.js';
import type { CheckerMove } from './rules.js';

/** Each move is right with probability `retention`; otherwise a plausible slip (wrong distance or a backwards step). */
export function simulateCheckers(instance: CheckersInstance, rng: PyRandom, knobs: SimKnobs): CheckerMove[] {
  return instance.answer.map(([colour, from, to]): CheckerMove => {
    if (rng.random() < knobs.retention) return [colour, from, to];
    const dir = colour === 'R' ? 1 : -1;
    const distance = Math.abs(to - from);
    // Slip: a slide confused with a jump (or vice versa), or the step taken backwards.
    if (rng.random() < 0.5) return [colour, from, from + dir * (3 - distance)];
    return [colour, from, from - dir * distance];
  });
}
