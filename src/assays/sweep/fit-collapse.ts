import type { CellResult } from '../../schema/cell.js';
import type { CollapseFit } from '../../schema/fit.js';
import { collapseThreshold } from '../../stats/index.js';

/** Accuracy per level and the collapse threshold λ* of one puzzle level sweep (paper 001 §1.2). */
export function fitCollapseSweep(
  cells: readonly CellResult[],
  options: { project: string; seed: number },
): CollapseFit {
  const levels = cells.map((cell) => ({
    level: cell.level,
    knob: cell.knob,
    correct: cell.successes,
    n: cell.n - cell.missing,
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
