import { echo } from '../../echo.js';
import { answerEndOf, finalAnswerNotes, findAnswerBlocks, type StateSpan } from '../answer-blocks.js';
import type { CcbReading, StateReading } from '../reading.js';
import { findAnswerKeywords } from '../scan.js';
import { traceOfFinal } from '../trace-runs.js';

/** Release STEP_NUM_RE `Step\s*(\d+)\s*[:\-]` (case-insensitive). */
const STEP_HEADER = /step\s*\d+\s*[:-]/gi;
/** Release PAIR_RE `\b([A-J]{2}):([FR])\b` (case-insensitive), plus Var B's `P01P02:F` labels and spaces around `:`. */
const PAIR = /\b(?:([A-J])([A-J])|P(0[1-9]|10)P(0[1-9]|10))\s*:\s*([FR])\b/gi;
/** A query answer token: a pair tagged F, R or N. */
const QUERY_TOKEN = /\b(?:([A-J])([A-J])|P(0[1-9]|10)P(0[1-9]|10))\s*:\s*([FRN])\b/i;
/** Anything shaped like a pair token in upper case (`AK:F`, `AB:X`); those not matching PAIR are malformed. */
const PAIR_SHAPED = /\b[A-Z]{2}\s*:\s*[A-Z]\b/g;
const PAIR_EXACT = new RegExp(`^(?:${PAIR.source})$`, 'i');
const HAS_PAIR_SHAPED = new RegExp(PAIR_SHAPED.source);
const EMPTY_STATE = /^\s*\[\s*\]/;

const letter = (slot: string): string => String.fromCharCode(64 + Number(slot));

interface PairToken {
  x: string;
  y: string;
  tag: string;
}

function tokenOf(m: RegExpExecArray): PairToken {
  const x = m[1] !== undefined ? m[1].toUpperCase() : letter(m[3]);
  const y = m[2] !== undefined ? m[2].toUpperCase() : letter(m[4]);
  return { x, y, tag: m[5].toUpperCase() };
}

function pairsIn(segment: string): PairToken[] {
  return Array.from(segment.matchAll(PAIR), (m) => tokenOf(m));
}

/** The canonical state: the sorted set of `XY:T` tokens joined by `,` (release `canonical state`). */
export const canonicalPairs = (tokens: readonly PairToken[]): string =>
  [...new Set(tokens.map((t) => `${t.x}${t.y}:${t.tag}`))].sort().join(',');

/**
 * Constraint rules (docs/spec/ccb.md §5, constraint violations (a)–(c)): a pair whose letters are not strictly
 * increasing (`BA`, `AA`), a pair listed more than once in one state, a malformed pair-shaped token (`AK:F`, `AB:X`).
 */
function constraintIn(segment: string, tokens: readonly PairToken[]): string | undefined {
  const seen = new Set<string>();
  for (const t of tokens) {
    if (t.x >= t.y) return `pair ${t.x}${t.y} is not in alphabetical order (or pairs a person with itself)`;
    if (seen.has(`${t.x}${t.y}`)) return `pair ${t.x}${t.y} is listed twice`;
    seen.add(`${t.x}${t.y}`);
  }
  for (const m of segment.matchAll(PAIR_SHAPED)) {
    if (!PAIR_EXACT.test(m[0])) return `malformed pair token '${echo(m[0])}'`;
  }
  return undefined;
}

function stateReading(segment: string, tokens: PairToken[]): StateReading {
  const norm = canonicalPairs(tokens);
  const constraintIssue = constraintIn(segment, tokens);
  return constraintIssue === undefined ? { norm } : { norm, constraintIssue };
}

/** A line that continues an answer: it starts (after spaces, quotes, brackets, markup) with a pair token. */
const CONTINUATION = new RegExp(`^[\\s"'\`*\\[\\-•·–—]*(?:\\d+[.)][ \\t]*)?(?:${QUERY_TOKEN.source})`, 'i');
/** Something an answer can be made of: a pair-shaped token or a state bracket. */
const ANSWER_LIKE = new RegExp(`${QUERY_TOKEN.source}|${PAIR_SHAPED.source}|\\[`, 'i');

/**
 * Where a note on the answer's line starts (` — note: EF:F was excluded`, `(since …`, `; because …`): a dash set
 * off by spaces, or a word that opens a remark. The note's pairs are not part of the answer.
 */
