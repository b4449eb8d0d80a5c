import type { TaskInstance } from '../../task.js';
import type { FixedInstanceData, PerLevel, PuzzleContent } from '../common/index.js';
import { type HanoiMove, type HanoiState, hanoiTrace, solveHanoi } from './rules.js';

/** Disks per level (docs/spec/puzzles.md §1.2): minimum moves 7, 15, 31, 63, 255, 1023. */
export const HANOI_DISKS: PerLevel<number> = [3, 4, 5, 6, 8, 10];

export interface HanoiData extends FixedInstanceData {
  disks: number;
  minMoves: number;
}
export type HanoiInstance = TaskInstance<HanoiData, HanoiState, HanoiMove[]>;

export function generateHanoi(disks: number): PuzzleContent<HanoiData, HanoiState, HanoiMove[]> {
  const answer = solveHanoi(disks);
  return {
    data: { disks, minMoves: 2 ** disks - 1, generationAttempts: 1 },
    trace: hanoiTrace(disks, answer),
    answer,
  };
}
