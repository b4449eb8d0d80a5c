import { type Finality, finalityOf } from '../finality.js';
import type { FinishReason } from '../task.js';
import { lastDigitEnd } from './parse.js';

/**
 * Is the last integer of a counting response (the authors' parser) the model's final answer? What follows it
 * decides (src/tasks/finality.ts), and a count hedged with another one (`26 (or 27, if …)`, `26 or maybe 27`) is
 * no single answer. Linear in the text length.
 */

/** Two counts offered as alternatives on one line, the second the last integer: `26 (or 27`, `26, or maybe 27`. */
const HEDGED_COUNT =
  /\p{Nd}[\p{Nd},.]*\s*[(,/]?\s*(?:or|maybe|possibly|perhaps|alternatively)\s+(?:(?:maybe|possibly|perhaps|even|about)\s+)?-?\p{Nd}+[^\p{Nd}\n]*$/iu;

export function countFinality(text: string, finishReason: FinishReason | undefined): Finality {
  const end = lastDigitEnd(text);
  if (end < 0) return { kind: 'final' };
  const lineStart = text.lastIndexOf('\n', end - 1) + 1;
  const lineEnd = text.indexOf('\n', end);
  const line = text.slice(lineStart, lineEnd < 0 ? text.length : lineEnd);
  // An integer is closed by whatever non-digit follows it: at the very end of a cut-off output it may not be.
  const finality = finalityOf(text, { end, delimited: end < text.length }, finishReason);
  if (finality.kind !== 'final' && finality.kind !== 'hedged') return finality;
  if (HEDGED_COUNT.test(line.slice(-200))) {
    return { kind: 'hedged', issue: 'the count is hedged with another one: no single final answer' };
  }
  return finality.kind === 'hedged' ? { kind: 'final' } : finality;
}
