import { echo } from '../../echo.js';
import { answerEndOf, finalAnswerNotes, findAnswerBlocks, type StateSpan } from '../answer-blocks.js';
import type { CcbReading, StateReading } from '../reading.js';
import { closeBracket, scanSteps, stripWhitespace } from '../scan.js';
import { traceOfFinal } from '../trace-runs.js';
import type { CcbProfile } from '../types.js';
import { REGISTER_NAMES } from './registers.js';

/** Release: `Step\s*\d+:\s*\[[A-Za-z_]+=.*?\]` (one line); also accepted: spaces before `:`, after `[`, around `=`. */
const STEP_HEADER = /step\s*\d+\s*:\s*\[\s*[A-Za-z_]+\s*=/gi;

/** The release's D2 PROSE_PATTERNS (case-insensitive); prose inside the trace is a Format failure (F1/F3). */
const PROSE =
  /\bis\s+(?:in)?correct\b|\bshould\s+be\b|\bthe\s+correct\b|\bgoes\s+to\s+the\s+position\b|\binstead\b|->|\bso\s+the\b|\balso\s+incorrect\b|\bbecomes\b|\bafter\s+shift\b/i;

const ITEM = /^([A-Za-z_]+)\s*=\s*(-?\d+)$/;

/**
 * One register state `[A=1, …, G=7]`. Not 7 assignments to A..G with integer values → Format (release
 * F2a). A register assigned twice or a value outside 0–9 → Constraint (F2b); the `paper` profile adds
 * the uniqueness rule (7 distinct digits). Repeated digits are legal in `official` (the release's own
 * ground truth has them). Registers compare in A..G order, so key order and whitespace never matter.
 */
export function readRegisters(raw: string, profile: CcbProfile): StateReading {
  const inner = raw.trim().replace(/^\[/, '').replace(/\]$/, '');
  const items = inner.split(',').map((item) => ITEM.exec(item.trim()));
  const parsed = items.filter((m): m is RegExpExecArray => m !== null);
  const compact = stripWhitespace(raw).toLowerCase();
  const validKey = (k: string) => (REGISTER_NAMES as readonly string[]).includes(k);
  if (items.length !== 7 || parsed.length !== 7 || !parsed.every((m) => validKey(m[1]))) {
    return { norm: compact, formatIssue: `${echo(raw.trim())} is not 7 assignments A=…, …, G=…` };
  }
  const values = new Map<string, string>();
  let constraintIssue: string | undefined;
  for (const [, key, value] of parsed) {
    if (values.has(key)) constraintIssue ??= `register ${key} is assigned twice`;
    values.set(key, value);
    const n = Number(value);
    if (n < 0 || n > 9) constraintIssue ??= `${key}=${echo(value)} is outside 0-9`;
  }
  if (values.size !== 7) return { norm: compact, constraintIssue };
  const ordered = REGISTER_NAMES.map((k) => `${k}=${values.get(k)}`);
  const norm = `[${ordered.join(',')}]`.toLowerCase();
  if (constraintIssue === undefined && profile === 'paper') {
    const seen = new Map<number, string>();
    for (const k of REGISTER_NAMES) {
      const v = Number(values.get(k));
      const holder = seen.get(v);
      if (holder !== undefined) {
        constraintIssue = `assignment uniqueness: ${holder} and ${k} both hold ${v}`;
        break;
      }
      seen.set(v, k);
    }
  }
  return constraintIssue === undefined ? { norm } : { norm, constraintIssue };
}

/** The answer state after a keyword: the first `[` in `[from, to)` and the first `]` after it (may span lines). */
function locateState(text: string, from: number, to: number): StateSpan | null {
  const region = text.slice(from, to);
  const open = region.indexOf('[');
  if (open < 0) return null;
  const close = region.indexOf(']', open + 1);
  return close < 0
    ? { start: from + open, end: to, closed: false }
    : { start: from + open, end: from + close + 1, closed: true };
}

/**
 * D2 parser (docs/spec/ccb.md §4 with the fix-pass rules F1–F4 folded in; see `readRegisters` for F2a/F2b).
 * The answer is the state of the last `ANSWER:` block (answer-blocks.ts); the prose check (F1) covers the
 * trace that goes with it, up to the next `ANSWER`.
 */
export function readD2(text: string, profile: CcbProfile, depth?: number): CcbReading {
  const matches = scanSteps(text, STEP_HEADER, closeBracket);
  const starts = matches.map((m) => m.start);
  const blocks = findAnswerBlocks(text, /\s*:/, starts, (from, to) => locateState(text, from, to));
  const final = blocks[blocks.length - 1];
  const selected = traceOfFinal(text, starts, blocks, depth).map((i) => matches[i]);
  const steps = selected.map((s) => readRegisters(text.slice(s.bodyStart, s.end), profile));
  const formatIssues: string[] = [];
  if (!text.includes('TRACE')) formatIssues.push("the upper-case keyword 'TRACE' is missing (release F4)");
  if (final !== undefined && !text.includes('ANSWER')) {
    formatIssues.push("the keyword 'ANSWER' is not upper-case (release F4)");
  }
  if (selected.length > 0) {
    const last = selected[selected.length - 1];
    const answerAt = text.slice(last.end).search(/ANSWER/i);
    const region = text.slice(selected[0].start, answerAt < 0 ? text.length : last.end + answerAt);
    const prose = PROSE.exec(region);
    if (prose !== null) formatIssues.push(`prose inside the trace ('${prose[0]}', release F1)`);
  }
  const answer = final?.closed ? readRegisters(text.slice(final.start, final.end), profile) : null;
  const answerEnd = answer !== null ? answerEndOf(text, blocks, true) : undefined;
  return { steps, answer, formatIssues, notes: finalAnswerNotes(blocks), ...(answerEnd ? { answerEnd } : {}) };
}
