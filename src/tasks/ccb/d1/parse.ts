import type { CcbReading, StateReading } from '../reading.js';
import { closeDoubleBracket, findAnswerKeyword, scanSteps, stripWhitespace } from '../scan.js';
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
      reading.constraintIssue = `grid integrity: ${raw.trim()} is not a 3x3 permutation of 1..9`;
    }
  }
  return reading;
}

/** The answer: first `ANSWER:`, then the first `[[` after it and the first `]]` after that (may span lines). */
function findAnswerGrid(text: string): string | null {
  const keyword = findAnswerKeyword(text, /\s*:/);
  if (keyword === null) return null;
  let open = -1;
  for (let i = keyword.end; i < text.length; i++) {
    if (text[i] === '[') {
      let j = i + 1;
      while (j < text.length && /\s/.test(text[j])) j++;
      if (text[j] === '[') {
        open = i;
        break;
      }
      i = j - 1;
    }
  }
  if (open < 0) return null;
  for (let i = open + 2; i < text.length; i++) {
    if (text[i] !== ']') continue;
    let j = i + 1;
    while (j < text.length && /\s/.test(text[j])) j++;
    if (text[j] === ']') return text.slice(open, j + 1);
    i = j - 1;
  }
  return null;
}

/**
 * D1 parser (docs/spec/ccb.md §3): trace steps are one-line `Step i: [[…]]` matches, the answer is the first grid
 * after `ANSWER:`, and the response must mention `TRACE` within its first 50 characters. States compare
 * whitespace-free and lower-cased; the `paper` profile adds the grid-integrity constraint.
 */
export function readD1(text: string, profile: CcbProfile): CcbReading {
  const steps = scanSteps(text, STEP_HEADER, closeDoubleBracket).map((s) =>
    readState(text.slice(s.bodyStart, s.end), profile),
  );
  const answerText = findAnswerGrid(text);
  const formatIssues: string[] = [];
  if (!text.trim().toUpperCase().slice(0, 50).includes('TRACE')) {
    formatIssues.push("'TRACE' does not appear within the first 50 characters");
  }
  return { steps, answer: answerText === null ? null : readState(answerText, profile), formatIssues };
}
