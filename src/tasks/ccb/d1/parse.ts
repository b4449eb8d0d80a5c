import { echo } from '../../echo.js';
import { answerEndOf, finalAnswerNotes, findAnswerBlocks, type StateSpan } from '../answer-blocks.js';
import type { CcbReading, StateReading } from '../reading.js';
import { closeDoubleBracket, scanSteps, stripWhitespace } from '../scan.js';
import { traceOfFinal } from '../trace-runs.js';
import type { CcbProfile } from '../types.js';
import { isPermutationGrid, readGrid } from './grid.js';

/** Release: `Step\s*\d+:\s*\[\[.*?\]\]` (one line). Also accepted: space before `:` and between brackets. */
const STEP_HEADER = /step\s*\d+\s*:\s*\[[ \t]*\[/gi;

function readState(raw: string, profile: CcbProfile): StateReading {
  const norm = stripWhitespace(raw).toLowerCase();
  const reading: StateReading = { norm };
  if (profile === 'paper') {
    const grid = readGrid(norm);
    if (grid === null || !isPermutationGrid(grid)) {
      reading.constraintIssue = `grid integrity: ${echo(raw.trim())} is not a 3x3 permutation of 1..9`;
    }
  }
  return reading;
}

/** The answer state after a keyword: the first `[[` in `[from, to)` and the first `]]` after it (may span lines). */
function locateGrid(text: string, from: number, to: number): StateSpan | null {
  const region = text.slice(from, to);
  const open = /\[\s*\[/.exec(region);
  if (open === null) return null;
  const close = /\]\s*\]/g;
  close.lastIndex = open.index + open[0].length;
  const closed = close.exec(region);
  return closed === null
    ? { start: from + open.index, end: to, closed: false }
    : { start: from + open.index, end: from + closed.index + closed[0].length, closed: true };
}

/**
 * D1 parser (docs/spec/ccb.md §3): trace steps are one-line `Step i: [[…]]` matches, the answer is the grid
 * of the last `ANSWER:` block (see answer-blocks.ts; one block reads as the release's first grid after
 * `ANSWER:`), and the response must mention `TRACE` within its first 50 characters. States compare
 * whitespace-free and lower-cased; the `paper` profile adds the grid-integrity constraint.
 */
export function readD1(text: string, profile: CcbProfile, depth?: number): CcbReading {
  const matches = scanSteps(text, STEP_HEADER, closeDoubleBracket);
  const starts = matches.map((m) => m.start);
  const blocks = findAnswerBlocks(text, /\s*:/, starts, (from, to) => locateGrid(text, from, to));
  const final = blocks[blocks.length - 1];
  const steps = traceOfFinal(text, starts, blocks, depth).map((i) =>
    readState(text.slice(matches[i].bodyStart, matches[i].end), profile),
  );
  const formatIssues: string[] = [];
  if (!text.trim().toUpperCase().slice(0, 50).includes('TRACE')) {
    formatIssues.push("'TRACE' does not appear within the first 50 characters");
  }
  const answer = final?.closed ? readState(text.slice(final.start, final.end), profile) : null;
  const answerEnd = answer !== null ? answerEndOf(text, blocks, true) : undefined;
  return { steps, answer, formatIssues, notes: finalAnswerNotes(blocks), ...(answerEnd ? { answerEnd } : {}) };
}
