import { describe, expect, it } from 'vitest';
import { resolveTask } from '../../src/tasks/registry.js';
import { runVitest } from '../support/run-vitest.js';

/** End-to-end: the real Vitest projects on the simulated subject, few trials, reports inspected. */
describe('CCB projects end to end on the simulated subject', () => {
  it('d2 on sim:retention?p=0.95 writes only D2 cells, a p_d property and a fit whose CI holds 0.95', () => {
    const run = runVitest(['--project', 'd2'], {
      CEILINGBENCH_SUBJECT: 'sim:retention?p=0.95',
      CEILINGBENCH_TRIALS: '40',
    });
    expect(run.status, run.stderr + run.stdout).toBe(0);
    const report = run.report();
    expect(report.cells.map((c) => c.level)).toEqual([5, 10, 15, 20, 25, 30, 35, 40, 45, 50]);
    expect(new Set(report.cells.map((c) => c.task))).toEqual(new Set(['d2']));
    const [fit] = report.fits;
    expect(fit.task).toBe('d2');
    expect(fit.ci95[0]).toBeLessThanOrEqual(0.95);
    expect(fit.ci95[1]).toBeGreaterThanOrEqual(0.95);
    const junit = run.junit();
    for (const depth of [5, 10, 15, 20, 25, 30, 35, 40, 45, 50]) expect(junit).toContain(`d2 · N=${depth}"`);
    expect(junit).not.toMatch(/d1 · N=|d3 · N=/);
    expect(junit).toMatch(/<property name="p_d" value="0\.9\d+"\/>/);
  });

  // A hard gate above the truth that fails the run and names the gate, the estimate and its CI: the `run-fail`
  // route of verdict-matrix.test.ts, which runs it anyway.

  it('d1, d2 and d3 run together as a smoke test with few trials, oracle scoring 100%', () => {
    const run = runVitest(['--project', 'd1', '--project', 'd2', '--project', 'd3'], {
      CEILINGBENCH_SUBJECT: 'oracle',
      CEILINGBENCH_TRIALS: '3',
    });
    expect(run.status, run.stderr + run.stdout).toBe(0);
    const report = run.report();
    expect(new Set(report.cells.map((c) => c.task))).toEqual(new Set(['d1', 'd2', 'd3']));
    for (const cell of report.cells) expect(cell.accuracy, `${cell.task} N=${cell.level}`).toBe(1);
    expect(report.fits.map((f) => f.pd)).toEqual([1, 1, 1]);
    expect(report.ablations[0].comparisons.map((c) => c.p)).toEqual([1, 1, 1, 1]);
  });

  it('the adaptive design (CEILINGBENCH_DESIGN=adaptive) records its depths as cells and a fit whose CI holds p', () => {
    const run = runVitest(['--project', 'd2'], {
      CEILINGBENCH_SUBJECT: 'sim:retention?p=0.9',
      CEILINGBENCH_DESIGN: 'adaptive',
    });
    expect(run.status, run.stderr + run.stdout).toBe(0);
    const report = run.report();
    const [fit] = report.fits;
    expect(fit.ci95[0]).toBeLessThanOrEqual(0.9);
    expect(fit.ci95[1]).toBeGreaterThanOrEqual(0.9);
    const trials = report.cells.reduce((sum, c) => sum + c.n, 0);
    expect(trials).toBeGreaterThan(0);
    // It minimises priced cost (output tokens here: no price table) over the grid's depths 5…50; cheap shallow
    // trials may outnumber the grid's 400. At p = 0.9 it needs ≈ 0.3 of the grid's tokens, the call-optimal
    // design ≈ 0.55 (BENCHMARKS.md).
    const d2 = resolveTask('d2');
    const tokens = (level: number) => d2.expectedOutputTokens?.(level) ?? Number.NaN;
    const spent = report.cells.reduce((sum, c) => sum + c.n * tokens(c.level), 0);
    const grid = [5, 10, 15, 20, 25, 30, 35, 40, 45, 50].reduce((sum, level) => sum + 40 * tokens(level), 0);
    for (const cell of report.cells) expect(cell.level).toBeGreaterThanOrEqual(5);
    expect(spent).toBeLessThan(0.45 * grid);
  });
});
