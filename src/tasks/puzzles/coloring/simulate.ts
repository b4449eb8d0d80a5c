import type { PyRandom } from '../../../rng/index.js';
import type { SimKnobs } from '../../task.js';
import type { ColoringInstance } from './generate.js';

/** Each vertex gets its planted colour with probability `retention`, otherwise one of the other k − 1 colours. */
export function simulateColoring(instance: ColoringInstance, rng: PyRandom, knobs: SimKnobs): Record<string, number> {
  const k = instance.data.colours;
  const colouring: Record<string, number> = {};
  for (const [v, c] of Object.entries(instance.answer)) {
    colouring[v] = rng.random() < knobs.retention ? c : ((c - 1 + 1 + rng.randbelow(k - 1)) % k) + 1;
  }
  return colouring;
}
