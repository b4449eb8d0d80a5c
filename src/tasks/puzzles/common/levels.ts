/** The six puzzle levels L1–L6 of docs/spec/puzzles.md §1.2. */
export const PUZZLE_LEVELS = [1, 2, 3, 4, 5, 6] as const;

/** One entry per puzzle level, L1 first: a level table of parameters, budgets or anything else per level. */
export type PerLevel<T> = readonly [T, T, T, T, T, T];

/** The row of a per-level table for `level` (1-based); throws a RangeError naming the valid levels otherwise. */
export function levelRow<T>(task: string, table: readonly T[], level: number): T {
  if (!Number.isInteger(level) || level < 1 || level > table.length) {
    throw new RangeError(`${task}: level ${level} is not defined; use an integer level 1–${table.length}`);
  }
  return table[level - 1];
}
