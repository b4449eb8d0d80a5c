import { listBounded } from '../../echo.js';
import type { PuzzleOutcome } from '../../outcome.js';
import type { ParseResult } from '../../task.js';
import { failOutcome, passOutcome } from '../common/index.js';
import { applyPermutation, isSolved } from './cube.js';
import { parseMoveToken } from './notation.js';

/** One whitespace-separated token of the answer, or a list entry that is not a string at all. */
export type RubikToken = { kind: 'text'; text: string } | { kind: 'not-a-string'; shown: string };

export interface RubikAnswer {
  tokens: RubikToken[];
}

const shorten = (text: string): string => (text.length > 24 ? `${text.slice(0, 21)}...` : text);

/**
 * The `moves = [...]` list read into tokens. Every list entry should be a string; entries are split on
 * whitespace (and commas), so both `["R", "U'"]` and `["R U'"]` give the tokens R, U' (docs/spec/puzzles.md
 * §10.2). A non-string entry is kept as such for the validator to name; reading never fails.
 */
export function readMoves(list: unknown[]): ParseResult<RubikAnswer> {
  const tokens: RubikToken[] = [];
  for (const entry of list) {
    if (typeof entry !== 'string') {
      tokens.push({ kind: 'not-a-string', shown: shorten(JSON.stringify(entry) ?? String(entry)) });
      continue;
    }
    for (const piece of entry.split(/[\s,]+/)) if (piece !== '') tokens.push({ kind: 'text', text: piece });
  }
  return { ok: true, value: { tokens } };
}

/**
 * The validator of docs/spec/puzzles.md §10.2: every token must be legal notation (illegal tokens are listed, the
 * first LIST_MAX of them, the rest counted; kStar is the first, 1-based); then the moves are simulated on the
 * facelet string and the cube must end solved.
 */
export function validateRubik(start: string, answer: RubikAnswer): PuzzleOutcome {
  const illegal: string[] = [];
  let first = -1;
  const perms = answer.tokens.map((token, i) => {
    const move = token.kind === 'text' ? parseMoveToken(token.text) : null;
    if (move === null) {
      if (first < 0) first = i + 1;
      const shown = token.kind === 'text' ? `'${shorten(token.text)}'` : `${token.shown} (not a string)`;
      illegal.push(`move ${i + 1}: ${shown} is not a legal move token`);
    }
    return move?.perm;
  });
  if (illegal.length > 0) return failOutcome(listBounded(illegal, 'illegal move tokens'), first);
  let state = start;
  for (const perm of perms) if (perm !== undefined) state = applyPermutation(state, perm);
  if (isSolved(state)) return passOutcome();
  let wrong = 0;
  for (let face = 0; face < 6; face++) {
    for (let i = 0; i < 9; i++) if (state[9 * face + i] !== state[9 * face + 4]) wrong++;
  }
  return failOutcome([
    `the cube is not solved after ${answer.tokens.length} moves: ${wrong} facelets differ from their face's centre ` +
      `(final state ${state})`,
  ]);
}
