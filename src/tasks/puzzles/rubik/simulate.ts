import type { PyRandom } from '../../../rng/index.js';
import type { SimKnobs } from '../../task.js';
import type { RubikInstance } from './generate.js';

/**
 * Each move of the inverse scramble is right with probability `retention`; otherwise the same face is
 * turned by a wrong amount (the typical direction slip), which leaves the cube unsolved.
 */
export const simulateRubik = (instance: RubikInstance, rng: PyRandom, knobs: SimKnobs): string[] =>
  instance.answer.map((token) => {
    if (rng.random() < knobs.retention) return token;
    const face = token[0];
    const wrong = ['', "'", '2'].map((s) => `${face}${s}`).filter((t) => t !== token);
    return rng.choice(wrong);
  });
