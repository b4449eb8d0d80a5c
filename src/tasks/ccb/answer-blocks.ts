import type { AnswerEnd } from '../finality.js';
import { findAnswerKeywords, stripWhitespace } from './scan.js';

/**
 * The final-answer rule shared by D1, D2 and D3: a response may hold several `ANSWER` blocks (a restated
 * answer, a self-correction); the LAST one decides, and k* is read from the trace that goes with it.
 * Everything here is linear: keywords, step starts and spans are visited in order with moving pointers.
 */

/** Where a domain found an answer state after a keyword, within `[from, to)`. */
export interface StateSpan {
  start: number;
  /** Index just after the state (or `to` when it never closed). */
  end: number;
  closed: boolean;
}

export interface AnswerBlock {
  /** Index of the `ANSWER` keyword. */
  keyword: number;
  start: number;
  end: number;
  closed: boolean;
}

/**
 * Every answer block: an `ANSWER` keyword followed, within its region (up to the next keyword), by a
 * state the domain can locate, with no trace step starting between the keyword and the state's end. The
 * latter makes "Here is my answer:" before a trace a mention, not an answer.
 */
export function findAnswerBlocks(
  text: string,
  separator: RegExp,
  stepStarts: readonly number[],
  locate: (from: number, to: number) => StateSpan | null,
): AnswerBlock[] {
  const keywords = findAnswerKeywords(text, separator);
  const blocks: AnswerBlock[] = [];
  let step = 0;
  let dangling = false;
  keywords.forEach((keyword, i) => {
    const to = i + 1 < keywords.length ? keywords[i + 1].start : text.length;
    const span = locate(keyword.end, to);
    dangling = span === null && blocks.length > 0 && REFERENCE.test(text.slice(keyword.end, keyword.end + 80));
    if (span === null) return;
    while (step < stepStarts.length && stepStarts[step] < keyword.end) step++;
    if (step < stepStarts.length && stepStarts[step] < span.end) return;
    blocks.push({ keyword: keyword.start, ...span });
  });
  // The last ANSWER keyword points back at an earlier answer ("ANSWER: see above"): which one is not said, and an
  // abandoned draft must not be read as the final answer. No answer is read.
  return dangling ? [] : blocks;
}

/** An answer keyword followed by a pointer to an earlier answer instead of an answer. */
const REFERENCE =
  /^\s*(?:\(|\*\*)?\s*(?:see|as|same|from|given|shown|stated|the one|my|it is|it's)?\b[^\n]{0,30}\b(?:above|before|earlier|previous(?:ly)?|as stated)\b/i;

/**
 * Where the final block's answer ends, for the finality rules (src/tasks/finality.ts): how many answer blocks the
 * text holds, and whether an earlier one differs from the final one (whitespace aside).
 */
export function answerEndOf(text: string, blocks: readonly AnswerBlock[], delimited: boolean): AnswerEnd | undefined {
  const final = blocks[blocks.length - 1];
  if (final === undefined) return undefined;
  const body = (b: AnswerBlock) => stripWhitespace(text.slice(b.start, b.end)).toLowerCase();
  const last = body(final);
  return {
    end: final.end,
    delimited,
    answers: blocks.length,
    differsFromEarlier: blocks.slice(0, -1).some((b) => body(b) !== last),
  };
}

/**
 * Indices of the steps that go with the final block. With one block or none: every step (the release's
 * positional rule). With several: the nearest stretch before the final block (between two blocks) that
 * holds a whole trace of `depth` steps; failing that, the nearest one with any step — so a correction
 * that restates only the answer, or re-checks one step, keeps the full trace before it.
 */
export function stepsForFinal(stepStarts: readonly number[], blocks: readonly AnswerBlock[], depth = 1): number[] {
  const all = stepStarts.map((_, i) => i);
  if (blocks.length <= 1) return all;
  const groups: number[][] = blocks.map(() => []);
  let b = 0;
  stepStarts.forEach((start, i) => {
    while (b < blocks.length && blocks[b].keyword <= start) b++;
    if (b < blocks.length && (b === 0 || start >= blocks[b - 1].end)) groups[b].push(i);
  });
  for (let g = groups.length - 1; g >= 0; g--) if (groups[g].length >= Math.max(1, depth)) return groups[g];
  for (let g = groups.length - 1; g >= 0; g--) if (groups[g].length > 0) return groups[g];
  return all;
}

/** Issue notes about the final-answer rule, for the trial's issues. */
export function finalAnswerNotes(blocks: readonly AnswerBlock[]): string[] {
  const notes: string[] = [];
  if (blocks.length > 1) notes.push(`${blocks.length} ANSWER blocks: the last one is graded`);
  const last = blocks[blocks.length - 1];
  if (last !== undefined && !last.closed) notes.push('the final ANSWER block is never closed');
  return notes;
}
