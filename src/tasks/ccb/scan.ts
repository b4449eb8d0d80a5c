/**
 * Linear-time text scanners behind the CCB parsers. The release uses lazy regexes such as
 * `Step\s*\d+:\s*\[\[.*?\]\]` under `findall`; run naively, a line holding many unclosed headers makes that
 * quadratic. These scanners return the same matches in O(length): header regexes have no nested or
 * overlapping quantifiers, and a body that failed to close on its line is never rescanned.
 */

export interface StepMatch {
  /** Index of the `Step` header. */
  start: number;
  /** Index of the state's opening bracket. */
  bodyStart: number;
  /** Index just after the state's closing bracket. */
  end: number;
}

const isHorizontalSpace = (c: string): boolean => c === ' ' || c === '\t' || c === '\r' || c === '\f' || c === '\v';

/**
 * Every step `header … body` in order, `findall`-style (a match resumes scanning after its end). `header`
 * is a case-insensitive regex whose first `[` opens the state; the state must close (per `closeAt`) after
 * the header, on the header's last line.
 */
export function scanSteps(text: string, header: RegExp, closeAt: (text: string, index: number) => number): StepMatch[] {
  const out: StepMatch[] = [];
  const re = new RegExp(header.source, header.flags.includes('g') ? header.flags : `${header.flags}g`);
  let failedUntil = -1; // bodies starting before this index lie on a line already known not to close
  re.lastIndex = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    const bodyEnd = m.index + m[0].length;
    const bodyStart = m.index + m[0].indexOf('[');
    if (bodyEnd <= failedUntil) {
      re.lastIndex = m.index + 1;
      continue;
    }
    let i = bodyEnd;
    let end = -1;
    for (; i < text.length && text[i] !== '\n'; i++) {
      const closed = closeAt(text, i);
      if (closed > 0) {
        end = closed;
        break;
      }
    }
    if (end < 0) {
      failedUntil = i;
      re.lastIndex = m.index + 1;
      continue;
    }
    out.push({ start: m.index, bodyStart, end });
    re.lastIndex = end;
  }
  return out;
}

/** `]]` with optional horizontal whitespace between: returns the index after it, or −1. */
export function closeDoubleBracket(text: string, i: number): number {
  if (text[i] !== ']') return -1;
  let j = i + 1;
  while (j < text.length && isHorizontalSpace(text[j])) j++;
  return text[j] === ']' ? j + 1 : -1;
}

/** A single `]`: returns the index after it, or −1. */
export function closeBracket(text: string, i: number): number {
  return text[i] === ']' ? i + 1 : -1;
}

/** Removes every whitespace character (the release's `re.sub(r'\s+', '', …)`). */
export const stripWhitespace = (s: string): string => s.replace(/\s+/g, '');

/**
 * Every `ANSWER` keyword followed by `separator`, in order (one regex pass). Only the upper-case keyword the
 * prompt asks for is an answer keyword when the text has one: a later "my first answer: …" or "Answer: …" in
 * prose is a mention, not the last block. A response without any upper-case keyword is read case-insensitively,
 * as the release reads it (`Answer: [[…]]` alone is still an answer).
 */
export function findAnswerKeywords(text: string, separator: RegExp): Array<{ start: number; end: number }> {
  const find = (flags: string) =>
    Array.from(text.matchAll(new RegExp(`ANSWER${separator.source}`, flags)), (m) => ({
      start: m.index,
      end: m.index + m[0].length,
    }));
  const upper = find('g');
  return upper.length > 0 ? upper : find('gi');
}
