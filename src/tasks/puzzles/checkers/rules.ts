import type { PuzzleOutcome } from '../../outcome.js';
import { failOutcome, passOutcome, shortJson } from '../common/index.js';

/**
 * Checker jumping (docs/spec/puzzles.md §3, paper §3.1.2 and Algorithm 2). A board of 2n+1 cells written as a string
 * over R (red), B (blue), _ (empty): `R…R_B…B` → goal `B…B_R…R`. A move is `[colour, from, to]` with
 * 0-indexed cells. Red moves right, blue moves left; a move slides into the adjacent empty cell or jumps over
 * one occupied cell (the paper's rule: the jumped cell must be non-empty, of either colour) into the empty cell.
 */
export type Colour = 'R' | 'B';
export type CheckerMove = [colour: Colour, from: number, to: number];

export const initialBoard = (n: number): string => `${'R'.repeat(n)}_${'B'.repeat(n)}`;
export const goalBoard = (n: number): string => `${'B'.repeat(n)}_${'R'.repeat(n)}`;

const direction = (colour: Colour): number => (colour === 'R' ? 1 : -1);

export function applyMove(board: string, [, from, to]: CheckerMove): string {
  const cells = board.split('');
  cells[to] = cells[from];
  cells[from] = '_';
  return cells.join('');
}

/** Legal forward moves from `board`, ordered by source cell. `oppositeJumpOnly` applies Apple's stricter rule. */
export function legalMoves(board: string, oppositeJumpOnly = false): CheckerMove[] {
  const moves: CheckerMove[] = [];
  for (let from = 0; from < board.length; from++) {
    const colour = board[from];
    if (colour !== 'R' && colour !== 'B') continue;
    const dir = direction(colour);
    if (board[from + dir] === '_') moves.push([colour, from, from + dir]);
    const over = board[from + dir];
    const jumpable = over !== undefined && over !== '_' && (!oppositeJumpOnly || over !== colour);
    if (jumpable && board[from + 2 * dir] === '_') moves.push([colour, from, from + 2 * dir]);
  }
  return moves;
}

/**
 * Number of move sequences from the initial board to the goal, and the shortest/longest such length. Forward
 * moves strictly increase total displacement, so the state graph is a DAG and memoised counting is exact.
 */
export function countSolutions(
  n: number,
  oppositeJumpOnly = false,
): { count: number; minLength: number; maxLength: number } {
  const goal = goalBoard(n);
  const memo = new Map<string, { count: number; minLength: number; maxLength: number }>();
  const visit = (board: string): { count: number; minLength: number; maxLength: number } => {
    if (board === goal) return { count: 1, minLength: 0, maxLength: 0 };
    const cached = memo.get(board);
    if (cached) return cached;
    let result = { count: 0, minLength: Number.POSITIVE_INFINITY, maxLength: Number.NEGATIVE_INFINITY };
    for (const move of legalMoves(board, oppositeJumpOnly)) {
      const sub = visit(applyMove(board, move));
      if (sub.count === 0) continue;
      result = {
        count: result.count + sub.count,
        minLength: Math.min(result.minLength, sub.minLength + 1),
        maxLength: Math.max(result.maxLength, sub.maxLength + 1),
      };
    }
    memo.set(board, result);
    return result;
  };
  return visit(initialBoard(n));
}

/** The first solution in source-cell move order (depth-first search with dead-end memo). */
export function solveCheckers(n: number): CheckerMove[] {
  const goal = goalBoard(n);
  const dead = new Set<string>();
  const path: CheckerMove[] = [];
  const search = (board: string): boolean => {
    if (board === goal) return true;
    if (dead.has(board)) return false;
    for (const move of legalMoves(board)) {
      path.push(move);
      if (search(applyMove(board, move))) return true;
      path.pop();
    }
    dead.add(board);
    return false;
  };
  if (!search(initialBoard(n))) throw new Error(`checkers: no solution for n=${n} (impossible by theory)`);
  return path;
}

/** The board after each move of a sequence (no legality check). */
export const checkersTrace = (n: number, moves: readonly CheckerMove[]): string[] => {
  let board = initialBoard(n);
  return moves.map((move) => {
    board = applyMove(board, move);
    return board;
  });
};

/** Algorithm 2, first failure wins; kStar = offending move (T+1 when the final board is not the goal). */
export function validateCheckers(n: number, entries: readonly unknown[]): PuzzleOutcome {
  let board = initialBoard(n);
  for (let index = 0; index < entries.length; index++) {
    const step = index + 1;
    const entry = entries[index];
    const fail = (reason: string) => failOutcome([`move ${step}: ${reason}`], step);
    if (!Array.isArray(entry) || entry.length !== 3) return fail('not a [colour, from, to] triple');
    const [colour, from, to] = entry as unknown[];
    if ((colour !== 'R' && colour !== 'B') || !Number.isInteger(from) || !Number.isInteger(to)) {
      return fail(`expected ["R" or "B", integer cell, integer cell], got ${shortJson(entry)}`);
    }
    const i = from as number;
    const j = to as number;
    if (i < 0 || j < 0 || i >= board.length || j >= board.length) {
      return fail(`cell out of bounds (cells are 0–${board.length - 1})`);
    }
    if (board[i] !== colour)
      return fail(`cell ${i} holds ${board[i] === '_' ? 'no checker' : board[i]}, not ${colour}`);
    if (board[j] !== '_') return fail(`destination cell ${j} is not empty`);
    const delta = j - i;
    if (delta * direction(colour) < 0) return fail(`${colour} moves backwards (${i} → ${j})`);
    if (Math.abs(delta) === 2 && board[(i + j) / 2] === '_') return fail(`jump from ${i} to ${j} over an empty cell`);
    if (Math.abs(delta) !== 1 && Math.abs(delta) !== 2) return fail(`move of ${Math.abs(delta)} cells (only 1 or 2)`);
    board = applyMove(board, [colour, i, j]);
  }
  if (board === goalBoard(n)) return passOutcome();
  return failOutcome(
    [`goal not reached after ${entries.length} moves: board ${board}, goal ${goalBoard(n)}`],
    entries.length + 1,
  );
}
