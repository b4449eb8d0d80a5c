/** docs/spec/puzzles.md §1.2: 3-SAT levels (variables n, clauses m = round(4.26 n)). */
export const SAT_LEVELS: Record<number, { n: number; m: number }> = {
  1: { n: 5, m: 21 },
  2: { n: 8, m: 34 },
  3: { n: 12, m: 51 },
  4: { n: 16, m: 68 },
  5: { n: 20, m: 85 },
  6: { n: 30, m: 128 },
};

export function satLevel(level: number): { n: number; m: number } {
  const params = SAT_LEVELS[level];
  if (params === undefined) throw new RangeError(`sat: level ${level} is not defined; use one of 1–6`);
  return params;
}
