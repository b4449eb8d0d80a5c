import { finalityOf } from '../finality.js';
import type { CountOutcome } from '../outcome.js';
import type { GradeContext } from '../task.js';
import { balancedCandidates, type JsonObject, locateJsonObject, objectAt } from './json-extract.js';

/**
 * The final-answer rules on the JSON-object tasks (dual, agent). Which object is read stays the authors' (the
 * first, json-extract.ts), so their results reproduce; what follows it can only lower the grade:
 * - cut off while still writing after it (src/tasks/finality.ts), or taken back in prose → unparsed;
 * - hedged with another answer, or followed by a different object (a restatement the authors' rule would not
 *   read) → not exact: the response holds two different answers.
 */

/** Key-order-insensitive equality of two parsed JSON values. */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => sameJson((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

function laterDifferentObject(text: string, first: JsonObject, from: number): boolean {
  for (const candidate of balancedCandidates(text, from)) {
    const other = objectAt(text, candidate);
    if (other !== null && !sameJson(other, first)) return true;
  }
  return false;
}

export function applyFinalObjectRules(outcome: CountOutcome, text: string, context: GradeContext = {}): CountOutcome {
  if (outcome.kind === 'unparsed') return outcome;
  const extraction = locateJsonObject(text);
  if (!extraction.ok) return outcome;
  const finality = finalityOf(text, { end: extraction.end, delimited: true }, context.finishReason);
  if (finality.kind === 'cut-off' || finality.kind === 'retracted') {
    return { ...outcome, kind: 'unparsed', parsed: null, relativeError: null, issues: [finality.issue] };
  }
  const issue =
    finality.kind === 'hedged'
      ? finality.issue
      : laterDifferentObject(text, extraction.value, extraction.end)
        ? 'a later JSON object differs from the one read: no single final answer'
        : null;
  if (issue === null) return outcome;
  return { ...outcome, kind: 'inexact', issues: [...outcome.issues, issue] };
}
