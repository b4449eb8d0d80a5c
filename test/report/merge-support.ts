import { buildReport, type TestEntry } from '../../reporters/projections/build.js';
import type { Report } from '../../src/schema/report.js';
import { createSubject } from '../../src/subjects/index.js';
import { type SimRun, simRecords } from '../leaderboard/sim-records.js';

/** The ceilingbench.json a one-subject run of `run` would write (records from runCell, assembled by buildReport). */
export async function simReport(run: SimRun): Promise<Report> {
  const records = await simRecords(run);
  const { identity } = await createSubject(run.spec, { seed: run.runSeed });
  const entry = (record: Report['cells'][number] | Report['fits'][number], name: string): TestEntry => ({
    project: record.project,
    name,
    file: `${record.project}.bench.ts`,
    state: 'passed',
    errors: [],
    durationMs: 1,
    meta: { record, gates: [], subject: identity, seed: run.runSeed },
  });
  const entries = [
    ...records.cells.map((c) => entry(c, `${c.task} L=${c.level}`)),
    ...records.fits.map((f) => entry(f, `${f.task} fit`)),
  ];
  return buildReport(entries, {
    version: '0.0.0-test',
    gitSha: 'abc',
    startedAt: `2026-01-0${run.runSeed + 1}T00:00:00.000Z`,
    finishedAt: `2026-01-0${run.runSeed + 1}T00:01:00.000Z`,
    durationMs: 60_000,
  });
}
