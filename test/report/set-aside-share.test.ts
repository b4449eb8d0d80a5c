import { describe, expect, it } from 'vitest';
import { cellsTable, collapseTable, fitsTable } from '../../reporters/projections/html/tables.js';
import { buildReport, renderJunit, renderMarkdown, type TestEntry } from '../../reporters/projections/index.js';
import { cellStandingText, headline } from '../../reporters/projections/leaderboard.js';
import { fitCollapseSweep } from '../../src/assays/sweep/fit-collapse.js';
import { fitRetentionSweep } from '../../src/assays/sweep/fit-retention.js';
import { runCell } from '../../src/assays/sweep/run-cell.js';
import type { CellResult } from '../../src/schema/cell.js';
import type { Board, RetentionEntry } from '../../src/schema/leaderboard.js';
import { createSubject } from '../../src/subjects/index.js';
import type { Subject } from '../../src/subjects/subject.js';
import { resolveTask } from '../../src/tasks/registry.js';

// Issue 40, Deliver 3 and 5 in the reports: the set-aside share beside every accuracy and p_d (summary.md, index.html,
// junit.xml), an insufficient p_d never shown as an estimate, and a cell of replicates that could not differ saying so.

const run = {
  version: '0.1.0',
  gitSha: 'abc',
  startedAt: '2026-01-01T00:00:00.000Z',
  finishedAt: '2026-01-01T00:00:01.000Z',
  durationMs: 1000,
};

async function entries(): Promise<TestEntry[]> {
  const subject = await createSubject('sim:retention?p=1&format=1&faultsFrom=15');
  const d2 = resolveTask('d2');
  const cells: CellResult[] = [];
  for (const level of [5, 10, 15, 20])
    cells.push(
      await runCell({ project: 'd2', task: d2, level, trials: 4 }, subject, {
        concurrency: 4,
        maxMissingFraction: 0.2,
      }),
    );
  // a deterministic server on a fixed-instance puzzle: forty identical answers, one sample
  const oracle = await createSubject('oracle');
  const local: Subject = {
    identity: { spec: 'openai:local', kind: 'openai', model: 'local', parameters: { temperature: 0 } },
    answer: (request) => oracle.answer(request),
  };
  const hanoi = await runCell({ project: 'puzzles', task: resolveTask('hanoi'), level: 2, trials: 40 }, local, {
    concurrency: 8,
    maxMissingFraction: 0.2,
  });
  const entry = (
    project: string,
    name: string,
    record: NonNullable<TestEntry['meta']>['record'],
    state: TestEntry['state'] = 'passed',
  ): TestEntry => ({
    project,
    name,
    file: `specs/${project}.spec.ts`,
    state,
    errors: [],
    durationMs: 1,
    meta: { record, gates: [], subject: subject.identity, seed: 0 },
  });
  return [
    ...cells.map((c) => entry('d2', `d2 > d2 · N=${c.level}`, c, c.status === 'ok' ? 'passed' : 'failed')),
    entry('d2', 'd2 > d2 · fit', fitRetentionSweep(cells, { project: 'd2', missing: 'paper', seed: 1 }), 'failed'),
    entry('puzzles', 'puzzles > hanoi · L2', hanoi),
    entry('puzzles', 'puzzles > hanoi · fit', fitCollapseSweep([hanoi], { project: 'puzzles', seed: 1 })),
  ];
}

describe('the set-aside share and the distinct samples in the reports', () => {
  it('summary.md, index.html and junit.xml show them; an insufficient p_d is never shown as an estimate', async () => {
    const all = await entries();
    const report = buildReport(all, run);
    const md = renderMarkdown(report);
    expect(md).toMatch(/\| d2 \| standard \| insufficient \| 50\.0% \| – \|/);
    expect(md).toMatch(/\| d2 · N=5 \| 4 \| 100\.0% \| 0\.0% \|/);
    expect(md).toMatch(/\| d2 · N=15 \| 4 \| 0\.0% \| 100\.0% \(insufficient\) \|/);
    expect(md).toMatch(
      /\| hanoi · L2 \| 40 \(1 distinct, temperature 0\) \| 100\.0% \| 0\.0% \| \[0\.025, 1\.000\] \|/,
    );
    expect(md).toContain('n (k distinct): replicates of one instance');
    const fits = fitsTable(report);
    expect(fits).toContain('<span class="fail">insufficient</span>');
    expect(fits).toContain('50.0%');
    expect(fits).not.toContain('1.000'); // p_d = 1 on the counted trials alone is not an estimate here
    const cells = cellsTable(report);
    expect(cells).toContain('40 <small>(1 distinct, temperature 0)</small>');
    expect(cells).toContain('<td>N=15</td><td>4</td><td>0.0%</td><td>100.0%</td>');
    expect(collapseTable(report)).toContain('(1/1)');
    const junit = renderJunit(report, all);
    expect(junit).toContain('accuracy=0.0% set_aside=100.0%');
    expect(junit).toContain('n=40 distinct=1 accuracy=100.0% set_aside=0.0%');
    expect(junit).toMatch(/insufficient data: 4 of 4 trials are missing data or set aside \(100\.0%/);
  });

  it('the leaderboard: an insufficient standing shows no estimate, a cell its set-aside share beside the accuracy', () => {
    const board = { kind: 'retention' } as Board;
    const entry = { status: 'insufficient', pd: 1, ci95: [1, 1], atLowerBound: false } as unknown as RetentionEntry;
    expect(headline(board, entry)).toBe('insufficient');
    expect(headline(board, { ...entry, status: 'ok' })).toBe('1.000 [1.000, 1.000]');
    expect(cellStandingText({ accuracy: 0, successes: 0, counted: 2, n: 10 })).toBe('0% (0/2) · 80% set aside');
    expect(cellStandingText({ accuracy: 1, successes: 10, counted: 10, n: 10 })).toBe('100% (10/10)');
  });
});
