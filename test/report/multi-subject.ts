import type { RunInfo, TestEntry } from '../../reporters/projections/build.js';
import { type SimRun, simRecords } from '../leaderboard/sim-records.js';

export const RUN: RunInfo = {
  version: '0.1.0',
  gitSha: 'abc',
  startedAt: '2026-01-01T00:00:00.000Z',
  finishedAt: '2026-01-01T00:00:01.000Z',
  durationMs: 1000,
};

/**
 * The tests one run with several sim subjects leaves for the reporter: per subject, a Vitest project
 * `<project>@<spec>` with a test per cell and one per fit, each carrying its subject in meta (as describeSweep does).
 */
export async function multiSubjectEntries(
  specs: readonly string[],
  run: Omit<SimRun, 'spec' | 'runSeed'> & { runSeed?: number },
): Promise<TestEntry[]> {
  const entries: TestEntry[] = [];
  for (const spec of specs) {
    const runSeed = run.runSeed ?? 0;
    const records = await simRecords({ ...run, spec, runSeed });
    const subject = { spec, kind: 'sim' as const, parameters: {} };
    const entry = (project: string, name: string, record: TestEntry['meta'] extends infer M ? M : never) => ({
      project: `${project}@${spec}`,
      name,
      file: `specs/${project}.spec.ts`,
      state: 'passed' as const,
      errors: [],
      durationMs: 1,
      meta: record,
    });
    for (const cell of records.cells) {
      entries.push(
        entry(cell.project, `${cell.task} · N=${cell.level}`, { record: cell, gates: [], subject, seed: runSeed }),
      );
    }
    for (const fit of records.fits) {
      entries.push(entry(fit.project, `${fit.task} · fit`, { record: fit, gates: [], subject, seed: runSeed }));
    }
  }
  return entries;
}
