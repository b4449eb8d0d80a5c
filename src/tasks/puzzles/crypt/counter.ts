/**
 * Exact column-wise solution counter for W1 + … + Wk = R (docs/spec/puzzles.md §6 recipe): columns from the units
 * up, assigning the addend letters of a column, then forcing the result letter to (column sum + carry)
 * mod 10; distinct digits, no leading zero in any word. Stops once `limit` solutions are found.
 */
export interface Cryptarithm {
  addends: readonly string[];
  result: string;
}

export interface CounterResult {
  count: number;
  /** The first solution found (letter → digit), if any. */
  first: Record<string, number> | null;
}

export function countSolutions(puzzle: Cryptarithm, limit = Number.POSITIVE_INFINITY): CounterResult {
  const words = [...puzzle.addends, puzzle.result];
  const letters = [...new Set(words.join(''))].sort();
  const index = new Map(letters.map((letter, i) => [letter, i]));
  const leading = new Set(words.map((w) => index.get(w[0]) ?? -1));
  const columns = puzzle.result.length;
  const width = Math.max(columns, ...puzzle.addends.map((w) => w.length));
  // column c (0 = units): addend letter indices, and the result letter index (−1 past the result's end)
  const columnAddends: number[][] = [];
  const columnResult: number[] = [];
  for (let c = 0; c < width; c++) {
    columnAddends.push(puzzle.addends.filter((w) => w.length > c).map((w) => index.get(w[w.length - 1 - c]) ?? -1));
    columnResult.push(c < columns ? (index.get(puzzle.result[columns - 1 - c]) ?? -1) : -1);
  }
  const value = new Array<number>(letters.length).fill(-1);
  let used = 0;
  let count = 0;
  let first: Record<string, number> | null = null;

  const canTake = (letter: number, digit: number): boolean =>
    (used & (1 << digit)) === 0 && !(digit === 0 && leading.has(letter));

  function column(c: number, carry: number): void {
    if (count >= limit) return;
    if (c === width) {
      if (carry !== 0) return;
      count++;
      if (first === null) first = Object.fromEntries(letters.map((letter, i) => [letter, value[i]]));
      return;
    }
    addend(c, 0, carry);
  }

  function addend(c: number, position: number, sum: number): void {
    const list = columnAddends[c];
    if (position === list.length) {
      settle(c, sum);
      return;
    }
    const letter = list[position];
    if (value[letter] >= 0) {
      addend(c, position + 1, sum + value[letter]);
      return;
    }
    for (let digit = 0; digit <= 9 && count < limit; digit++) {
      if (!canTake(letter, digit)) continue;
      value[letter] = digit;
      used |= 1 << digit;
      addend(c, position + 1, sum + digit);
      used &= ~(1 << digit);
      value[letter] = -1;
    }
  }

  function settle(c: number, sum: number): void {
    const digit = sum % 10;
    const carry = Math.floor(sum / 10);
    const letter = columnResult[c];
    if (letter < 0) {
      if (digit === 0) column(c + 1, carry); // else the sum is longer than the result word
      return;
    }
    if (value[letter] >= 0) {
      if (value[letter] === digit) column(c + 1, carry);
      return;
    }
    if (!canTake(letter, digit)) return;
    value[letter] = digit;
    used |= 1 << digit;
    column(c + 1, carry);
    used &= ~(1 << digit);
    value[letter] = -1;
  }

  column(0, 0);
  return { count, first };
}
