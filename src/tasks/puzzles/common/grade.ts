import type { PuzzleOutcome } from '../../outcome.js';
import type { GradeContext } from '../../task.js';
import type { AnswerFormat } from './answer-format.js';
import { claimsImpossible, preParseCollapse } from './collapse.js';
import { collapseOutcome } from './outcome.js';

const IMPOSSIBLE_CLAIM = 'declares the instance impossible, but every generated instance is solvable';

/**
 * The shared Pass/Fail/Collapse pipeline (docs/spec/puzzles.md §1.1) for families whose instances are always solvable:
 * 1. empty / cut off by the token limit / degenerate repetition → collapse (before parsing);
 * 2. no parseable answer block → collapse (an "impossible"/"no solution" claim is reported as such);
 * 3. an answer that is empty (e.g. `moves = []`) next to an impossibility claim → collapse;
 * 4. otherwise the family's validator decides pass or fail.
 */
export function gradeSolvable<Answer>(
  text: string,
  context: GradeContext | undefined,
  format: AnswerFormat<Answer>,
  validate: (answer: Answer) => PuzzleOutcome,
): PuzzleOutcome {
  const early = preParseCollapse(text, context?.finishReason);
  if (early !== null) return collapseOutcome([early]);
  const parsed = format.parse(text);
  if (!parsed.ok) {
    return collapseOutcome(claimsImpossible(text) ? [IMPOSSIBLE_CLAIM, parsed.reason] : [parsed.reason]);
  }
  if (format.isEmpty(parsed.value) && claimsImpossible(text)) return collapseOutcome([IMPOSSIBLE_CLAIM]);
  return validate(parsed.value);
}
