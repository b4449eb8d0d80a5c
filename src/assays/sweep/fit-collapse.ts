import type { CellResult } from '../../schema/cell.js';
import type { CollapseFit } from '../../schema/fit.js';
import { collapseThreshold } from '../../stats/index.js';
import { OUTCOME_RECORDS } from '../../tasks/outcome.js';

/** Accuracy per level and the collapse threshold λ* of one puzzle level sweep (paper 001 §1.2). */
export function fitCollapseSweep(
  cells: readonly CellResult[],
  options: { project: string; seed: number },
): CollapseFit {
  // over the distinct samples when some replicates could not differ (src/assays/sweep/samples.ts): n is then the
  // number of independent observations behind the level, which is what λ*'s resampling and the logistic fit need
  const levels = cells.map((cell) => ({
    level: cell.level,
    knob: cell.knob,
    correct: cell.samples ? (cell.samples.outcomes[OUTCOME_RECORDS[cell.family].success] ?? 0) : cell.successes,
    n: cell.samples ? cell.samples.distinct : cell.n - cell.missing,
    accuracy: cell.accuracy,
    ci95: cell.ci95,
  }));
  const threshold = collapseThreshold(
    levels.map((l) => ({ level: l.level, knob: l.knob ?? undefined, correct: l.correct, n: l.n })),
    { seed: options.seed },
  );
  return {
    kind: 'collapse',
    project: options.project,
    task: cells[0].task,
    status: cells.some((c) => c.status === 'insufficient') ? 'insufficient' : 'ok',
    levels,
    collapseThreshold: threshold,
  };
}
