import type { PyRandom } from '../../../rng/index.js';
import type { SimKnobs } from '../../task.js';
import type { SatInstance } from './generate.js';

/** Each variable keeps its planted value with probability `retention`, otherwise it is flipped. */
export function simulateSat(instance: SatInstance, rng: PyRandom, knobs: SimKnobs): Record<string, boolean> {
  const values = instance.data.planted.map((value) => (rng.random() < knobs.retention ? value : !value));
  return Object.fromEntries(values.map((value, i) => [String(i + 1), value]));
}
