import type { PyRandom } from '../../../rng/index.js';

/**
 * Exact Sudoku search over any region partition: bitmask candidates (row ∪ column ∪ region), always
 * branching on the empty cell with the fewest candidates (MRV). Grids are row-major arrays of N² values,
 * 0 = blank; `regions[i]` is cell i's region id 0…N−1.
 */
export interface SearchResult {
  /** Solutions found, stopping at `limit`. */
  count: number;
  /** The first solution found, or null. */
  first: number[] | null;
  /** Search nodes visited; the search gives up (`exhausted` = false) at the node limit. */
  nodes: number;
  exhausted: boolean;
}

export interface SearchOptions {
  limit?: number;
  nodeLimit?: number;
  /** Shuffle the branch order at each node (randomised fill); deterministic without it. */
  rng?: PyRandom;
  /** Also branch on (unit, digit) pairs with few candidate cells; slower per node, far fewer nodes on jigsaws. */
  unitBranching?: boolean;
}

const bitCount = (mask: number): number => {
  let n = 0;
  for (let m = mask; m !== 0; m &= m - 1) n++;
  return n;
};

export function searchSudoku(
  grid: readonly number[],
  regions: readonly number[],
  n: number,
  options_: SearchOptions = {},
): SearchResult {
  const options = options_;
  const limit = options.limit ?? 2;
  const nodeLimit = options.nodeLimit ?? Number.POSITIVE_INFINITY;
  const cells = [...grid];
  const rowMask = new Array<number>(n).fill(0);
  const colMask = new Array<number>(n).fill(0);
  const regionMask = new Array<number>(n).fill(0);
  const result: SearchResult = { count: 0, first: null, nodes: 0, exhausted: true };
  for (let i = 0; i < n * n; i++) {
    const v = cells[i];
    if (v === 0) continue;
    const bit = 1 << (v - 1);
    const r = Math.floor(i / n);
    const c = i % n;
    if ((rowMask[r] | colMask[c] | regionMask[regions[i]]) & bit) return result; // contradictory givens
    rowMask[r] |= bit;
    colMask[c] |= bit;
    regionMask[regions[i]] |= bit;
  }
  const full = (1 << n) - 1;
  const rng = options.rng;

  // units: rows, columns, regions (3N lists of N cells) — the constraints of the exact cover
  const units: number[][] = [];
  for (let r = 0; r < n; r++) units.push(Array.from({ length: n }, (_, c) => r * n + c));
  for (let c = 0; c < n; c++) units.push(Array.from({ length: n }, (_, r) => r * n + c));
  for (let g = 0; g < n; g++) units.push(regions.flatMap((id, i) => (id === g ? [i] : [])));
  const candidates = new Array<number>(n * n).fill(0);

  const place = (cell: number, d: number, on: boolean): void => {
    const bit = 1 << (d - 1);
    const r = Math.floor(cell / n);
    const c = cell % n;
    const g = regions[cell];
    if (on) {
      cells[cell] = d;
      rowMask[r] |= bit;
      colMask[c] |= bit;
      regionMask[g] |= bit;
    } else {
      cells[cell] = 0;
      rowMask[r] &= ~bit;
      colMask[c] &= ~bit;
      regionMask[g] &= ~bit;
    }
  };

  /**
   * Branch on the tightest constraint, as exact cover does: the empty cell with the fewest candidate
   * digits, or a (unit, digit) pair with even fewer candidate cells (a hidden single when it is 1).
   */
  function step(): void {
    if (result.count >= limit || !result.exhausted) return;
    if (++result.nodes > nodeLimit) {
      result.exhausted = false;
      return;
    }
    let bestCell = -1;
    let bestCount = n + 1;
    for (let i = 0; i < n * n; i++) {
      if (cells[i] !== 0) continue;
      const mask = full & ~(rowMask[Math.floor(i / n)] | colMask[i % n] | regionMask[regions[i]]);
      candidates[i] = mask;
      const count = bitCount(mask);
      if (count < bestCount) {
        bestCell = i;
        bestCount = count;
      }
    }
    if (bestCell < 0) {
      result.count++;
      if (result.first === null) result.first = [...cells];
      return;
    }
    if (bestCount === 0) return;
    let options: [number, number][] = [];
    for (let d = 1; d <= n; d++) if (candidates[bestCell] & (1 << (d - 1))) options.push([bestCell, d]);
    if (bestCount > 1 && options_.unitBranching === true) {
      for (const unit of units) {
        let placed = 0;
        for (const cell of unit) if (cells[cell] !== 0) placed |= 1 << (cells[cell] - 1);
        for (let d = 1; d <= n; d++) {
          const bit = 1 << (d - 1);
          if (placed & bit) continue;
          let count = 0;
          for (const cell of unit) if (cells[cell] === 0 && candidates[cell] & bit) count++;
          if (count === 0) return;
          if (count < options.length) {
            options = unit.filter((cell) => cells[cell] === 0 && candidates[cell] & bit).map((cell) => [cell, d]);
            if (count === 1) break;
          }
        }
        if (options.length === 1) break;
      }
    }
    if (options.length > 1 && rng !== undefined) rng.shuffle(options);
    for (const [cell, d] of options) {
      place(cell, d, true);
      step();
      place(cell, d, false);
      if (result.count >= limit || !result.exhausted) return;
    }
  }

  step();
  return result;
}
