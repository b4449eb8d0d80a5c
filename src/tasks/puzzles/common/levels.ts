import { type SimKnobs, stepwiseSim } from '../../task.js';
/** The six puzzle levels of docs/spec/puzzles.md §1.2. */
export const PUZZLE_LEVELS = [1, 2, 3, 4, 5, 6] as const;

/** The row of a per-level table for `level` (1-based); throws a RangeError naming the valid levels otherwise. */
export function levelRow<T>(task: string, table: readonly T[], level: number): T {
  if (!Number.isInteger(level) || level < 1 || level > table.length) {
    throw new RangeError(`${task}: level ${level} is not defined; use an integer level 1–${table.length}`);
  }
  return table[level - 1];
}

/** System prompt shared by every puzzle family: zero-shot, reasoning allowed, only the final block is graded. */
export const PUZZLE_SYSTEM_PROMPT =
  'You are solving a logic puzzle. You may reason step by step before answering. ' +
  'End your response with the final answer in exactly the format the user specifies; only the last answer ' +
  'block in your response is graded, by a strict program that accepts no other format.';

/** sim:default on every puzzle: retention p = 0.90 per move at every level (longer solutions collapse). */
export const PUZZLE_SIM_DEFAULT: SimKnobs = stepwiseSim(0.9);
