import { type Finality, finalityOf } from '../finality.js';
import type { FinishReason } from '../task.js';
import { lastDigitEnd } from './parse.js';

/**
 * Is the last integer of a counting response (the authors' parser) the model's final answer? What follows it
 * decides (src/tasks/finality.ts), and a count hedged with another one (`26 (or 27, if …)`, `26 or maybe 27`) is
 * no single answer. Linear in the text length.
 */

/** Two counts offered as alternatives on one line, the second the last integer: `26 (or 27`, `26, or maybe 27`, `26 / 27`. */
const HEDGED_COUNT =
  /\p{Nd}[\p{Nd},.]*\s*(?:[(,/]?\s*(?:or|maybe|possibly|perhaps|alternatively)\s+(?:(?:maybe|possibly|perhaps|even|about)\s+)?|[/|]\s*)-?\p{Nd}+[^\p{Nd}\n]*$/iu;

/**
 * A count given as a range or an approximation is no exact count: `40–42`, `40 to 42`, `between 40 and 42`,
 * `about 40`, `~40`, `≈ 40`, `40 ± 2`, `40+`, `40-ish`, `roughly 40` (and the same words in the languages reasoning models
 * mix). Read on the last integer's line: the range's upper end or the approximate value is the last integer. A
 * dash range's lower end is at least half its upper one (`positions 1–26` is no range of counts).
 */
const RANGE_BEFORE = /(\p{Nd}+)\s*(?:-|–|—|~|to|bis|до|até|至|到|～|〜)\s*$|\bbetween\s+(\p{Nd}+)\s+and\s*$/iu;
const APPROXIMATE_BEFORE =
  /(?:[~≈∼]|\p{Nd}\s*(?:±|\+\/-|\+-)|\b(?:about|approximately|approx\.?|around|roughly|nearly|almost|circa|ca\.|some|more than|less than|fewer than|over|under|at least|at most|close to|estimated|aproximadamente|alrededor de|unos|environ|à peu près|etwa|ungefähr|circa|примерно|около|приблизительно|cerca de)|約|大约|大約|左右|およそ|ほぼ)\s*$/iu;
const APPROXIMATE_AFTER = /^\s*(?:\+|-?ish\b|or so\b|odd\b|or more\b|or less\b|左右|くらい|ぐらい|程度|以上|多)/iu;

function rangeOrApproximation(line: string, integerAt: number, integerEnd: number): boolean {
  let start = integerAt;
  while (start > 0 && /\p{Nd}/u.test(line[start - 1] ?? '')) start--;
  const before = line.slice(Math.max(0, start - 40), start);
  const after = line.slice(integerEnd, integerEnd + 12);
  // A range brackets the count: its lower end is near its upper one. "counted from 1 to 26" and "positions
  // 1–26" name the items counted, not a range of counts.
  const bounds = RANGE_BEFORE.exec(before);
  const lower = Number(bounds?.[1] ?? bounds?.[2]);
  const upper = Number(line.slice(start, integerEnd));
  const range =
    bounds !== null &&
    !/\bfrom\s+\p{Nd}+\s*(?:to|-|–)\s*$/iu.test(before) &&
    (bounds[2] !== undefined || !(Number.isFinite(lower) && Number.isFinite(upper) && lower < upper / 2));
  return range || APPROXIMATE_BEFORE.test(before) || APPROXIMATE_AFTER.test(after);
}

/** A line that is a running index of an enumeration: `37.`, `37)`, `- 37:`, `37. a`. */
const ENUMERATION_INDEX = /^\s*[-*]?\s*\p{Nd}+\s*[.):,-]?\s*(?:\S{1,12})?\s*$/u;

const previousLine = (text: string, lineStart: number): string =>
  lineStart === 0 ? '' : text.slice(text.lastIndexOf('\n', lineStart - 2) + 1, lineStart - 1);

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
  if (
    finishReason === 'length' &&
    ENUMERATION_INDEX.test(line) &&
    ENUMERATION_INDEX.test(previousLine(text, lineStart))
  ) {
    return { kind: 'cut-off', issue: 'cut off at the token limit mid-enumeration: the last index is no final count' };
  }
  if (rangeOrApproximation(line, end - lineStart - 1, end - lineStart)) {
    return { kind: 'hedged', issue: 'the count is given as a range or an approximation: not an exact count' };
  }
  return finality.kind === 'hedged' ? { kind: 'final' } : finality;
}
