import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Report, reportSchema } from '../../src/schema/report.js';
import { subjectLabels } from '../../src/subjects/label.js';
import { runCeilingbench, runVitest } from '../support/run-vitest.js';

/**
 * Issue 20 acceptance run: three sim subjects on d1 and d2 at 40 trials per cell, in one `ceilingbench run`.
 * One run in `beforeAll`; every `it` reads its files from `MULTI.outDir` (the leaderboard checks can join here).
 */
const SUBJECTS = ['sim:retention?p=0.95', 'sim:retention?p=0.90', 'sim:retention?p=0.80'];
const LABELS = subjectLabels(SUBJECTS);
const PROJECTS = ['d1', 'd2'];

const MULTI = { outDir: '', status: null as number | null, output: '' };
const report = (): Report =>
  reportSchema.parse(JSON.parse(readFileSync(join(MULTI.outDir, 'ceilingbench.json'), 'utf8')));
const junit = (): string => readFileSync(join(MULTI.outDir, 'junit.xml'), 'utf8');

describe('several subjects in one run', () => {
  beforeAll(() => {
    MULTI.outDir = mkdtempSync(join(tmpdir(), 'cb-multi-'));
    const subjects = SUBJECTS.flatMap((s) => ['--subject', s]);
    const run = runCeilingbench([
      'run',
      '--project',
      PROJECTS.join(','),
      ...subjects,
      '--trials',
      '40',
      '--out',
      MULTI.outDir,
    ]);
    MULTI.status = run.status;
    MULTI.output = run.stderr + run.stdout;
  }, 600_000);

  it('runs each (project, subject) under the name <project>@<label>, in one Vitest project per project', () => {
    expect(MULTI.status, MULTI.output).toBe(0);
    expect(LABELS).toEqual(['sim-retention-p0.95', 'sim-retention-p0.90', 'sim-retention-p0.80']);
    const expected = PROJECTS.flatMap((p) => LABELS.map((l) => `${p}@${l}`)).sort();
    expect(report().projects).toEqual(expected);
    expect(
      report()
        .subjects.map((s) => s.spec)
        .sort(),
    ).toEqual([...SUBJECTS].sort());
  });

  it('gives every JUnit case a unique name that names its subject', () => {
    const names = [...junit().matchAll(/<testcase [^>]*name="([^"]*)"/g)].map((m) => m[1]);
    // the cells and fits of the per-subject projects (not their gate cases, nor cases about the whole run)
    const cases = names.filter((n) => /^d[12]@/.test(n) && !n.endsWith('· gate'));
    expect(cases.length).toBe(PROJECTS.length * SUBJECTS.length * 11);
    expect(new Set(names).size).toBe(names.length);
    for (const name of cases)
      expect(
        LABELS.some((l) => name.includes(`@${l} `)),
        name,
      ).toBe(true);
    // a case is named `<describe> > <test>`
    expect(names).toContain('d2@sim-retention-p0.90 > d2@sim-retention-p0.90 · N=15');
    expect(names).toContain('d1@sim-retention-p0.80 > d1@sim-retention-p0.80 · fit N=5…50');
  });

  it('attributes every cell and fit to its subject, and the fits follow the subjects', () => {
    const { cells, fits } = report();
    expect(cells).toHaveLength(PROJECTS.length * SUBJECTS.length * 10);
    for (const record of [...cells, ...fits]) expect(SUBJECTS).toContain(record.subject);
    for (const project of PROJECTS) {
      const pd = SUBJECTS.map((s) => fits.find((f) => f.project === project && f.subject === s)?.pd ?? Number.NaN);
      expect(pd[0], project).toBeGreaterThan(pd[1]);
      expect(pd[1], project).toBeGreaterThan(pd[2]);
    }
  });

  it('has every subject answer the same instances', () => {
    const { cells } = report();
    for (const project of PROJECTS) {
      for (const level of [5, 25, 50]) {
        const seedsOf = (subject: string) =>
          cells
            .find((c) => c.project === project && c.level === level && c.subject === subject)
            ?.trials.map((t) => t.seed);
        const first = seedsOf(SUBJECTS[0]);
        expect(first, `${project} N=${level}`).toHaveLength(40);
        for (const subject of SUBJECTS.slice(1))
          expect(seedsOf(subject), `${project} N=${level} ${subject}`).toEqual(first);
      }
    }
  });

  it('`vitest --project d2` runs every subject of d2; a gate keyed d2 applies to each, a key d2@<label> wins', () => {
    const run = runVitest(['--project', 'd2'], {
      CEILINGBENCH_SUBJECTS: SUBJECTS.join(','),
      CEILINGBENCH_TRIALS: '10',
      CEILINGBENCH_GATES: '{"d2":{"minRetention":0.5},"d2@sim-retention-p0.80":{"minRetention":0.99}}',
    });
    expect(run.report().projects).toEqual(LABELS.map((l) => `d2@${l}`).sort());
    const gates = run.report().gates.filter((g) => g.gate === 'minRetention');
    expect(gates.map((g) => [g.project, g.threshold, g.passed])).toEqual([
      ['d2@sim-retention-p0.80', 0.99, false],
      ['d2@sim-retention-p0.90', 0.5, true],
      ['d2@sim-retention-p0.95', 0.5, true],
    ]);
    expect(run.status).toBe(1);
    expect(run.stderr).not.toMatch(/name no project/);
  });

  it('`--project d2@<label>` runs that subject only; a hard gate of a subject left out fails as not evaluated', () => {
    const outDir = mkdtempSync(join(tmpdir(), 'cb-multi-filter-'));
    const run = runCeilingbench(
      ['run', '--project', 'd2@sim-retention-p0.9*', ...SUBJECTS.flatMap((s) => ['--subject', s])],
      {
        CEILINGBENCH_TRIALS: '5',
        CEILINGBENCH_OUT: outDir,
        CEILINGBENCH_GATES:
          '{"d2@sim-retention-p0.90":{"minRetention":0.1},"d2@sim-retention-p0.80":{"minRetention":0.1}}',
      },
    );
    const filtered = reportSchema.parse(JSON.parse(readFileSync(join(outDir, 'ceilingbench.json'), 'utf8')));
    expect(filtered.projects).toEqual(['d2@sim-retention-p0.90', 'd2@sim-retention-p0.95']);
    expect(new Set(filtered.cells.map((c) => c.subject))).toEqual(new Set(SUBJECTS.slice(0, 2)));
    expect(filtered.scope?.filters).toBe('--project d2@sim-retention-p0.9*');
    expect(filtered.scope?.notRun).toContain('d2@sim-retention-p0.80');
    const gates = filtered.gates.filter((g) => g.gate === 'minRetention');
    expect(gates.map((g) => [g.project, g.passed])).toEqual([
      ['d2@sim-retention-p0.80', false],
      ['d2@sim-retention-p0.90', true],
    ]);
    expect(gates[0]?.message).toMatch(/not evaluated/);
    expect(run.status, run.stderr).toBe(1);
    // a pattern that selects no subject is a usage error, before anything runs
    const none = runCeilingbench(['run', '--project', 'd2@nobody', ...SUBJECTS.flatMap((s) => ['--subject', s])], {
      CEILINGBENCH_TRIALS: '5',
    });
    expect(none.status).toBe(2);
    expect(none.stderr).toMatch(/d2@nobody/);
  });
});
