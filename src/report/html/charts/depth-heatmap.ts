import type { Report } from '../../../schema/report.js';
import type { ChartResult } from '../chart.js';
import { subjectLabel } from '../subject-label.js';
import { distinct, figure, layeredSpec, panelLabel, round, variantOrder } from './scaffold.js';

const FIGURE = figure('depth-heatmap', 'Accuracy by depth and subject');

/**
 * Paper 000 Fig. 4: observed accuracy per depth (rows) and subject (columns; one per task and prompt variant).
 * A report holds one run, so one subject; its cells carry no subject, so a mixed run is labelled as such.
 */
export function depthHeatmapChart(report: Report): ChartResult {
  const cells = report.cells.filter((c) => c.levelKind === 'depth' && c.accuracy !== null);
  if (cells.length === 0) return FIGURE.absent('no CCB depth cells with answered trials in this report');
  const subject = subjectLabel(report.subjects);
  const tasks = distinct(cells.map((c) => c.task));
  const rows = cells.map((c) => {
    const accuracy = round(100 * (c.accuracy as number));
    return {
      task: c.task,
      column: panelLabel(c.task, c.variant),
      subject,
      variant: c.variant,
      depth: c.level,
      accuracy,
      label: `${Math.round(accuracy)}`,
      answered: c.n - c.missing,
    };
  });
  // One column per (task, variant) of this report's subject, named in the axis title.
  const columns = tasks.flatMap((t) =>
    variantOrder(rows.filter((r) => r.task === t).map((r) => r.variant)).map((v) => panelLabel(t, v)),
  );
  const x = {
    field: 'column',
    type: 'nominal' as const,
    title: `Subject: ${subject}`,
    sort: columns,
    axis: { orient: 'top' as const, labelAngle: 0, labelLimit: 200 },
  };
  const y = { field: 'depth', type: 'ordinal' as const, title: 'Depth N', sort: 'ascending' as const };
  return FIGURE.drawn(
    "Observed accuracy (%) over answered trials; darker = higher. Columns: this report's subject, one per CCB " +
      'task and prompt variant' +
      (report.subjects.length > 1
        ? '; this run mixed subjects and its cells do not record which one answered.'
        : " (a report holds one subject; render each model's report to compare models)."),
    layeredSpec(rows, { width: { step: 110 }, height: { step: 20 } }, [
      {
        mark: { type: 'rect', stroke: 'white', strokeWidth: 1 },
        encoding: {
          x,
          y,
          color: {
            field: 'accuracy',
            type: 'quantitative',
            title: 'Accuracy (%)',
            scale: { domain: [0, 100], scheme: 'blues' },
          },
        },
      },
      {
        mark: { type: 'text', fontSize: 11 },
        encoding: {
          x,
          y,
          text: { field: 'label' },
          color: { condition: { test: 'datum.accuracy >= 60', value: 'white' }, value: '#222' },
        },
      },
    ]),
  );
}
