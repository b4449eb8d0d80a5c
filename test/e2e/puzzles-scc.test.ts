import { describe, expect, it } from 'vitest';
import { runVitest } from '../support/run-vitest.js';

describe('puzzles and scc projects end to end', () => {
  it('puzzles on the oracle: every family and level passes 100% and λ* is undefined (flat)', () => {
    const run = runVitest(['--project', 'puzzles'], { CEILINGBENCH_SUBJECT: 'oracle', CEILINGBENCH_TRIALS: '2' });
    expect(run.status, run.stderr + run.stdout).toBe(0);
    const report = run.report();
    expect(report.collapse.map((c) => c.task).sort()).toEqual([
      'checkers',
      'coloring',
      'crypt',
      'hanoi',
      'jug',
      'river',
      'rubik',
      'sat',
      'sudoku',
    ]);
    for (const cell of report.cells) expect(cell.accuracy, `${cell.task} L${cell.level}`).toBe(1);
    for (const fit of report.collapse) expect(fit.collapseThreshold.levelIndex).toBeNull();
  });

  it('puzzles on the simulated subject degrade with level (accuracy at L1 above L6 in total)', () => {
    const run = runVitest(['--project', 'puzzles'], { CEILINGBENCH_SUBJECT: 'sim:default', CEILINGBENCH_TRIALS: '10' });
    expect(run.status, run.stderr + run.stdout).toBe(0);
    const cells = run.report().cells;
    const total = (level: number) => cells.filter((c) => c.level === level).reduce((s, c) => s + c.successes, 0);
    expect(total(1)).toBeGreaterThan(total(6));
  });

  it('scc on sim:counting?cc=96 measures ladder bounds that contain 96, and a gate of 200 fails', () => {
    const pass = runVitest(['--project', 'scc', 'counting.spec'], {
      CEILINGBENCH_SUBJECT: 'sim:counting?cc=96',
      CEILINGBENCH_GATES: '{"scc":{"minCountingCapacity":64}}',
    });
    expect(pass.status, pass.stderr + pass.stdout).toBe(0);
    const [scc] = pass.report().scc;
    expect(scc.ccLower).toBeLessThanOrEqual(96);
    expect(scc.ccUpper ?? Number.POSITIVE_INFINITY).toBeGreaterThanOrEqual(96);
    const fail = runVitest(['--project', 'scc', 'counting.spec'], {
      CEILINGBENCH_SUBJECT: 'sim:counting?cc=96',
      CEILINGBENCH_GATES: '{"scc":{"minCountingCapacity":200}}',
    });
    expect(fail.status).not.toBe(0);
    expect(fail.stdout + fail.stderr).toMatch(/gate scc\.minCountingCapacity FAILED \(hard\): counting capacity = \d+/);
  });
});
