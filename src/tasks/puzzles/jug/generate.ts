import type { TaskInstance } from '../../task.js';
import type { FixedInstanceData, PerLevel, PuzzleContent } from '../common/index.js';
import { type JugOperator, type JugState, jugTrace, solveJug } from './rules.js';

export type JugLevel = readonly [capacityA: number, capacityB: number, goal: number];

/** (capacity A, capacity B, goal) per level (docs/spec/puzzles.md §1.2); BFS minimum steps 4, 6, 8, 12, 16, 24. */
export const JUG_LEVELS: PerLevel<JugLevel> = [
  [4, 5, 3],
  [3, 5, 4],
  [4, 9, 6],
  [4, 13, 6],
  [4, 17, 6],
  [5, 21, 8],
];

export interface JugData extends FixedInstanceData {
  capacityA: number;
  capacityB: number;
  goal: number;
  minSteps: number;
}
export type JugInstance = TaskInstance<JugData, JugState, JugOperator[]>;

export function generateJug([capacityA, capacityB, goal]: JugLevel): PuzzleContent<JugData, JugState, JugOperator[]> {
  const answer = solveJug(capacityA, capacityB, goal);
  if (answer === null) throw new Error(`jug: (${capacityA}, ${capacityB}, ${goal}) is unsolvable; fix the level table`);
  return {
    data: { capacityA, capacityB, goal, minSteps: answer.length, generationAttempts: 1 },
    trace: jugTrace(answer, capacityA, capacityB),
    answer,
  };
}
