import type { PuzzleOutcome } from '../../outcome.js';
import { failOutcome, passOutcome, shortJson } from '../common/index.js';

/**
 * Tower of Hanoi (docs/spec/puzzles.md §2, paper §3.1.1 and Algorithm 1). Disks 1 (smallest) … n (largest) start on
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

const isPeg = (value: unknown): value is Peg => value === 'A' || value === 'B' || value === 'C';

/**
 * Algorithm 1, first failure wins, kStar = 1-based index of the offending move (T+1 when the goal is not
 * reached after all T moves). Decision (reported): a move with from = to is rejected, following the paper's
 * action set A = {Move(d, p_i → p_j) | p_i ≠ p_j} (§3.1.1), although Algorithm 1 alone would accept it as a
 * no-op.
 */
export function validateHanoi(n: number, entries: readonly unknown[]): PuzzleOutcome {
  const pegs = initialState(n);
  for (let index = 0; index < entries.length; index++) {
    const step = index + 1;
    const entry = entries[index];
    if (!Array.isArray(entry) || entry.length !== 3) {
      return failOutcome([`move ${step}: not a [disk, from, to] triple`], step);
    }
    const [disk, from, to] = entry as unknown[];
    if (typeof disk !== 'number' || !Number.isInteger(disk) || !isPeg(from) || !isPeg(to)) {
      return failOutcome(
        [`move ${step}: expected [integer disk, peg, peg] with pegs "A", "B", "C", got ${shortJson(entry)}`],
        step,
      );
    }
    if (from === to) return failOutcome([`move ${step}: from and to are the same peg (${from})`], step);
    const source = pegs[PEGS.indexOf(from)];
    const target = pegs[PEGS.indexOf(to)];
    if (source.length === 0) return failOutcome([`move ${step}: peg ${from} is empty`], step);
    const top = source[source.length - 1];
    if (disk !== top) {
      return failOutcome([`move ${step}: disk ${disk} is not on top of peg ${from} (the top disk is ${top})`], step);
    }
    if (target.length > 0 && target[target.length - 1] < disk) {
      return failOutcome(
        [`move ${step}: disk ${disk} placed on smaller disk ${target[target.length - 1]} on peg ${to}`],
        step,
      );
    }
    target.push(source.pop()!);
  }
  const solved = pegs[0].length === 0 && pegs[1].length === 0 && pegs[2].length === n;
  if (solved) return passOutcome();
  return failOutcome(
    [
      `goal not reached after ${entries.length} moves: A=[${pegs[0].join(',')}] B=[${pegs[1].join(',')}] ` +
        `C=[${pegs[2].join(',')}]`,
    ],
    entries.length + 1,
  );
}
