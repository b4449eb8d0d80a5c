import type { PuzzleOutcome } from '../../outcome.js';
import type { GradeContext } from '../../task.js';
import type { AnswerFormat } from './answer-format.js';
import { claimsImpossible, preParseCollapse } from './collapse.js';
import { finalPuzzleAnswer } from './final-answer.js';
import { collapseOutcome, failOutcome } from './outcome.js';

const IMPOSSIBLE_CLAIM = 'declares the instance impossible, but every generated instance is solvable';

/**
 * The shared Pass/Fail/Collapse pipeline (docs/spec/puzzles.md §1.1) for families whose instances are always solvable:
 * 1. empty / cut off by the token limit / degenerate repetition → collapse (before parsing);
 * 2. no parseable answer block → collapse (an "impossible"/"no solution" claim is reported as such);
 * 3. an answer that is empty (e.g. `moves = []`) next to an impossibility claim → collapse;
 * 4. an answer that is not final (src/tasks/finality.ts): taken back in prose after it, or followed by more
 *    writing in an output that ends mid-sentence → collapse (no final answer we can read); hedged with a second
 *    answer → fail. A plain restatement after the block replaces it (final-answer.ts);
 * 5. otherwise the family's validator decides pass or fail.
 */
export function gradeSolvable<Answer>(
  text: string,
  context: GradeContext | undefined,
  format: AnswerFormat<Answer>,
  validate: (answer: Answer) => PuzzleOutcome,
): PuzzleOutcome {
  const early = preParseCollapse(text, context?.finishReason);
  if (early !== null) return collapseOutcome([early]);
  const final = finalPuzzleAnswer(text, format.name, context?.finishReason);
  const parsed = format.parse(final.text);
  if (!parsed.ok) {
    return collapseOutcome(claimsImpossible(text) ? [IMPOSSIBLE_CLAIM, parsed.reason] : [parsed.reason]);
  }
  if (format.isEmpty(parsed.value) && claimsImpossible(text)) return collapseOutcome([IMPOSSIBLE_CLAIM]);
  const { finality } = final;
  if (finality.kind === 'cut-off' || finality.kind === 'retracted') return collapseOutcome([finality.issue]);
  if (finality.kind === 'hedged') return failOutcome([finality.issue]);
  const outcome = validate(parsed.value);
  return final.restated
    ? { ...outcome, issues: ['the answer restated after the block is graded', ...outcome.issues] }
    : outcome;
}
