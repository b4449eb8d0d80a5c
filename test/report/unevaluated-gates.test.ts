import { describe, expect, it } from 'vitest';
import { buildReport, type TestEntry } from '../../reporters/projections/index.js';
import { cell, retentionFit } from '../support/records.js';

const subject = { spec: 'sim:retention?p=0.95', kind: 'sim' as const, parameters: { p: 0.95 } };
const run = {
  version: '0.1.0',
  gitSha: null,
  startedAt: '2026-01-01T00:00:00.000Z',
  finishedAt: '2026-01-01T00:00:01.000Z',
  durationMs: 1000,
};

/** A run of project d2 that finished one cell but no fit (e.g. `vitest -t "N=5"` filtered the fit test out). */
const cellOnly: TestEntry[] = [
  {
    project: 'd2',
    name: 'd2 > d2 · N=5',
    file: 'd2/retention.spec.ts',
    state: 'passed',
    errors: [],
    durationMs: 10,
    meta: { record: cell(), gates: [], subject, seed: 0 },
  },
];

describe('configured gates that no fit evaluated', () => {
  it('a hard gate of a project that ran fails, naming why; it never passes unchecked', () => {
    const report = buildReport(cellOnly, { ...run, gates: { d2: { minRetention: 0.9 } } });
    expect(report.gates).toHaveLength(1);
    const [gate] = report.gates;
    expect(gate).toMatchObject({ project: 'd2', gate: 'minRetention', mode: 'hard', passed: false, estimate: null });
    expect(gate?.message).toMatch(/gate d2\.minRetention FAILED \(hard\): not evaluated/);
    expect(report.summary.hardGatesFailed).toBe(1);
  });

  it('an advisory gate adds nothing; a hard gate of a project that did not run fails as not evaluated', () => {
    const report = buildReport(cellOnly, {
      ...run,
      gates: { d2: { minHorizon: { value: 4, mode: 'advisory', evidence: 'point' } }, d3: { minRetention: 0.9 } },
    });
    expect(report.gates.map((g) => [g.project, g.gate, g.passed])).toEqual([['d3', 'minRetention', false]]);
    expect(report.gates[0]?.message).toMatch(
      /gate d3\.minRetention FAILED \(hard\): not evaluated — project 'd3' did not run/,
    );
    expect(report.summary.hardGatesFailed).toBe(1);
  });

  it('with the scope known, names the filters and lists what did not run', () => {
    const report = buildReport(cellOnly, {
      ...run,
      gates: { d1: { minRetention: 0.9 } },
      scope: { declared: ['d1', 'd2', 'd3'], filters: '--project d2' },
    });
    expect(report.scope).toEqual({
      declared: ['d1', 'd2', 'd3'],
      ran: ['d2'],
      notRun: ['d1', 'd3'],
      filters: '--project d2',
    });
    expect(report.gates.map((g) => g.project)).toEqual(['d1']);
    expect(report.gates[0]?.message).toMatch(/project 'd1' did not run \(this run's filters: --project d2\)/);
  });

  it("a key covering several subjects' projects needs a result in each: d2 evaluated in d2@a only fails d2@b", () => {
    const other = { spec: 'sim:retention?p=0.9', kind: 'sim' as const, parameters: { p: 0.9 } };
    const entries: TestEntry[] = [
      { ...cellOnly[0], project: 'd2@a', meta: { record: cell(), gates: [], subject, seed: 0 } },
      {
        ...cellOnly[0],
        project: 'd2@a',
        name: 'd2@a > fit',
        meta: {
          record: retentionFit(),
          gates: [
            {
              project: 'd2@a',
              task: 'd2',
              gate: 'minRetention',
              mode: 'hard',
              threshold: 0.9,
              estimate: 0.95,
              ci95: null,
              passed: true,
              message: 'gate d2.minRetention passed',
            },
          ],
          subject,
          seed: 0,
        },
      },
      { ...cellOnly[0], project: 'd2@b', meta: { record: cell(), gates: [], subject: other, seed: 0 } },
    ];
    const report = buildReport(entries, { ...run, gates: { d2: { minRetention: 0.9 } } });
    const failed = report.gates.filter((g) => !g.passed);
    expect(failed.map((g) => g.project)).toEqual(['d2@b']);
    expect(failed[0]?.message).toMatch(/gate d2\.minRetention FAILED \(hard\): not evaluated .*'d2@b'/);
  });

  it('a merge that lacks a shard is a failed test of the report, naming the shard', () => {
    const report = buildReport(cellOnly, {
      ...run,
      scope: { declared: ['d2'], filters: null, shards: { count: 3, merged: [1, 3], missing: [2] } },
    });
    expect(report.tests.map((t) => [t.project, t.name])).toEqual([['*', 'merged shards']]);
    expect(report.tests[0]?.errors[0]).toMatch(/^merged 2 of 3 shards: shard 2\/3 missing — its job failed/);
    expect(report.summary.testsFailed).toBe(1);
    const whole = buildReport(cellOnly, {
      ...run,
      scope: { declared: ['d2'], filters: null, shards: { count: 3, merged: [1, 2, 3], missing: [] } },
    });
    expect(whole.tests).toEqual([]);
  });
});