const NOTE = /[ \t](?:—|–|--|-)[ \t]|\b(?:note|nb|excluding|excluded|except|without|because|since|where)\b/i;

/**
 * The answer after a keyword, within `[from, to)`: the rest of the keyword's line (or, when that is empty,
 * the next non-blank line), then every following line that starts with a pair token — so a note on the
 * next line, a CRLF or a missing blank line never leak prose into it. A bracketed answer ends at its closing
 * bracket, and one without brackets before a note on its line; a body opening a `[` must close it.
 */
function locateAnswer(text: string, from: number, to: number): StateSpan | null {
  const region = text.slice(from, to);
  let i = 0;
  while (i < region.length && /\s/.test(region[i])) i++;
  let end = region.indexOf('\n', i);
  if (end < 0) end = region.length;
  while (end < region.length) {
    let next = region.indexOf('\n', end + 1);
    if (next < 0) next = region.length;
    if (!CONTINUATION.test(region.slice(end + 1, next))) break;
    end = next;
  }
  let body = region.slice(i, end);
  const note = body.search(NOTE);
  const open = body.indexOf('[');
  if (open >= 0 && (note < 0 || open < note)) {
    const close = body.indexOf(']', open + 1);
    if (close < 0) return ANSWER_LIKE.test(body) ? { start: from + i, end: to, closed: false } : null;
    body = body.slice(0, close + 1);
  } else if (note >= 0) {
    body = body.slice(0, note);
  }
  if (!ANSWER_LIKE.test(body)) return null;
  return { start: from + i, end: from + i + body.length, closed: true };
}

/**
 * D3 parser (docs/spec/ccb.md §5): a step is the text between consecutive `Step n:` headers, ending at the
 * next `ANSWER` keyword (a deliberate fix: the release lets the answer's pairs leak into the last step); a
 * step is kept when it holds pairs, a malformed pair token, or an explicit empty state `[]`. The answer is
 * the last `ANSWER` block (answer-blocks.ts, extent as in `locateAnswer`): its pair set, or (query mode)
 * its first query token.
 */
export function readD3(text: string, answerMode: 'state' | 'query', depth?: number): CcbReading {
  const separator = /\s*[:\-*]+/;
  const keywords = findAnswerKeywords(text, separator).map((k) => k.start);
  const headers = Array.from(text.matchAll(STEP_HEADER), (m) => ({ start: m.index, end: m.index + m[0].length }));
  const kept: Array<{ start: number; reading: StateReading }> = [];
  let kw = 0;
  headers.forEach((h, k) => {
    let end = k + 1 < headers.length ? headers[k + 1].start : text.length;
    while (kw < keywords.length && keywords[kw] < h.end) kw++;
    if (kw < keywords.length && keywords[kw] < end) end = keywords[kw];
    const segment = text.slice(h.end, end);
    const tokens = pairsIn(segment);
    if (tokens.length > 0 || EMPTY_STATE.test(segment) || HAS_PAIR_SHAPED.test(segment)) {
      kept.push({ start: h.start, reading: stateReading(segment, tokens) });
    }
  });
  const starts = kept.map((s) => s.start);
  const blocks = findAnswerBlocks(text, separator, starts, (from, to) => locateAnswer(text, from, to));
  const final = blocks[blocks.length - 1];
  const steps = traceOfFinal(text, starts, blocks, depth).map((i) => kept[i].reading);
  const answer = final?.closed ? readAnswer(text.slice(final.start, final.end), answerMode) : null;
  // A bare pair list (no brackets) at the very end of a cut-off output may be missing pairs; a query token is whole.
  const delimited = answerMode === 'query' || text.slice(final?.start ?? 0, final?.end ?? 0).includes(']');
  const answerEnd = answer !== null ? answerEndOf(text, blocks, delimited) : undefined;
  return { steps, answer, formatIssues: [], notes: finalAnswerNotes(blocks), ...(answerEnd ? { answerEnd } : {}) };
}

function readAnswer(body: string, answerMode: 'state' | 'query'): StateReading | null {
  if (answerMode === 'query') {
    const m = QUERY_TOKEN.exec(body);
    if (m === null) return null;
    const t = tokenOf(m);
    const norm = `${t.x}${t.y}:${t.tag}`;
    return t.x < t.y ? { norm } : { norm, constraintIssue: `query pair ${t.x}${t.y} is not in alphabetical order` };
  }
  const tokens = pairsIn(body);
  return tokens.length === 0 ? null : stateReading(body, tokens);
}
