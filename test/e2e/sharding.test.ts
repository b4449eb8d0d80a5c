import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Report } from '../../src/schema/report.js';
import { runVitest } from '../support/run-vitest.js';

/**
 * The report minus wall-clock fields (the run's timing and id, per-trial latency), the git sha of the tree and the scope
 * (how each run was narrowed differs by construction: the shards' filters, the merge's shards).
 */
function withoutTimings(report: Report): unknown {
  const { timing: _timing, run: _run, git: _git, scope: _scope, ...rest } = report;
  return {
    ...rest,
    cells: rest.cells.map((cell) => ({ ...cell, trials: cell.trials.map(({ latencyMs: _l, ...trial }) => trial) })),
  };
}

/** Two blob shards of `projects`, merged, and one unsharded run of the same. */
function shardedAndSingle(projects: string[], env: Record<string, string>): { merged: Report; single: Report } {
  const blobs = mkdtempSync(join(tmpdir(), 'cb-blobs-'));
  for (const shard of ['1/2', '2/2']) {
    const run = runVitest(
      [...projects, `--shard=${shard}`, '--reporter=blob', `--outputFile=${join(blobs, `blob-${shard[0]}.json`)}`],
      env,
    );
    expect(run.status, run.stderr).toBe(0);
  }
  const merged = runVitest([`--merge-reports=${blobs}`], env);
  expect(merged.status, merged.stderr).toBe(0);
  const single = runVitest(projects, env);
  expect(single.status, single.stderr).toBe(0);
  return { merged: merged.report(), single: single.report() };
}

describe('sharding', () => {
  it('two blob shards merged with --merge-reports give the same cells and fits as one unsharded run', () => {
    const env = { CEILINGBENCH_SUBJECT: 'sim:retention?p=0.9', CEILINGBENCH_TRIALS: '5' };
    const { merged: mergedReport, single } = shardedAndSingle(
      ['--project', 'd1', '--project', 'd2', '--project', 'd3'],
      env,
    );
    expect(mergedReport.cells).toHaveLength(35);
    expect(mergedReport.fits.map((f) => f.task)).toEqual(['d1', 'd2', 'd3']);
    expect(withoutTimings(mergedReport)).toEqual(withoutTimings(single));
    expect(mergedReport.scope?.shards).toEqual({ count: 2, merged: [1, 2], missing: [] });
    expect(mergedReport.scope?.ran).toEqual(single.scope?.ran);
  });

  it('with several subjects, each shard runs every subject of its files and the merge names each <project>@<label>', () => {
    // the subjects run inside one Vitest project per project: the label travels on the blobs' suite meta
    const env = { CEILINGBENCH_SUBJECTS: 'sim:retention?p=0.9,sim:retention?p=0.8', CEILINGBENCH_TRIALS: '3' };
    const { merged, single } = shardedAndSingle(['--project', 'd1', '--project', 'd2'], env);
    const names = ['d1@sim-retention-p0.8', 'd1@sim-retention-p0.9', 'd2@sim-retention-p0.8', 'd2@sim-retention-p0.9'];
    expect(merged.scope?.ran).toEqual(names);
    expect(merged.projects).toEqual(names);
    expect(merged.cells).toHaveLength(40);
    expect(withoutTimings(merged)).toEqual(withoutTimings(single));
  });
});
