import type { Report } from '../../../../src/schema/report.js';
import { taskLabel } from '../../task-label.js';
import type { ChartResult } from '../chart.js';
import { subjectLabel } from '../subject-label.js';
import { distinct, figure, layeredSpec, panelLabel, round, variantOrder } from './scaffold.js';

const FIGURE = figure('depth-heatmap', 'Accuracy by depth and subject');

/**
 * Paper 000 Fig. 4: observed accuracy per depth (rows) and subject (columns; one per task and prompt variant,
 * and with several subjects one per subject within each: the records name their subject).
 */
export function depthHeatmapChart(report: Report): ChartResult {
  const cells = report.cells.filter((c) => c.levelKind === 'depth' && c.accuracy !== null);
  if (cells.length === 0) return FIGURE.absent('no CCB depth cells with answered trials in this report');
  const subject = subjectLabel(report.subjects);
  const several = report.subjects.length >= 2;
  // a task names its project where two projects hold it (the standard d2 and a spec folder's d2): two columns
  const label = taskLabel(report);
  const tasks = distinct(cells.map(label));
  // subjects in the leaderboard's order where it ranks them, else by spec
  const ranked =
    report.leaderboard?.projects
      .flatMap((p) => p.boards)
      .find((b) => b.kind === 'retention')
      ?.entries.map((e) => e.spec) ?? [];
  const specs = [...distinct(cells.map((c) => c.subject ?? ''))].sort((a, b) => {
    const [i, j] = [ranked.indexOf(a), ranked.indexOf(b)].map((k) => (k < 0 ? ranked.length : k));
    return i - j || (a < b ? -1 : a > b ? 1 : 0);
  });
  const rows = cells.map((c) => {
    const accuracy = round(100 * (c.accuracy as number));
    return {
      task: label(c),
      column: several ? `${panelLabel(label(c), c.variant)} · ${c.subject ?? '–'}` : panelLabel(label(c), c.variant),
      subject: several ? (c.subject ?? '–') : subject,
      variant: c.variant,
      depth: c.level,
      accuracy,
      label: `${Math.round(accuracy)}`,
      answered: c.n - c.missing,
    };
  });
  // One column per (task, variant) of this report's subject, named in the axis title.
  const columns = tasks.flatMap((t) =>
    variantOrder(rows.filter((r) => r.task === t).map((r) => r.variant)).flatMap((v) =>
      several
        ? specs
            .filter((s) => rows.some((r) => r.task === t && r.variant === v && r.subject === s))
            .map((s) => `${panelLabel(t, v)} · ${s}`)
        : [panelLabel(t, v)],
    ),
  );
  const x = {
    field: 'column',
    type: 'nominal' as const,
    title: several ? 'Task · subject' : `Subject: ${subject}`,
    sort: columns,
    axis: several
      ? { orient: 'top' as const, labelAngle: -30, labelAlign: 'left' as const, labelLimit: 260 }
      : { orient: 'top' as const, labelAngle: 0, labelLimit: 200 },
  };
  const y = { field: 'depth', type: 'ordinal' as const, title: 'Depth N', sort: 'ascending' as const };
  return FIGURE.drawn(
    several
      ? 'Observed accuracy (%) over answered trials; darker = higher. Columns: one per CCB task and prompt ' +
          `variant and, within each, one per subject (${specs.length} subjects, in leaderboard order).`
      : "Observed accuracy (%) over answered trials; darker = higher. Columns: this report's subject, one per CCB " +
          "task and prompt variant (a report holds one subject; render each model's report to compare models).",
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
