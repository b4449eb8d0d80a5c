import type { Report } from '../../../../src/schema/report.js';
import { taskLabel } from '../../task-label.js';
import type { ChartResult } from '../chart.js';
import { chosenFits } from './accuracy-depth.js';
import { distinct, facetedSpec, figure, layerOf, panelLabel, round } from './scaffold.js';

const FIGURE = figure('kstar', 'Divergence step k* distribution');

interface Panel {
  panel: string;
  histogram: Map<number, number>;
  source: string;
}

const addHistogram = (into: Map<number, number>, histogram: Record<string, number>) => {
  for (const [k, count] of Object.entries(histogram)) {
    const step = Number(k);
    if (Number.isInteger(step) && step >= 1 && count > 0) into.set(step, (into.get(step) ?? 0) + count);
  }
};

/**
 * Paper 000 Fig. 5: first divergent step k* over the k* population (src/assays/sweep kStarPopulation;
 * Reasoning and Constraint trials for CCB), per task swept over depths. From the retention fit's pooled
 * histogram; for a (task, variant) without a fit, pooled from its depth cells' histograms. Cells on another
 * level axis are not drawn here even when their k* population is non-empty (puzzle Fail trials have one):
 * their k* is a step of another kind of trace, and the page shows them in their own section.
 */
export function kStarChart(report: Report): ChartResult {
  const panels = new Map<string, Panel>();
  // a task names its project where two projects hold it: a panel each
  const label = taskLabel(report);
  for (const fit of chosenFits(report.fits)) {
    const histogram = new Map<number, number>();
    addHistogram(histogram, fit.kStar.histogram);
    panels.set(panelLabel(label(fit), fit.variant), {
      panel: panelLabel(label(fit), fit.variant),
      histogram,
      source: 'fit',
    });
  }
  for (const cell of report.cells) {
    if (cell.levelKind !== 'depth') continue;
    const key = panelLabel(label(cell), cell.variant);
    const held = panels.get(key) ?? { panel: key, histogram: new Map(), source: 'cells' };
    if (held.source === 'cells') addHistogram(held.histogram, cell.kStar.histogram);
    panels.set(key, held);
  }
  const rows: Record<string, string | number>[] = [];
  const names: string[] = [];
  for (const { panel, histogram } of panels.values()) {
    const total = [...histogram.values()].reduce((s, c) => s + c, 0);
    if (total === 0) continue;
    const name = `${panel} (n = ${total})`;
    names.push(name);
    let sum = 0;
    for (const [k, count] of [...histogram.entries()].sort((a, b) => a[0] - b[0])) {
      rows.push({ layer: 'bar', panel: name, k, k0: k - 0.5, k1: k + 0.5, count });
      sum += k * count;
    }
    rows.push({ layer: 'mean', panel: name, k: round(sum / total), label: `mean ${(sum / total).toFixed(1)}` });
  }
  if (rows.length === 0) {
    return FIGURE.absent('no divergent trace (Reasoning or Constraint trial with k* ≥ 1) in this report');
  }
  const ordered = distinct(names);
  return FIGURE.drawn(
    'Histogram of the first step at which the trace diverged from the canonical one, over Reasoning and ' +
      'Constraint trials (n per panel); the dashed rule is the mean k*.',
    facetedSpec(rows, { field: 'panel', sort: ordered, independent: ['y'] }, { width: 260, height: 150 }, [
      ...layerOf(rows, 'bar', {
        mark: { type: 'rect', color: '#4c78a8', stroke: 'white', strokeWidth: 0.5 },
        encoding: {
          x: { field: 'k0', type: 'quantitative', title: 'First divergent step k*', scale: { zero: false } },
          x2: { field: 'k1' },
          y: { field: 'count', type: 'quantitative', title: 'Trials' },
          y2: { datum: 0 },
        },
      }),
      ...layerOf(rows, 'mean', {
        mark: { type: 'rule', color: '#d62728', strokeDash: [4, 3], strokeWidth: 1.5 },
        encoding: { x: { field: 'k', type: 'quantitative' } },
      }),
    ]),
  );
}
