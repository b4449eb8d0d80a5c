import type { PuzzleOutcome } from '../../outcome.js';
import type { GradeContext, ParseResult } from '../../task.js';
import { extractAssignedJson } from './answer-block.js';
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
export function gradeSolvable<T>(
  text: string,
  context: GradeContext | undefined,
  parse: (text: string) => ParseResult<T>,
  validate: (answer: T) => PuzzleOutcome,
  isEmptyAnswer: (answer: T) => boolean,
): PuzzleOutcome {
  const early = preParseCollapse(text, context?.finishReason);
  if (early !== null) return collapseOutcome([early]);
  const parsed = parse(text);
  if (!parsed.ok) {
    return collapseOutcome(claimsImpossible(text) ? [IMPOSSIBLE_CLAIM, parsed.reason] : [parsed.reason]);
  }
  if (isEmptyAnswer(parsed.value) && claimsImpossible(text)) return collapseOutcome([IMPOSSIBLE_CLAIM]);
  return validate(parsed.value);
}

/** Parse `name = [ ... ]` into the list of raw entries; entries are checked one by one by the validator. */
export function parseJsonList(text: string, name: string): ParseResult<unknown[]> {
  const block = extractAssignedJson(text, name);
  if (!block.ok) return block;
  if (!Array.isArray(block.value)) return { ok: false, reason: `malformed answer: \`${name}\` must be a JSON list` };
  return { ok: true, value: block.value };
}

/** Parse `name = { ... }` into a plain JSON object (keys are strings; values are checked by the validator). */
export function parseJsonObject(text: string, name: string): ParseResult<Record<string, unknown>> {
  const block = extractAssignedJson(text, name);
  if (!block.ok) return block;
  const value = block.value;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, reason: `malformed answer: \`${name}\` must be a JSON object` };
  }
  return { ok: true, value: value as Record<string, unknown> };
}
