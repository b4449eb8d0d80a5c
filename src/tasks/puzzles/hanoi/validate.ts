import type { PuzzleOutcome } from '../../outcome.js';
import { failOutcome, passOutcome, shortJson } from '../common/index.js';
import { initialState, PEGS, type Peg } from './rules.js';

const isPeg = (value: unknown): value is Peg => value === 'A' || value === 'B' || value === 'C';

/**
 * The validator of docs/spec/puzzles.md §2, first failure wins; kStar = 1-based index of the offending move (T+1
 * when the goal is not reached after all T moves). A move with from = to is rejected: a move goes from one peg
 * to a different one, although the move-by-move check alone would accept it as a no-op.
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
