import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildReport, type RunInfo, type TestEntry } from '../../reporters/projections/build.js';
import { markRunStarted, sealReportSet, unfinishedRunNote } from '../../reporters/projections/report-set.js';
import { runCli } from '../../src/cli/program.js';
import { type Report, reportSchema, runBlockOf } from '../../src/schema/report.js';
import type { SubjectIdentity } from '../../src/schema/subject.js';
import { simRecords } from '../leaderboard/sim-records.js';

/**
 * Issue 42 item 4: the run state (id, `running|finished|interrupted`) was in ceilingbench.set.json only; a report
 * copied out of its folder, or compared, did not say its run was interrupted, and `compare` passed on it. The report
 * now carries its run block, and `compare` fails (a warning and exit 1) on a report whose run did not finish.
 */

const RUN: RunInfo = {
  version: '0.1.0',
  gitSha: null,
  startedAt: '2026-01-01T00:00:00.000Z',
  finishedAt: '2026-01-01T00:00:01.000Z',
  durationMs: 1000,
};
const SIM: SubjectIdentity = { spec: 'sim:retention?p=0.9', kind: 'sim', parameters: {} };
const RUN_ID = { id: '2026-01-01T00:00:00.000Z-p1', startedAt: '2026-01-01T00:00:00.000Z' };

let report: Report;
beforeAll(async () => {
  const records = await simRecords({ spec: SIM.spec, runSeed: 0, tasks: ['d2'], trials: 10, levels: [5, 10] });
  const entries: TestEntry[] = [...records.cells, ...records.fits].map((record) => ({
    project: 'd2',
    name: 'd2',
    file: 'specs/d2.spec.ts',
    state: 'passed',
    errors: [],
    durationMs: 1,
    meta: { record, gates: [], subject: SIM, seed: 0 },
  }));
  report = buildReport(entries, RUN);
});

/** `report` with its last trials cut by an interrupted run, as the reporter writes it. */
function interrupted(): Report {
  const cells = report.cells.map((cell, i) =>
    i === 0
      ? {
          ...cell,
          trials: cell.trials.map((t, j) =>
            j < 2 ? { ...t, interrupted: j === 0 ? ('in-flight' as const) : ('not-sent' as const) } : t,
          ),
        }
      : cell,
  );
  return { ...report, cells, run: runBlockOf(RUN_ID, 'interrupted', cells) };
}

async function cli(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, { stdout: (t) => out.push(t), stderr: (t) => err.push(t) });
  return { code, out: out.join(''), err: err.join('') };
}

/** A report set's folder holding `r` as ceilingbench.json, sealed with `state`. */
function folder(r: Report, state: 'finished' | 'interrupted'): string {
  const dir = mkdtempSync(join(tmpdir(), 'cb-run-state-'));
  writeFileSync(join(dir, 'ceilingbench.json'), JSON.stringify(r));
  sealReportSet(dir, RUN_ID, state);
  return join(dir, 'ceilingbench.json');
}

describe('the run block of a report', () => {
  it('says the run, its state and how many trials the interruption cut, and validates', () => {
    const r = interrupted();
    expect(r.run).toEqual({ ...RUN_ID, state: 'interrupted', cut: { inFlight: 1, notSent: 1 } });
    expect(reportSchema.parse(JSON.parse(JSON.stringify(r))).run?.state).toBe('interrupted');
    expect(runBlockOf(RUN_ID, 'finished', report.cells)).toEqual({ ...RUN_ID, state: 'finished' });
  });

  it('is read from the report itself: a copy outside its folder still says its run was interrupted', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cb-run-state-copy-'));
    const path = join(dir, 'v1.json');
    writeFileSync(path, JSON.stringify(interrupted()));
    expect(unfinishedRunNote(path)).toMatch(/was interrupted: .*2 trial\(s\) were cut/);
    const finished = join(dir, 'v2.json');
    writeFileSync(finished, JSON.stringify({ ...report, run: runBlockOf(RUN_ID, 'finished', report.cells) }));
    expect(unfinishedRunNote(finished)).toBeUndefined();
  });

  it('a later run that started in the folder and did not finish flags the report there (an earlier run’s)', () => {
    const path = folder({ ...report, run: runBlockOf(RUN_ID, 'finished', report.cells) }, 'finished');
    markRunStarted(join(path, '..'), { id: 'later-run', startedAt: '2026-01-02T00:00:00.000Z' });
    expect(unfinishedRunNote(path)).toMatch(/the run later-run .* did not finish \(state: running/);
  });
});

describe('compare refuses to pass on a report whose run did not finish', () => {
  it('an interrupted candidate: a warning, FAIL in the verdict line, exit 1 (the same report finished passes)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cb-run-state-cmp-'));
    mkdirSync(join(dir, 'base'));
    const base = join(dir, 'base', 'v1.json');
    writeFileSync(base, JSON.stringify(report));
    const good = await cli(
      'compare',
      base,
      folder({ ...report, run: runBlockOf(RUN_ID, 'finished', report.cells) }, 'finished'),
    );
    expect(good.out).toMatch(/^PASS/m);
    expect(good.code).toBe(0);
    const cut = await cli('compare', base, folder(interrupted(), 'interrupted'));
    expect(cut.err).toMatch(/warning: the run .* was interrupted/);
    expect(cut.out).toMatch(
      /^FAIL: 1 report\(s\) from a run that did not finish — WARNING: the run .* was interrupted/m,
    );
    expect(cut.code).toBe(1);
    const json = await cli('compare', base, folder(interrupted(), 'interrupted'), '--json');
    const parsed = JSON.parse(json.out) as { passed: boolean; unfinishedRuns: string[] };
    expect(parsed.passed).toBe(false);
    expect(parsed.unfinishedRuns[0]).toMatch(/was interrupted/);
    expect(json.code).toBe(1);
  });

  it('`report` on an interrupted run’s report warns', async () => {
    const r = await cli('report', folder(interrupted(), 'interrupted'));
    expect(r.err).toMatch(/warning: the run .* was interrupted: its report holds the trials that finished; 2 trial/);
  });
});
