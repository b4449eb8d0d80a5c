import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHILD_SPECS, runCeilingbench, runVitest, type VitestRun } from '../support/run-vitest.js';

/**
 * The exit code is a function of the configured gates and what was measured, never of the route (issue 25):
 * each route — a run, a project filter, a name filter, a file filter, shards merged, a subset of shards merged,
 * compare — × a gate that passes, one that fails, one nothing can evaluate. Few trials on a simulated subject
 * with known retention p = 0.95 (d2's ten cells, three trials each).
 */
const TRUTH = 'sim:retention?p=0.95';
const base = { CEILINGBENCH_SUBJECT: TRUTH, CEILINGBENCH_TRIALS: '3' };
const gate = (project: string, minRetention: number) => JSON.stringify({ [project]: { minRetention } });
const PASS = gate('d2', 0.5);
const FAIL = gate('d2', 0.999);

/** The file filter route: d2's spec file by its path. */
const D2_SPEC = `${CHILD_SPECS}/d2/retention`;

const reportOf = (run: VitestRun) => join(run.outDir, 'ceilingbench.json');
const said = (run: VitestRun) => `${run.stdout}\n${run.stderr}`;

describe('verdicts: the exit code never depends on the route', () => {
  const runs = new Map<string, VitestRun>();
  const once = (name: string, args: string[], env: Record<string, string>) => {
    const run = runs.get(name) ?? runVitest(args, { ...base, ...env });
    runs.set(name, run);
    return run;
  };

  it('a run: passes on a passing gate, fails on a failing one and on a fit that counted no trial', () => {
    const previous = mkdtempSync(join(tmpdir(), 'cb-verdict-out-'));
    // a previous run's set (written before sets had a manifest: its ceilingbench.json says it is ceilingbench's)
    writeFileSync(join(previous, 'ceilingbench.json'), '{"tool":{"name":"ceilingbench","version":"0.0.1"}}');
    writeFileSync(join(previous, 'index.html'), '<p>the previous run</p>');
    writeFileSync(join(previous, 'charts.vl.json'), '{}');
    const pass = once('run-pass', ['--project', 'd2'], { CEILINGBENCH_GATES: PASS, CEILINGBENCH_OUT: previous });
    expect(pass.status, said(pass)).toBe(0);
    // CEILINGBENCH_HTML=false (every child's, CHILD_DEFAULT_ENV): the report set without its page, and the page of
    // the run before is gone, not left beside this run's reports
    expect(readdirSync(pass.outDir).sort()).toEqual([
      'ceilingbench.json',
      'ceilingbench.schema.json',
      'ceilingbench.set.json',
      'junit.xml',
      'summary.md',
    ]);
    const fail = once('run-fail', ['--project', 'd2'], { CEILINGBENCH_GATES: FAIL });
    expect(fail.status).toBe(1);
    // the fit test fails with the gate line itself, counted once in junit.xml
    // it names the gate, the estimate and its CI (was a second 40-trial run in ccb-projects.test.ts)
    expect(said(fail)).toMatch(
      /ceilingbench: gate d2\.minRetention FAILED \(hard\): d2 p_d = \d\.\d{3} \[\d\.\d{3}, \d\.\d{3}\] \(95% CI\)/,
    );
    expect(fail.report().summary.hardGatesFailed).toBe(1);
    expect(said(fail)).not.toMatch(/to be ''|Object\.is equality/);
    expect(fail.junit().match(/<failure message="gate d2\.minRetention FAILED/g)).toHaveLength(1);
    // every answer cut off: no trial counts toward p_d; the fit is insufficient and says so, never a p_d
    const none = once('run-none', ['--project', 'd2'], {
      CEILINGBENCH_SUBJECT: `${TRUTH}&trunc=1`,
      CEILINGBENCH_GATES: '{}',
    });
    expect(none.status, said(none)).toBe(1);
    expect(said(none)).toMatch(/d2 p_d fit: insufficient data — no counted trials: 0 of 30 trials/);
    expect(none.report().fits[0]?.status).toBe('insufficient');
  });

  it('a project filter: a gate of a project left out is not evaluated and fails; the report says what did not run', () => {
    const other = once('project-other', ['--project', 'd1'], { CEILINGBENCH_GATES: PASS });
    expect(other.status, said(other)).toBe(1);
    expect(said(other)).toMatch(
      /gate d2\.minRetention FAILED \(hard\): not evaluated — project 'd2' did not run \(this run's filters: --project d1\)/,
    );
    expect(other.report().scope).toMatchObject({ ran: ['d1'], filters: '--project d1' });
    expect(other.report().scope?.notRun).toContain('d2');
  });

  it('a name filter that skips the fit: the gate is not evaluated, the run fails and still writes its report', () => {
    const skipped = once('name-filter', ['--project', 'd2', '-t', 'N=5$'], { CEILINGBENCH_GATES: PASS });
    expect(skipped.status, said(skipped)).toBe(1);
    expect(said(skipped)).toMatch(
      /gate d2\.minRetention FAILED \(hard\): not evaluated — no finished record in project 'd2'/,
    );
    expect(skipped.report().scope?.filters).toMatch(/-t N=5\$/);
  });

  it('a file filter: passes and fails with the gate; a gate of a project the filter left out fails', () => {
    const pass = once('file-pass', [D2_SPEC], { CEILINGBENCH_GATES: PASS });
    expect(pass.status, said(pass)).toBe(0);
    const fail = once('file-fail', [D2_SPEC], { CEILINGBENCH_GATES: FAIL });
    expect(fail.status).toBe(1);
    const other = once('file-other', [D2_SPEC], { CEILINGBENCH_GATES: gate('d1', 0.5) });
    expect(other.status, said(other)).toBe(1);
    expect(said(other)).toMatch(/gate d1\.minRetention FAILED \(hard\): not evaluated — project 'd1' did not run/);
  });

  it('shards merged: all shards pass or fail with the gate; a merge that lacks a shard names it and fails', () => {
    const shardRun = (gates: string) => {
      const blobs = mkdtempSync(join(tmpdir(), 'cb-verdict-blobs-'));
      for (const shard of ['1/2', '2/2']) {
        const run = runVitest(
          [
            '--project',
            'd1',
            '--project',
            'd2',
            `--shard=${shard}`,
            '--reporter=blob',
            `--outputFile=${join(blobs, `blob-${shard[0]}.json`)}`,
          ],
          { ...base, CEILINGBENCH_GATES: gates },
        );
        expect([0, 1], said(run)).toContain(run.status);
      }
      return blobs;
    };
    const passing = shardRun(PASS);
    const merged = runVitest([`--merge-reports=${passing}`], { ...base, CEILINGBENCH_GATES: PASS });
    expect(merged.status, said(merged)).toBe(0);
    expect(merged.report().scope?.shards).toEqual({ count: 2, merged: [1, 2], missing: [] });
    const failing = shardRun(FAIL);
    const mergedFail = runVitest([`--merge-reports=${failing}`], { ...base, CEILINGBENCH_GATES: FAIL });
    expect(mergedFail.status).toBe(1);
    // one shard's blob lost: the merge names the missing shard and fails, whatever the gates say
    const blob = readdirSync(passing).find((f) => f.includes('blob-2')) as string;
    rmSync(join(passing, blob));
    const subset = runVitest([`--merge-reports=${passing}`], { ...base, CEILINGBENCH_GATES: '{}' });
    expect(subset.status, said(subset)).not.toBe(0);
    expect(said(subset)).toMatch(/merged 1 of 2 shards: shard 2\/2 missing/);
    expect(subset.report().scope?.shards?.missing).toEqual([2]);
  });

  it('a gate key that names no project is a configuration error before anything runs', () => {
    const typo = runVitest(['--project', 'd2'], { ...base, CEILINGBENCH_GATES: gate('D2', 0.5) });
    expect(typo.status).not.toBe(0);
    expect(said(typo)).toMatch(/gates: 'D2' names no project of this configuration .* did you mean 'd2'\?/);
    const cli = runCeilingbench(['run', '--project', 'd2', '--trials', '2'], {
      ...base,
      CEILINGBENCH_GATES: gate('D2', 0.5),
    });
    expect(cli.status, cli.stderr).toBe(2);
  });

  it('compare: identical runs pass, a worse run fails, a candidate that did not run the baseline fails', () => {
    const baseline = reportOf(once('run-pass', ['--project', 'd2'], { CEILINGBENCH_GATES: PASS }));
    const same = reportOf(once('file-pass', [D2_SPEC], { CEILINGBENCH_GATES: PASS }));
    expect(runCeilingbench(['compare', baseline, same]).status).toBe(0);
    const worse = runVitest(['--project', 'd2'], {
      ...base,
      CEILINGBENCH_SUBJECT: 'sim:retention?p=0.8',
      CEILINGBENCH_TRIALS: '10',
    });
    const regression = runCeilingbench(['compare', baseline, reportOf(worse)]);
    expect(regression.status, regression.stdout).toBe(1);
    const d1Only = reportOf(once('project-other', ['--project', 'd1'], { CEILINGBENCH_GATES: PASS }));
    const absent = runCeilingbench(['compare', baseline, d1Only]);
    expect(absent.status, absent.stdout).toBe(1);
    expect(absent.stdout).toMatch(/absent/);
    // reading the JSON back: the fit is among the not compared with its reason
    const json = JSON.parse(runCeilingbench(['compare', baseline, d1Only, '--json']).stdout);
    expect(
      json.notCompared.some((n: { kind: string; project: string }) => n.kind === 'absent' && n.project === 'd2'),
    ).toBe(true);
    expect(readFileSync(baseline, 'utf8').length).toBeGreaterThan(0);
  });
});
