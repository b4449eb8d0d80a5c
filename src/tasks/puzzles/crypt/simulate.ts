import type { PyRandom } from '../../../rng/index.js';
import type { SimKnobs } from '../../task.js';
import type { CryptInstance } from './generate.js';

/** Each letter keeps its digit with probability `retention`, otherwise it gets another random digit. */
export function simulateCrypt(instance: CryptInstance, rng: PyRandom, knobs: SimKnobs): Record<string, number> {
  const mapping: Record<string, number> = {};
  for (const letter of instance.data.letters) {
    const right = instance.answer[letter];
    mapping[letter] = rng.random() < knobs.retention ? right : (right + 1 + rng.randbelow(9)) % 10;
  }
  return mapping;
}
