import type { CellResult } from '../../schema/cell.js';
import type { SetAside } from '../../schema/fit.js';

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
