import type { PyRandom } from '../../../rng/index.js';
import type { SimKnobs } from '../../task.js';
import type { SudokuInstance } from './generate.js';

/** Givens are copied; each blank cell is right with probability `retention`, else another digit 1…N. */
export function simulateSudoku(instance: SudokuInstance, rng: PyRandom, knobs: SimKnobs): number[] {
  const { n, puzzle } = instance.data;
  return instance.answer.map((right, cell) => {
    if (puzzle[cell] !== 0 || rng.random() < knobs.retention) return right;
    return ((right - 1 + 1 + rng.randbelow(n - 1)) % n) + 1;
  });
}
