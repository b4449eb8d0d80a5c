import type { TaskInstance } from '../../task.js';
import type { FixedInstanceData, PerLevel, PuzzleContent } from '../common/index.js';
import { type CheckerMove, checkersTrace, goalBoard, initialBoard, solveCheckers } from './rules.js';

/** Checkers per colour per level (docs/spec/puzzles.md §1.2): minimum (= every valid) length n(n+2) = 3, 8, 15, 24, 35, 48. */
export const CHECKERS_PER_COLOUR: PerLevel<number> = [1, 2, 3, 4, 5, 6];

export interface CheckersData extends FixedInstanceData {
  checkersPerColour: number;
  cells: number;
  initialBoard: string;
  goalBoard: string;
  minMoves: number;
}
export type CheckersInstance = TaskInstance<CheckersData, string, CheckerMove[]>;

export function generateCheckers(n: number): PuzzleContent<CheckersData, string, CheckerMove[]> {
  const answer = solveCheckers(n);
  return {
    data: {
      checkersPerColour: n,
      cells: 2 * n + 1,
      initialBoard: initialBoard(n),
      goalBoard: goalBoard(n),
      minMoves: n * (n + 2),
      generationAttempts: 1,
    },
    trace: checkersTrace(n, answer),
    answer,
  };
}
