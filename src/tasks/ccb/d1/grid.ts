/** D1 Alien Grid state and the release's seven operations, in release order (the order is part of the RNG contract). */

export type Grid = number[][];

export const D1_OPS = [
  'ROTATE_90_CW',
  'SHIFT_ROW_2_LEFT',
  'SWAP_CORNERS',
  'REVERSE_GRID',
  'FLIP_HORIZONTAL',
  'TRANSPOSE_GRID',
  'SHIFT_COL_1_UP',
] as const;
export type D1Op = (typeof D1_OPS)[number];

export const START_GRID: Grid = [
  [1, 2, 3],
  [4, 5, 6],
  [7, 8, 9],
];

const copy = (g: Grid): Grid => g.map((row) => [...row]);

/** Each operation computes every cell from the pre-op grid. */
export function applyD1(op: D1Op, g: Grid): Grid {
  switch (op) {
    case 'ROTATE_90_CW':
      return [0, 1, 2].map((i) => [0, 1, 2].map((j) => g[2 - j][i]));
    case 'SHIFT_ROW_2_LEFT': {
      const out = copy(g);
      out[1] = [g[1][1], g[1][2], g[1][0]];
      return out;
    }
    case 'SWAP_CORNERS': {
      const out = copy(g);
      out[0][0] = g[2][2];
      out[2][2] = g[0][0];
      out[0][2] = g[2][0];
      out[2][0] = g[0][2];
      return out;
    }
    case 'REVERSE_GRID': {
      const flat = g.flat().reverse();
      return [flat.slice(0, 3), flat.slice(3, 6), flat.slice(6, 9)];
    }
    case 'FLIP_HORIZONTAL':
      return g.map((row) => [...row].reverse());
    case 'TRANSPOSE_GRID':
      return [0, 1, 2].map((i) => [0, 1, 2].map((j) => g[j][i]));
    case 'SHIFT_COL_1_UP': {
      const out = copy(g);
      out[0][0] = g[1][0];
      out[1][0] = g[2][0];
      out[2][0] = g[0][0];
      return out;
    }
  }
}

/** Python `str` of a list of lists: `[[1, 2, 3], [4, 5, 6], [7, 8, 9]]`. */
export const formatGrid = (g: Grid): string => `[${g.map((row) => `[${row.join(', ')}]`).join(', ')}]`;

const GRID_RE = /^\[\[(-?\d+),(-?\d+),(-?\d+)\],\[(-?\d+),(-?\d+),(-?\d+)\],\[(-?\d+),(-?\d+),(-?\d+)\]\]$/;

/** A whitespace-free grid text as a 3×3 integer grid, or null when it is not one. */
export function readGrid(compact: string): Grid | null {
  const m = GRID_RE.exec(compact);
  if (m === null) return null;
  const cells = m.slice(1).map(Number);
  return [cells.slice(0, 3), cells.slice(3, 6), cells.slice(6, 9)];
}

/** Grid integrity (paper profile): the grid holds each of 1..9 exactly once. */
export function isPermutationGrid(g: Grid): boolean {
  const seen = new Set(g.flat());
  return seen.size === 9 && [1, 2, 3, 4, 5, 6, 7, 8, 9].every((v) => seen.has(v));
}
