import type { PyRandom } from '../../../rng/index.js';
import type { SimKnobs } from '../../task.js';
import type { JugInstance } from './generate.js';
import type { JugOperator } from './rules.js';

const SLIPS: Record<JugOperator, JugOperator[]> = {
  'Fill A': ['Fill B', 'Empty A'],
  'Fill B': ['Fill A', 'Empty B'],
  'Empty A': ['Empty B', 'Pour A to B'],
  'Empty B': ['Empty A', 'Pour B to A'],
  'Pour A to B': ['Pour B to A', 'Empty A'],
  'Pour B to A': ['Pour A to B', 'Empty B'],
};

/** Each step is right with probability `retention`; otherwise the wrong jug or direction, and the plan carries on. */
export const simulateJug = (instance: JugInstance, rng: PyRandom, knobs: SimKnobs): JugOperator[] =>
  instance.answer.map((op) => (rng.random() < knobs.retention ? op : rng.choice(SLIPS[op])));
