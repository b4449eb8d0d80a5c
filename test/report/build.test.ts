import { describe, expect, it } from 'vitest';
import { buildReport, renderJunit, renderMarkdown, type TestEntry } from '../../reporters/projections/index.js';
import { reportSchema } from '../../src/schema/report.js';
import { cell, retentionFit } from '../support/records.js';

const subject = { spec: 'sim:retention?p=0.95', kind: 'sim' as const, parameters: { p: 0.95 } };
const run = {
  version: '0.1.0',
  gitSha: 'abc',
  startedAt: '2026-01-01T00:00:00.000Z',
  finishedAt: '2026-01-01T00:00:01.000Z',
  durationMs: 1000,
};

function entries(): TestEntry[] {
  const gate = {
    project: 'd2',
    task: 'd2',
    gate: 'minRetention',
    mode: 'hard' as const,
    threshold: 0.99,
    estimate: 0.951,
    ci95: [0.944, 0.957] as [number, number],
    passed: false,
    message: 'gate d2.minRetention FAILED (hard): …',
  };
  return [
    {
      project: 'd2',
      name: 'd2 > d2 · N=10',
      file: 'specs/d2/retention.spec.ts',
      state: 'passed',
      errors: [],
      durationMs: 20,
      meta: { record: cell({ level: 10 }), gates: [], subject, seed: 0 },
    },
    {
      project: 'd2',
      name: 'd2 > d2 · N=5',
      file: 'specs/d2/retention.spec.ts',
      state: 'passed',
      errors: [],
      durationMs: 10,
      meta: { record: cell(), gates: [], subject, seed: 0 },
    },
    {
      project: 'd2',
      name: 'd2 > d2 · fit',
      file: 'specs/d2/retention.spec.ts',
      state: 'failed',
      errors: ['hard gates failed'],
      durationMs: 5,
      meta: { record: retentionFit(), gates: [gate], subject, seed: 0 },
    },
  ];
}

describe('report projections', () => {
  it('builds a schema-valid report with cells sorted by level and gate failures counted', () => {
    const report = buildReport(entries(), run);
    expect(reportSchema.safeParse(report).success).toBe(true);
    expect(report.cells.map((c) => c.level)).toEqual([5, 10]);
    expect(report.summary).toMatchObject({ cells: 2, trials: 80, missing: 2, hardGatesFailed: 1, testsFailed: 1 });
    expect(report.subjects).toEqual([subject]);
    expect(JSON.stringify(buildReport(entries(), run))).toBe(JSON.stringify(report));
  });

  it('writes JUnit with a suite per project, N= names, p_d properties and each gate failure once', () => {
    const xml = renderJunit(buildReport(entries(), run), entries());
    expect(xml).toContain('<testsuite name="d2"');
    expect(xml).toContain('name="d2 > d2 · N=5"');
    expect(xml).toContain('<property name="p_d" value="0.951"/>');
    expect(xml).toContain('<property name="pd_ci_low" value="0.944"/>');
    // the fit test that evaluated the gate carries its failure; the gate case lists it without failing again
    expect(xml.match(/<failure /g)).toHaveLength(1);
    expect(xml).toMatch(/name="d2 · gate"[^>]*>\s*<system-out><!\[CDATA\[gate d2.minRetention FAILED/);
    // a gate no test carries (not evaluated) fails the gate case
    const unevaluated = renderJunit(buildReport(entries(), { ...run, gates: { d2: { minHorizon: 4 } } }), entries());
    expect(unevaluated).toMatch(
      /name="d2 · gate"[^>]*>\s*<failure message="gate d2.minHorizon FAILED \(hard\): not evaluated/,
    );
  });

  it('summarises fits, gates and cells in Markdown', () => {
    const md = renderMarkdown(buildReport(entries(), run));
    expect(md).toContain('| d2.minRetention (d2) | hard | **FAIL** | 0.951 | [0.944, 0.957] | 0.99 |');
    // the set-aside share beside p_d ('–' for a fit from before it was kept, as this one) and beside every accuracy
    expect(md).toContain('| d2 | standard | 0.951 | – | [0.944, 0.957] | 13.80 |');
    const deep = renderMarkdown(
      buildReport(
        [
          ...entries().slice(0, 2),
          {
            ...entries()[2],
            meta: {
              record: retentionFit({ status: 'insufficient', insufficientReason: 'x', setAsideRate: 0.8 }),
              gates: [],
              subject,
              seed: 0,
            },
          },
        ],
        run,
      ),
    );
    expect(deep).toContain('| d2 | standard | insufficient | 80.0% | – |');
  });
});
