import type { Report } from '../../../../src/schema/report.js';
import type { ChartResult } from '../chart.js';
import { ACCURACY_PERCENT, facetedSpec, figure, layerOf, round, verticalInterval } from './scaffold.js';

const FIGURE = figure('puzzle-collapse', 'Puzzle accuracy vs complexity level, with the collapse threshold λ*');

/** Paper 001: accuracy per level with Clopper–Pearson bars; λ* = argmax |ΔAcc/Δλ| and its bootstrap interval. */
export function puzzleCollapseChart(report: Report): ChartResult {
  const fits = report.collapse.filter((c) => c.levels.some((l) => l.accuracy !== null));
  if (fits.length === 0) return FIGURE.absent('no puzzle level sweep (collapse record) in this report');
  const rows: Record<string, string | number>[] = [];
  for (const fit of fits) {
    for (const level of fit.levels) {
      if (level.accuracy === null) continue;
      rows.push({
        layer: 'level',
        task: fit.task,
        level: level.level,
        accuracy: round(100 * level.accuracy),
        lo: round(100 * (level.ci95?.[0] ?? level.accuracy)),
        hi: round(100 * (level.ci95?.[1] ?? level.accuracy)),
        answered: level.n,
      });
    }
    const t = fit.collapseThreshold;
    if (t.levelIndex !== null) {
      rows.push({
        layer: 'lambda',
        task: fit.task,
        level: t.levelIndex,
        label: `λ* = L${t.levelIndex}${t.increasing ? ' (rise)' : ''}`,
      });
      if (t.ci95 && t.ci95[1] > t.ci95[0]) {
        rows.push({ layer: 'lambda-ci', task: fit.task, lo: t.ci95[0], hi: t.ci95[1] });
      }
    }
  }
  const tasks = fits.map((f) => f.task);
  const undefinedFor = fits.filter((f) => f.collapseThreshold.levelIndex === null).map((f) => f.task);
  const x = { field: 'level', type: 'quantitative' as const, title: 'Level', axis: { tickMinStep: 1, format: 'd' } };
  const y = ACCURACY_PERCENT;
  return FIGURE.drawn(
    'Accuracy (pass / answered) per level with Clopper–Pearson 95% intervals. Red dashed rule: λ*, the upper ' +
      'level of the steepest accuracy step; shaded: its 95% bootstrap interval over trial resamples.' +
      (undefinedFor.length > 0 ? ` λ* is undefined (flat curve) for ${undefinedFor.join(', ')}.` : ''),
    facetedSpec(rows, { field: 'task', sort: tasks }, { width: 240, height: 160 }, [
      ...layerOf(rows, 'lambda-ci', {
        mark: { type: 'rect', color: '#d62728', opacity: 0.1 },
        encoding: { x: { field: 'lo', type: 'quantitative' }, x2: { field: 'hi' } },
      }),
      ...layerOf(rows, 'lambda', {
        mark: { type: 'rule', color: '#d62728', strokeDash: [5, 3], strokeWidth: 1.5 },
        encoding: { x },
      }),
      ...layerOf(rows, 'lambda', {
        mark: { type: 'text', color: '#d62728', align: 'left', dx: 4, fontSize: 10 },
        encoding: { x, y: { datum: 95 }, text: { field: 'label' } },
      }),
      ...layerOf(rows, 'level', {
        mark: { type: 'line', color: '#4c78a8' },
        encoding: { x, y, order: { field: 'level', type: 'quantitative' } },
      }),
      ...layerOf(rows, 'level', {
        mark: { type: 'rule', color: '#4c78a8' },
        encoding: verticalInterval(x),
      }),
      ...layerOf(rows, 'level', {
        mark: { type: 'point', filled: true, size: 36, color: '#4c78a8', opacity: 1 },
        encoding: { x, y },
      }),
    ]),
  );
}
