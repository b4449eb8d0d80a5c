import type { PuzzleOutcome } from '../../outcome.js';
import { failOutcome, passOutcome, shortJson } from '../common/index.js';
import { applyMove, direction, goalBoard, initialBoard } from './rules.js';

/** The validator of docs/spec/puzzles.md §3, first failure wins; kStar = offending move (T+1 when the final board is not the goal). */
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
