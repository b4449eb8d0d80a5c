import { answerSizedBudget, definePuzzle, listAnswer, readAnswer } from '../common/index.js';
import { generateSudoku, SUDOKU_LEVELS } from './generate.js';
import { renderSudoku, writeGrid } from './render.js';
import { simulateSudoku } from './simulate.js';
import { readGrid, validateSudoku } from './validate.js';

export const sudokuTask = definePuzzle({
  id: 'sudoku',
  title: 'Sudoku (4×4, 6×6, 9×9 and 9×9 jigsaw; unique solution)',
  levels: SUDOKU_LEVELS,
  // The number of blank cells (6, 10, 16, 22, 45, 51), which — unlike the givens — grows with the level.
  knob: ({ n, givens }) => n * n - givens,
  generate: generateSudoku,
  instanceKey: (instance) => `${instance.data.puzzle.join('')}/${instance.data.regions.join('')}`,
  render: renderSudoku,
  answerFormat: readAnswer(listAnswer('grid'), readGrid, (answer) => answer.rows.length === 0),
  writeAnswer: writeGrid,
  validate: (instance, answer) => validateSudoku(instance.data, answer),
  simulate: simulateSudoku,
  // About one token per digit plus quotes and commas per row.
  maxOutputTokens: answerSizedBudget(({ n }) => n * n + 3 * n + 8),
});
