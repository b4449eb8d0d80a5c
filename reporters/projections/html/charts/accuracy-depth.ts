import type { RetentionFit } from '../../../../src/schema/fit.js';
import type { Report } from '../../../../src/schema/report.js';
import { taskLabel } from '../../task-label.js';
import type { ChartResult } from '../chart.js';
import {
  ACCURACY_PERCENT,
  distinct,
  facetedSpec,
  figure,
  isDefaultVariant,
  layerOf,
  round,
  variantOrder,
  verticalInterval,
} from './scaffold.js';

const FIGURE = figure('accuracy-depth', 'Accuracy vs depth with the fitted geometric decay 100·p_d^N');

/** The fit drawn for a (project, task, variant[, subject]): the paper's missing-data rule when both were fitted. */
export function chosenFits(fits: readonly RetentionFit[]): RetentionFit[] {
  const byKey = new Map<string, RetentionFit>();
  for (const fit of fits) {
    const key = `${fit.project}\u0000${fit.task}\u0000${fit.variant}\u0000${fit.subject ?? ''}`;
    const held = byKey.get(key);
    if (!held || (held.missing !== 'paper' && fit.missing === 'paper')) byKey.set(key, fit);
  }
  return [...byKey.values()];
}

/** The series in legend order: by the leaderboard's first CCB board's ranking, then the rest in report order. */
function subjectOrder(report: Report, cells: ReadonlyArray<{ variant: string; subject?: string }>): string[] {
  const ranked =
    report.leaderboard?.projects
      .flatMap((p) => p.boards)
      .find((b) => b.kind === 'retention')
      ?.entries.map((e) => e.spec) ?? [];
  const all = distinct(cells.map((c) => seriesOf(true, c)));
  const bySubject = (x: string) => {
    const i = ranked.findIndex((spec) => x === spec || x.startsWith(`${spec} · `));
    return i < 0 ? ranked.length : i;
  };
  return [...all].sort((a, b) => bySubject(a) - bySubject(b) || (a < b ? -1 : a > b ? 1 : 0));
}

/** Depths at which the curve is sampled: every integer over the fitted range (finer when it is short). */
function curveDepths(depths: readonly number[]): number[] {
  const lo = Math.min(...depths);
  const hi = Math.max(...depths);
  if (hi <= lo) return [lo];
  const step = hi - lo >= 20 ? 1 : (hi - lo) / 40;
  const out: number[] = [];
  for (let i = 0; lo + i * step <= hi + 1e-9; i++) out.push(round(lo + i * step, 4));
  return out;
}

/**
 * The series a record is drawn in: its prompt variant, or with several subjects its subject (and the variant
 * where it is not the task's own prompt), so that each model has its own markers and its own fitted curve.
 */
const seriesOf = (several: boolean, r: { variant: string; subject?: string }): string =>
  !several ? r.variant : isDefaultVariant(r.variant) ? (r.subject ?? '–') : `${r.subject ?? '–'} · ${r.variant}`;

/**
 * Paper 000 Fig. 1: per task, cell accuracy with Clopper–Pearson bars and the fitted curve; with several
 * subjects (CCB Fig. 1's five models), one series per subject, each with its own fitted 100·p_d^N curve.
 */
export function accuracyDepthChart(report: Report): ChartResult {
  const cells = report.cells.filter((c) => c.levelKind === 'depth' && c.accuracy !== null && c.ci95 !== null);
  if (cells.length === 0) return FIGURE.absent('no CCB depth cells with answered trials in this report');
  const several = report.subjects.length >= 2;
  const series = (r: { variant: string; subject?: string }): Record<string, string> =>
    several ? { series: seriesOf(true, r) } : {};
  // a task names its project where two projects hold it (the standard d2 and a spec folder's d2): two panels
  const label = taskLabel(report);
  const tasks = distinct(cells.map(label));
  const rows: Record<string, string | number>[] = cells.map((c) => ({
    layer: 'observed',
    task: label(c),
    variant: c.variant,
    ...series(c),
    depth: c.level,
    accuracy: round(100 * (c.accuracy as number)),
    lo: round(100 * (c.ci95 as [number, number])[0]),
    hi: round(100 * (c.ci95 as [number, number])[1]),
    answered: c.n - c.missing,
  }));
  const fits = chosenFits(report.fits).filter((f) => tasks.includes(label(f)) && f.counts.length > 0);
  let refitted = 0;
  for (const fit of fits) {
    for (const depth of curveDepths(fit.counts.map((c) => c.depth))) {
      rows.push({
        layer: 'fit',
        task: label(fit),
        variant: fit.variant,
        ...series(fit),
        depth,
        accuracy: round(100 * fit.pd ** depth),
      });
    }
    // Where the fit's population differs from the cell's (paper rule: format/truncation are missing data),
    // show the points the curve was actually fitted to.
    for (const count of fit.counts) {
      if (count.n === 0) continue;
      const cell = cells.find(
        (c) =>
          c.project === fit.project &&
          c.task === fit.task &&
          c.variant === fit.variant &&
          c.subject === fit.subject &&
          c.level === count.depth,
      );
      const fitted = count.correct / count.n;
      if (cell && Math.abs(fitted - (cell.accuracy as number)) < 1e-9) continue;
      refitted++;
      rows.push({
        layer: 'fit-input',
        task: label(fit),
        variant: fit.variant,
        ...series(fit),
        depth: count.depth,
        accuracy: round(100 * fitted),
        answered: count.n,
      });
    }
  }
  const x = { field: 'depth', type: 'quantitative' as const, title: 'Depth N', scale: { zero: false } };
  const y = ACCURACY_PERCENT;
  const color = several
    ? {
        field: 'series',
        type: 'nominal' as const,
        title: 'Subject',
        scale: { domain: subjectOrder(report, cells) },
      }
    : {
        field: 'variant',
        type: 'nominal' as const,
        title: 'Prompt variant',
        scale: { domain: variantOrder(cells.map((c) => c.variant)) },
      };
  const rules = distinct(fits.map((f) => f.missing));
  const caption =
    `Markers: cell accuracy (correct / answered, API faults excluded) with Clopper–Pearson 95% intervals. ` +
    (several ? 'One colour per subject, each with its own fitted curve. ' : '') +
    (fits.length > 0
      ? `Curves: 100·p_d^N with p_d from the maximum-likelihood geometric fit (missing-data rule: ${rules.join(', ')}).` +
        (refitted > 0
          ? ' Open circles: the per-depth proportions the fit used where they differ from the cell accuracy ' +
            '(under the paper rule, format and truncation failures are missing data).'
          : '')
      : ' No retention fit in this report, so no curve.');
  return FIGURE.drawn(
    caption,
    facetedSpec(rows, { field: 'task', sort: tasks }, { width: 260, height: 190 }, [
      ...layerOf(rows, 'fit', {
        mark: { type: 'line', strokeWidth: 1.5, clip: true },
        encoding: { x, y, color, order: { field: 'depth', type: 'quantitative' } },
      }),
      ...layerOf(rows, 'observed', {
        mark: { type: 'rule', strokeWidth: 1 },
        encoding: { ...verticalInterval(x, 'lo', 'hi', 'Accuracy (%)'), color },
      }),
      ...layerOf(rows, 'observed', {
        mark: { type: 'point', filled: true, size: 36, opacity: 1 },
        encoding: { x, y, color },
      }),
      ...layerOf(rows, 'fit-input', {
        mark: { type: 'point', filled: false, size: 36, strokeWidth: 1 },
        encoding: { x, y, color },
      }),
    ]),
  );
}
