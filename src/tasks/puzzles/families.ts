import type { AnyTaskPlugin } from '../task.js';
import { checkersTask } from './checkers/index.js';
import { coloringTask } from './coloring/index.js';
import { cryptTask } from './crypt/index.js';
import { hanoiTask } from './hanoi/index.js';
import { jugTask } from './jug/index.js';
import { riverTask } from './river/index.js';
import { rubikTask } from './rubik/index.js';
import { satTask } from './sat/index.js';
import { sudokuTask } from './sudoku/index.js';

/** The nine puzzle families of docs/spec/puzzles.md, in its order. */
export const puzzleTasks: readonly AnyTaskPlugin[] = [
  hanoiTask,
  checkersTask,
  riverTask,
  satTask,
  cryptTask,
  coloringTask,
  jugTask,
  sudokuTask,
  rubikTask,
];
