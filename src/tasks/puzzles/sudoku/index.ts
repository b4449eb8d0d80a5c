import type { PyRandom } from '../../../rng/index.js';
import type { AnyTaskPlugin, GradeContext, SimKnobs, TaskInstance, TaskPlugin } from '../../task.js';
import { puzzleTokenBudget } from '../common/budget.js';
import { gradeSolvable, PUZZLE_LEVELS } from '../common/index.js';
import { PUZZLE_SIM_DEFAULT } from '../common/levels.js';
import { generateSudoku, type SudokuData, sudokuLevel } from './generate.js';
import { formatSudokuAnswer, renderSudoku } from './render.js';
import { parseSudoku, type SudokuAnswer, validateSudoku } from './validate.js';

export { generateSudoku, SUDOKU_LEVELS, type SudokuData, type SudokuLevel, sudokuLevel } from './generate.js';
export { boxRegions, jigsawRegions, regionConnected, regionIssues, regionLabel } from './regions.js';
export { formatSudokuAnswer, renderSudoku } from './render.js';
export { type SearchOptions, type SearchResult, searchSudoku } from './solver.js';
export { parseSudoku, SUDOKU_ANSWER_NAME, type SudokuAnswer, type SudokuSpec, validateSudoku } from './validate.js';

/** `answer`: the unique solution, row-major. */
export type SudokuInstance = TaskInstance<SudokuData, never, number[]>;

const plugin: TaskPlugin<SudokuInstance, SudokuAnswer> = {
  id: 'sudoku',
  family: 'puzzle',
  project: 'puzzles',
  analysis: 'collapse',
  simDefault: PUZZLE_SIM_DEFAULT,
  title: 'Sudoku (4×4, 6×6, 9×9 and 9×9 jigsaw; unique solution)',
  /** Scalar knob: the number of blank cells (6, 10, 16, 22, 45, 51), which — unlike the givens — grows with the level. */
  levels: {
    kind: 'level',
    values: PUZZLE_LEVELS,
    knob: (level) => {
      const spec = sudokuLevel(level);
      return spec.n * spec.n - spec.givens;
    },
  },
  variants: ['standard'],
  profiles: ['default'],

  generate(rng: PyRandom, level: number, options): SudokuInstance {
    const data = generateSudoku(rng, sudokuLevel(level));
    return { task: 'sudoku', level, seed: options.seed, profile: 'default', data, trace: [], answer: data.solution };
  },

  instanceKey: (instance) => `${instance.data.puzzle.join('')}/${instance.data.regions.join('')}`,
  render: (instance) => renderSudoku(instance.data),
  canonicalResponse: (instance) => formatSudokuAnswer(instance.answer, instance.data.n),
  parse: parseSudoku,

  grade(instance, text, context: GradeContext = {}) {
    return gradeSolvable(
      text,
      context,
      parseSudoku,
      (answer) => validateSudoku(instance.data, answer),
      (answer) => answer.rows.length === 0,
    );
  },

  /** Givens are copied; each blank cell is right with probability `retention`, else another digit 1…N. */
  simulate(instance, rng: PyRandom, knobs: SimKnobs) {
    const { n, puzzle } = instance.data;
    const cells = instance.answer.map((right, cell) => {
      if (puzzle[cell] !== 0 || rng.random() < knobs.retention) return right;
      return ((right - 1 + 1 + rng.randbelow(n - 1)) % n) + 1;
    });
    return formatSudokuAnswer(cells, n);
  },

  /** About one token per digit plus quotes and commas per row. */
  maxOutputTokens: (level) => {
    const { n } = sudokuLevel(level);
    return puzzleTokenBudget(level, n * n + 3 * n + 8);
  },
};

export const sudokuTask: AnyTaskPlugin = plugin;
