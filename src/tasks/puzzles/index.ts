import type { AnyTaskPlugin } from '../task';
import { checkersTask } from './checkers';
import { coloringTask } from './coloring';
import { cryptTask } from './crypt';
import { hanoiTask } from './hanoi';
import { jugTask } from './jug';
import { riverTask } from './river';
import { rubikTask } from './rubik';
import { satTask } from './sat';
import { sudokuTask } from './sudoku';

/** The nine puzzle families of paper 001, in the paper's order. */
export const puzzleTasks: AnyTaskPlugin[] = [
  hanoiTask,
  checkersTask,
  riverTask,
  satTask,
  cryptTask,
  coloringTask,
  jugTask,
  sudokuTask,
  rubikTask,
].filter((task): task is AnyTaskPlugin => task !== null);
