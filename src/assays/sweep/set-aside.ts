import type { CellResult } from '../../schema/cell.js';
import type { SetAside } from '../../schema/fit.js';
import { isMissingKind } from '../../tasks/outcome.js';

/**
 * What the trials that the 'paper' rule sets aside as missing data (Format, Truncation) say in their final
 * answer, where it can be read. If they are mostly wrong answers, leaving them out of p_d's denominator is
 * not neutral: the data are not missing at random. Also counts correct trials whose trace was unreadable
 * (neither TFBC nor divergent). Null when the cells carry no trial records.
 */
export function setAsideSummary(cells: readonly CellResult[]): SetAside | null {
  const trials = cells.flatMap((c) => c.trials);
  if (trials.length === 0 && cells.some((c) => c.n > 0)) return null;
  const summary: SetAside = {
    format: 0,
    truncation: 0,
    finalAnswerCorrect: 0,
    finalAnswerWrong: 0,
    finalAnswerUnread: 0,
    traceUnreadable: 0,
  };
  for (const { outcome } of trials) {
    if (outcome.kind === 'correct' && outcome.traceReadable === false) summary.traceUnreadable++;
    if (outcome.kind !== 'format' && outcome.kind !== 'truncation') continue;
    summary[outcome.kind]++;
    if (outcome.answerParsed !== true) summary.finalAnswerUnread++;
    else if (outcome.answerCorrect) summary.finalAnswerCorrect++;
    else summary.finalAnswerWrong++;
  }
  return summary;
}

/** A share as the messages print it: `80%`, `12.5%`. */
export const shareText = (x: number): string => `${Math.round(x * 1000) / 10}%`;

/**
 * A cell's set-aside share in words, with what it is made of: `8 of 10 trials are missing data or set aside (80%: format 8)`. The kinds
 * are the missing-data kinds (api, budget) and, when the cell's rule set more aside (under 'paper'), the family's
 * set-aside kinds (src/tasks/outcome.ts).
 */
export function setAsideText(cell: SetAsideCell): string {
  const setAside = cell.setAside ?? cell.missing;
  const share = cell.n > 0 ? shareText(setAside / cell.n) : '–';
  const parts = setAsideParts(cell);
  return `${setAside} of ${cell.n} trials are missing data or set aside (${share}${parts.length > 0 ? `: ${parts.join(', ')}` : ''})`;
}

/** The same, short, for a list of cells: `100% (format 10 of 10)`. */
export function setAsideBrief(cell: SetAsideCell): string {
  const setAside = cell.setAside ?? cell.missing;
  const share = cell.n > 0 ? shareText(setAside / cell.n) : '–';
  const parts = setAsideParts(cell);
  return `${share} (${parts.length > 0 ? parts.join(', ') : 'nothing'} of ${cell.n})`;
}

type SetAsideCell = Pick<CellResult, 'family' | 'n' | 'missing' | 'setAside' | 'outcomes'>;

/** `format 8`, `api 1`: the set-aside kinds of a cell with their counts. */
function setAsideParts(cell: SetAsideCell): string[] {
  const rule = (cell.setAside ?? cell.missing) > cell.missing ? 'paper' : 'release';
  return Object.entries(cell.outcomes)
    .filter(([kind, n]) => n > 0 && isMissingKind(cell.family, kind, rule))
    .map(([kind, n]) => `${kind} ${n}`);
}
