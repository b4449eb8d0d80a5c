import { beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { buildReport, renderJunit, renderMarkdown, type TestEntry } from '../../reporters/projections/index.js';
import { projectGatesSchema } from '../../src/config/schema.js';
import { type Report, reportSchema } from '../../src/schema/report.js';
import { multiSubjectEntries, RUN } from './multi-subject.js';

// A run with several subjects: its records name their subject, the report carries the leaderboard, and a
// notWorseThan gate is decided across subjects when the report is built.

const THREE = ['sim:retention?p=0.95', 'sim:retention?p=0.90', 'sim:retention?p=0.80'];
const COPY = 'sim:retention?p=0.95&seed=7';

let three: TestEntry[];
let copies: TestEntry[];
let report: Report;

beforeAll(async () => {
  // d2 at 40 trials per cell over its ten depths (the acceptance run's d2 half)
  three = await multiSubjectEntries(THREE, { tasks: ['d2'], trials: 40 });
  copies = [
    ...three.filter((e) => e.meta?.subject.spec === THREE[0]),
    ...(await multiSubjectEntries([COPY], { tasks: ['d2'], trials: 40 })),
  ];
  report = buildReport(three, RUN);
}, 120_000);

const gated = (entries: TestEntry[], gates: z.input<typeof projectGatesSchema>) =>
  buildReport(entries, { ...RUN, gates: { d2: projectGatesSchema.parse(gates) } });

describe('records of a run with several subjects', () => {
  it('name their subject, sorted by project, task, subject, then level', () => {
    expect(reportSchema.safeParse(report).success).toBe(true);
    expect(report.cells).toHaveLength(30);
    expect(report.cells.every((c) => THREE.includes(c.subject ?? ''))).toBe(true);
    expect(report.fits.map((f) => f.subject)).toEqual([...THREE].sort());
    const order = report.cells.map((c) => `${c.subject}|${String(c.level).padStart(3, '0')}`);
    expect(order).toEqual([...order].sort());
  });

  it('keep one subject’s report as it was: no subject field, no leaderboard', () => {
    const one = buildReport(
      three.filter((e) => e.meta?.subject.spec === THREE[0]),
      RUN,
    );
    expect(one.leaderboard).toBeUndefined();
    expect([...one.cells, ...one.fits].some((r) => 'subject' in r)).toBe(false);
  });

  it('carry the leaderboard: 0.95 > 0.90 > 0.80, adjacent pairs separable, same bytes on a rebuild', () => {
    const board = report.leaderboard?.projects.find((p) => p.project === 'd2')?.boards[0];
    expect(board?.kind).toBe('retention');
    expect(board?.entries.map((e) => e.subject)).toEqual(THREE);
    expect(board?.relations.map((r) => r.relation)).toEqual(['>', '>']);
    expect(report.leaderboard?.seed).toBe(0);
    expect(JSON.stringify(buildReport(three, RUN))).toBe(JSON.stringify(report));
  });
});

describe('notWorseThan gate', () => {
  it('fails a candidate worse beyond the margin (0.90 against the baseline 0.95), hard: counted as failed', () => {
    const r = gated(
      three.filter((e) => e.meta?.subject.spec !== THREE[2]),
      { notWorseThan: THREE[0], margin: 0.01 },
    );
    const gates = r.gates.filter((g) => g.gate === 'notWorseThan');
    expect(gates).toHaveLength(1);
    expect(gates[0]).toMatchObject({
      project: 'd2',
      task: 'd2',
      mode: 'hard',
      passed: false,
      subject: THREE[1],
      baseline: THREE[0],
      threshold: -0.01,
    });
    expect(gates[0].estimate).toBeLessThan(-0.01);
    expect(gates[0].upper).toBeLessThan(-0.01);
    expect(gates[0].message).toMatch(/^gate d2\.notWorseThan FAILED \(hard\): sim:retention\?p=0\.90 is worse than/);
    expect(r.summary.hardGatesFailed).toBe(1);
    expect(reportSchema.safeParse(r).success).toBe(true);
  });

  it('passes two copies of the same subject (different sim seeds), paired', () => {
    const r = gated(copies, { notWorseThan: THREE[0] });
    const [gate] = r.gates;
    expect(r.gates).toHaveLength(1);
    expect(gate).toMatchObject({ passed: true, subject: COPY, baseline: THREE[0], threshold: -0.01 });
    expect(gate.message).toMatch(/\(paired-bootstrap\) — alpha 0\.05, power 0\.\d{3} at Δp_d = −0\.02 /);
    // a test with stated errors: alpha, the margin, and the power one margin further
    expect(gate).toMatchObject({ evidence: 'test', alpha: 0.05, margin: 0.01 });
    expect(gate.power).toBeGreaterThan(0.05);
    expect(r.summary.hardGatesFailed).toBe(0);
  });

  it('judges every other subject against the baseline; advisory results never fail the run', () => {
    const r = gated(three, { notWorseThan: { subject: THREE[0], mode: 'advisory', margin: 0.5 } });
    expect(r.gates.map((g) => [g.subject, g.passed])).toEqual([
      [THREE[2], true],
      [THREE[1], true],
    ]);
    expect(r.summary.hardGatesFailed).toBe(0);
  });

  it('fails, naming why, when the baseline did not run or nothing else did', () => {
    const noBaseline = gated(three, { notWorseThan: 'openai:gpt-4o-mini' });
    expect(noBaseline.gates).toHaveLength(1);
    expect(noBaseline.gates[0].passed).toBe(false);
    expect(noBaseline.gates[0].message).toContain("baseline subject 'openai:gpt-4o-mini' did not run in project 'd2'");
    const alone = gated(
      three.filter((e) => e.meta?.subject.spec === THREE[0]),
      { notWorseThan: THREE[0] },
    );
    expect(alone.gates[0]).toMatchObject({ passed: false, task: '*' });
    expect(alone.gates[0].message).toContain('nothing to compare');
  });

  it('never passes on insufficient data (a candidate without a fit)', () => {
    const noFit = [
      ...three.filter((e) => e.meta?.subject.spec === THREE[0]),
      ...three.filter((e) => e.meta?.subject.spec === THREE[1] && e.meta.record.kind === 'cell'),
    ];
    const r = gated(noFit, { notWorseThan: THREE[0] });
    // the comparison says it had nothing to test, and the manifest that the candidate's fit is missing
    expect(r.gates.map((g) => [g.passed, g.subject])).toEqual([
      [false, THREE[1]],
      [false, THREE[1]],
    ]);
    expect(r.gates.map((g) => g.message).join('\n')).toContain('insufficient');
  });

  it('rejects a margin without notWorseThan, or given twice', () => {
    expect(projectGatesSchema.safeParse({ margin: 0.01 }).success).toBe(false);
    expect(projectGatesSchema.safeParse({ notWorseThan: { subject: 'a', margin: 0.01 }, margin: 0.02 }).success).toBe(
      false,
    );
  });
});

describe('projections of a three-subject report', () => {
  it('summary.md: the ranked table, relations and cells side by side', () => {
    const md = renderMarkdown(report);
    expect(md).toContain('## Leaderboard');
    // `>` as an HTML entity: summary.md never carries raw HTML characters of the data (safe-text.ts)
    expect(md).toMatch(/- sim:retention\?p=0\.95 &gt; sim:retention\?p=0\.90 \(p = /);
    expect(md).toMatchSnapshot();
  });

  it('junit.xml: unique case names naming the subject, leaderboard properties', () => {
    const xml = renderJunit(report, three);
    const names = [...xml.matchAll(/<testcase classname="[^"]*" name="([^"]*)"/g)].map((m) => m[1]);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names.filter((n) => !n.includes('gate') && !n.startsWith('leaderboard')))
      expect(THREE.some((s) => name.includes(s))).toBe(true);
    expect(xml).toContain('<property name="leaderboard_rank_sim:retention?p=0.95" value="1"/>');
    expect(xml).toMatch(
      /<property name="leaderboard_relation_1" value="sim:retention\?p=0\.95 > sim:retention\?p=0\.90 \(p = /,
    );
    // a per-subject suite names its own subject only, in its subject property and its provenance
    const own = /<testsuite name="d2@sim:retention\?p=0\.90"[^>]*>\s*<properties>([\s\S]*?)<\/properties>/.exec(
      xml,
    )?.[1];
    expect(own).toMatch(/^\s*<property name="subject" value="sim:retention\?p=0\.90"\/>/);
    expect(own).toContain('<property name="provenance.subject.sim:retention?p=0.90.kind" value="sim"/>');
    expect(own).not.toMatch(/p=0\.(80|95)/);
    expect(names).toMatchSnapshot();
    expect(xml.slice(xml.indexOf('<testsuite name="leaderboard"')).replace(/timestamp="[^"]*"/g, '')).toMatchSnapshot();
  });
});
