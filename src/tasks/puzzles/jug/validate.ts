import type { PuzzleOutcome } from '../../outcome.js';
import { failOutcome, passOutcome, shortJson } from '../common/index.js';
import { applyOperator, JUG_OPERATORS, type JugOperator, type JugState } from './rules.js';

const isOperator = (value: unknown): value is JugOperator =>
  typeof value === 'string' && (JUG_OPERATORS as readonly string[]).includes(value);

/** Why a legal operator moved no water (the closest thing to an over/underflow under the δ = min rule). */
function noOpReason(op: JugOperator, [a, b]: JugState, capA: number, capB: number): string | null {
  const full = { A: a === capA, B: b === capB };
  const empty = { A: a === 0, B: b === 0 };
  if (op === 'Fill A' && full.A) return 'Fill A on a full jug A (overflow) does nothing';
  if (op === 'Fill B' && full.B) return 'Fill B on a full jug B (overflow) does nothing';
  if (op === 'Empty A' && empty.A) return 'Empty A on an empty jug A does nothing';
  if (op === 'Empty B' && empty.B) return 'Empty B on an empty jug B does nothing';
  if (op === 'Pour A to B' && (empty.A || full.B)) {
    return empty.A
      ? 'Pour A to B from an empty jug A (underflow) moves no water'
      : 'Pour A to B into a full jug B (overflow) moves no water';
  }
  if (op === 'Pour B to A' && (empty.B || full.A)) {
    return empty.B
      ? 'Pour B to A from an empty jug B (underflow) moves no water'
      : 'Pour B to A into a full jug A (overflow) moves no water';
  }
  return null;
}

const MAX_NOTES = 5;

/**
 * The validator of docs/spec/puzzles.md §8: a step that is not a one-element list holding one of the six exact operator strings fails at
 * that step; otherwise the sequence is simulated and passes iff a jug holds g after the last step. On a goal
 * failure kStar is the step after the first time g was reached (the answer went on past the goal) or T+1, and
 * the issue list adds up to five steps that moved no water (overflowing fills/pours, pours from empty jugs).
 */
export function validateJug(capA: number, capB: number, goal: number, entries: readonly unknown[]): PuzzleOutcome {
  let state: JugState = [0, 0];
  let firstReached = -1;
  const notes: string[] = [];
  for (let index = 0; index < entries.length; index++) {
    const step = index + 1;
    const entry = entries[index];
    if (!Array.isArray(entry) || entry.length !== 1) {
      return failOutcome([`step ${step}: not a one-element list ["operator"]: ${shortJson(entry)}`], step);
    }
    const op = entry[0] as unknown;
    if (!isOperator(op)) {
      return failOutcome(
        [`step ${step}: unknown operator ${shortJson(op)} (use exactly: ${JUG_OPERATORS.join(', ')})`],
        step,
      );
    }
    const noOp = noOpReason(op, state, capA, capB);
    if (noOp && notes.length < MAX_NOTES) notes.push(`step ${step}: ${noOp}`);
    state = applyOperator(state, op, capA, capB);
    if (firstReached < 0 && (state[0] === goal || state[1] === goal)) firstReached = step;
  }
  if (state[0] === goal || state[1] === goal) return passOutcome();
  const final = `(A, B) = (${state[0]}, ${state[1]})`;
  if (firstReached > 0) {
    return failOutcome(
      [
        `goal not held at the end: ${goal} was reached after step ${firstReached}, but the sequence went on to ${final}`,
        ...notes,
      ],
      firstReached + 1,
    );
  }
  return failOutcome(
    [`goal not reached after ${entries.length} steps: ${final}, target ${goal}`, ...notes],
    entries.length + 1,
  );
}
