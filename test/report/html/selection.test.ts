import { describe, expect, it } from 'vitest';
import type { ChartResult } from '../../../reporters/projections/html/chart.js';
import { planCharts } from '../../../reporters/projections/html/index.js';
import { assemblePage } from '../../../reporters/projections/html/page.js';
import type { Report } from '../../../src/schema/report.js';
import { cell } from '../../support/records.js';
import { fixtureReport, rowsOf } from './support.js';

// The charts select cells by what they plot (the level axis the plugin declared, in every cell record), never
// by family: a task family that sweeps depths is drawn in the depth charts whatever its outcome record.

const bare = (cells: Report['cells']): Report => ({
  ...fixtureReport(),
  cells,
  fits: [],
  collapse: [],
  ablations: [],
  scc: [],
  gates: [],
  tests: [],
});

const drawnRows = (plan: ChartResult[], id: string) => {
  const result = plan.find((r) => (r.kind === 'drawn' ? r.chart.id : r.absent.id) === id);
  if (result?.kind !== 'drawn') throw new Error(`chart ${id} is not drawn`);
  return rowsOf(result.chart);
};

const histogram = { n: 5, mean: 2, median: 2, early: 5, mid: 0, late: 0, histogram: { '2': 5 } };

describe('HTML chart selection by level axis', () => {
  it('draws a non-CCB family swept over depths in accuracy vs depth, the heatmap and k*', () => {
    const cells = [5, 10].map((level) =>
      cell({ task: 'x1', project: 'x1', family: 'count', level, outcomes: { exact: 30, api: 1 }, kStar: histogram }),
    );
    const plan = planCharts(bare(cells));
    expect(drawnRows(plan, 'accuracy-depth').map((r) => [r.task, r.depth])).toEqual([
      ['x1', 5],
      ['x1', 10],
    ]);
    expect(drawnRows(plan, 'depth-heatmap').map((r) => [r.task, r.depth])).toEqual([
      ['x1', 5],
      ['x1', 10],
    ]);
    expect(drawnRows(plan, 'kstar').filter((r) => r.layer === 'bar')).toEqual([
      { layer: 'bar', panel: 'x1 (n = 10)', k: 2, k0: 1.5, k1: 2.5, count: 10 },
    ]);
    // The depth section is shown, not listed as absent.
    expect(assemblePage(bare(cells), [], [])).not.toContain('no CCB cells in this report');
  });

  it('leaves cells on another level axis out of the depth charts, k* population or not', () => {
    const puzzle = cell({
      task: 'hanoi',
      project: 'puzzles',
      family: 'puzzle',
      levelKind: 'level',
      level: 3,
      outcomes: { pass: 30, fail: 9, collapse: 0, api: 1 },
      kStar: histogram,
    });
    const plan = planCharts(bare([puzzle]));
    expect(plan.map((r) => r.kind)).toEqual(Array(plan.length).fill('absent'));
    expect(assemblePage(bare([puzzle]), [], [])).toContain('no CCB cells in this report');
  });
});
