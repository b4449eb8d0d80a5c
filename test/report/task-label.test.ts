import { describe, expect, it } from 'vitest';
import { accuracyDepthChart } from '../../reporters/projections/html/charts/accuracy-depth.js';
import { depthHeatmapChart } from '../../reporters/projections/html/charts/depth-heatmap.js';
import { kStarChart } from '../../reporters/projections/html/charts/kstar.js';
import { cellsTable, fitsTable } from '../../reporters/projections/html/tables.js';
import { renderMarkdown } from '../../reporters/projections/markdown.js';
import { taskLabeller } from '../../reporters/projections/task-label.js';
import type { Report } from '../../src/schema/report.js';
import { fixtureReport } from './html/support.js';

/** The fixture report with its d2 records measured a second time in the user's spec folder (project `benchmarks`). */
function twoProjectsOneTask(): Report {
  const report = fixtureReport();
  const mine = <T extends { project: string; task: string }>(records: T[]) =>
    records.filter((r) => r.task === 'd2').map((r) => ({ ...r, project: 'benchmarks' }));
  return { ...report, cells: [...report.cells, ...mine(report.cells)], fits: [...report.fits, ...mine(report.fits)] };
}

describe('a task two projects hold', () => {
  it('is named with its project, and only then (per-subject projects count as one)', () => {
    const label = taskLabeller([
      { project: 'd2', task: 'd2' },
      { project: 'benchmarks', task: 'd2' },
      { project: 'd1@a', task: 'd1' },
      { project: 'd1@b', task: 'd1' },
    ]);
    expect(label({ project: 'd2', task: 'd2' })).toBe('d2 · d2');
    expect(label({ project: 'benchmarks', task: 'd2' })).toBe('benchmarks · d2');
    expect(label({ project: 'd1@a', task: 'd1' })).toBe('d1');
  });

  it('summary.md names the project in the retention and cell rows', () => {
    const report = twoProjectsOneTask();
    const md = renderMarkdown(report);
    expect(md).toMatch(/^\| d2 · d2 \| standard \|/m);
    expect(md).toMatch(/^\| benchmarks · d2 \| standard \|/m);
    expect(md).toMatch(/^\| benchmarks · d2 · N=5 \|/m);
    // tasks one project holds keep their bare name
    expect(md).toMatch(/^\| d1 \| standard \|/m);
    const single = renderMarkdown(fixtureReport());
    expect(single).not.toMatch(/d2 · d2/);
  });

  it('index.html names it in the retention and cell tables, and each chart gives each project its own panel or column', () => {
    const report = twoProjectsOneTask();
    expect(fitsTable(report)).toContain('<td>benchmarks · d2</td>');
    expect(fitsTable(report)).toContain('<td>d2 · d2</td>');
    expect(cellsTable(report)).toContain('<td>benchmarks · d2</td>');
    for (const chart of [accuracyDepthChart(report), kStarChart(report)]) {
      const spec = JSON.stringify(chart);
      expect(spec).toContain('benchmarks · d2');
      expect(spec).toContain('d2 · d2');
    }
    const heatmap = depthHeatmapChart(report);
    const columns = JSON.stringify(heatmap);
    expect(columns).toContain('"benchmarks · d2"');
    expect(columns).toContain('"d2 · d2"');
  });

  it('the † footnote appears only when a row carries the mark', () => {
    const report = fixtureReport();
    const without = { ...report, fits: report.fits.map((f) => ({ ...f, atLowerBound: false })) };
    expect(renderMarkdown(without)).not.toContain('† at the optimiser lower bound');
    const [first, ...rest] = without.fits;
    if (!first) throw new Error('fixture without fits');
    const marked = { ...without, fits: [{ ...first, atLowerBound: true }, ...rest] };
    expect(renderMarkdown(marked)).toContain('† at the optimiser lower bound 0.5');
  });
});
