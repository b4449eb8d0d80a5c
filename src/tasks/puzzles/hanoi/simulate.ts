import type { PyRandom } from '../../../rng/index.js';
import type { SimKnobs } from '../../task.js';
import type { HanoiInstance } from './generate.js';
import { type HanoiMove, PEGS, type Peg } from './rules.js';

/** Each move is right with probability `retention`; otherwise a plausible slip, and the plan carries on. */
export function simulateHanoi(instance: HanoiInstance, rng: PyRandom, knobs: SimKnobs): HanoiMove[] {
  const n = instance.data.disks;
  return instance.answer.map(([disk, from, to]): HanoiMove => {
    if (rng.random() < knobs.retention) return [disk, from, to];
    const other = PEGS.find((p) => p !== from && p !== to) as Peg;
    // Slip: the right disk to the wrong peg, or a neighbouring disk number (a hallucinated top disk).
    if (rng.random() < 0.5) return [disk, from, other];
    return [disk === n ? disk - 1 : disk + 1, from, to];
  });
}
