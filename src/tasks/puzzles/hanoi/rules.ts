/**
 * Tower of Hanoi (docs/spec/puzzles.md §2). Disks 1 (smallest) … n (largest) start on
 * peg A; the goal is all disks on peg C. A move is `[disk, from, to]` with pegs "A" | "B" | "C".
 */
export const PEGS = ['A', 'B', 'C'] as const;
export type Peg = (typeof PEGS)[number];
export type HanoiMove = [disk: number, from: Peg, to: Peg];
/** Peg contents bottom → top, in the order A, B, C. */
export type HanoiState = [number[], number[], number[]];

export const initialState = (n: number): HanoiState => [Array.from({ length: n }, (_, i) => n - i), [], []];

/** The unique optimal solution, 2^n − 1 moves (recursive construction). */
export function solveHanoi(n: number): HanoiMove[] {
  const moves: HanoiMove[] = [];
  const step = (k: number, from: Peg, to: Peg, via: Peg): void => {
    if (k === 0) return;
    step(k - 1, from, via, to);
    moves.push([k, from, to]);
    step(k - 1, via, to, from);
  };
  step(n, 'A', 'C', 'B');
  return moves;
}

/** The state after each move of a legal sequence. */
export function hanoiTrace(n: number, moves: readonly HanoiMove[]): HanoiState[] {
  const state = initialState(n);
  return moves.map(([, from, to]) => {
    state[PEGS.indexOf(to)].push(state[PEGS.indexOf(from)].pop()!);
    return [[...state[0]], [...state[1]], [...state[2]]];
  });
}
