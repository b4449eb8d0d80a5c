import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { consumerRepo, vitestIn, writeFiles } from '../support/consumer-repo.js';
import { CHILD_SPECS, runCeilingbench, runCeilingbenchHere, runVitest, type VitestRun } from '../support/run-vitest.js';

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

/** A copy of the repository's last ceilingbench.json, kept apart from the next run's (for compare). */
function keep(repo: string, name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `cb-verdict-${name}-`));
  cpSync(join(repo, 'reports/ceilingbench.json'), join(dir, 'ceilingbench.json'));
  return join(dir, 'ceilingbench.json');
}

/** d1 and d2 in two blob shards under the given gates; the folder of their blobs. */
function shardRun(gates: string): string {
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
}

/**
 * The passing shards' blobs and their merge under the passing gate, run once for the two tests that read them
 * (the merge that fails without a shard copies the blobs it keeps; nothing changes the folder).
 */
let passingBlobs: string | undefined;
const passingShards = (): string => {
  passingBlobs ??= shardRun(PASS);
  return passingBlobs;
};
let passingMerge: VitestRun | undefined;
const mergedPassing = (): VitestRun => {
  passingMerge ??= runVitest([`--merge-reports=${passingShards()}`], { ...base, CEILINGBENCH_GATES: PASS });
  return passingMerge;
};

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
    const passing = passingShards();
    const merged = mergedPassing();
    expect(merged.status, said(merged)).toBe(0);
    expect(merged.report().scope?.shards).toEqual({ count: 2, merged: [1, 2], missing: [] });
    const failing = shardRun(FAIL);
    const mergedFail = runVitest([`--merge-reports=${failing}`], { ...base, CEILINGBENCH_GATES: FAIL });
    expect(mergedFail.status).toBe(1);
    // one shard's blob lost: the merge names the missing shard and fails, whatever the gates say
    const partial = mkdtempSync(join(tmpdir(), 'cb-verdict-blobs-'));
    const blob = readdirSync(passing).find((f) => f.includes('blob-1')) as string;
    cpSync(join(passing, blob), join(partial, blob));
    const subset = runVitest([`--merge-reports=${partial}`], { ...base, CEILINGBENCH_GATES: '{}' });
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

  it('compare: identical runs pass, a worse run fails, a candidate that did not run the baseline fails', async () => {
    const baseline = reportOf(once('run-pass', ['--project', 'd2'], { CEILINGBENCH_GATES: PASS }));
    const same = reportOf(once('file-pass', [D2_SPEC], { CEILINGBENCH_GATES: PASS }));
    expect((await runCeilingbenchHere(['compare', baseline, same])).status).toBe(0);
    const worse = runVitest(['--project', 'd2'], {
      ...base,
      CEILINGBENCH_SUBJECT: 'sim:retention?p=0.8',
      CEILINGBENCH_TRIALS: '10',
    });
    const regression = await runCeilingbenchHere(['compare', baseline, reportOf(worse)]);
    expect(regression.status, regression.stdout).toBe(1);
    const d1Only = reportOf(once('project-other', ['--project', 'd1'], { CEILINGBENCH_GATES: PASS }));
    const absent = await runCeilingbenchHere(['compare', baseline, d1Only]);
    expect(absent.status, absent.stdout).toBe(1);
    expect(absent.stdout).toMatch(/absent/);
    // reading the JSON back: the fit is among the not compared with its reason
    const json = JSON.parse((await runCeilingbenchHere(['compare', baseline, d1Only, '--json'])).stdout);
    expect(
      json.notCompared.some((n: { kind: string; project: string }) => n.kind === 'absent' && n.project === 'd2'),
    ).toBe(true);
    expect(readFileSync(baseline, 'utf8').length).toBeGreaterThan(0);
  });
});

/**
 * Issue 41: the routes that still gave a wrong verdict, each × {pass, fail, unevaluable}. A user's repository whose
 * `benchmarks/` holds a d2 sweep (registers) and a d3 sweep (social), gated as one project: a filter that drops one
 * sweep leaves a needed record missing, and the run fails naming it (src/gates/manifest.ts, decide.ts). Vitest 4.1
 * here; the same file runs in CI's Vitest 5 lane.
 */
describe('verdicts rest on the evidence the configuration demands (the manifest)', () => {
  const SPECS = {
    'vitest.config.mjs':
      "import { ceilingbench } from 'ceilingbench/plugin';\nexport default { plugins: [ceilingbench({ projects: ['d2', 'puzzles'] })] };\n",
    'benchmarks/registers.spec.mjs': "import { describeSweep } from 'ceilingbench/vitest';\ndescribeSweep('d2');\n",
    'benchmarks/social.spec.mjs': "import { describeSweep } from 'ceilingbench/vitest';\ndescribeSweep('d3');\n",
  };
  const userGate = (minRetention: number) => JSON.stringify({ benchmarks: { minRetention } });
  let repo = '';
  const run = (args: string[], gates: string, env: Record<string, string> = {}) =>
    vitestIn(repo, args, { ...base, CEILINGBENCH_GATES: gates, ...env });
  beforeAll(() => {
    repo = consumerRepo(SPECS);
  });

  it('the user folder: the full run passes and fails with the gate; the manifest names every needed record', async () => {
    const pass = run(['run', '--project', 'benchmarks'], userGate(0.5));
    expect(pass.status, pass.output).toBe(0);
    const needs = pass.report()?.manifest?.requirements ?? [];
    expect(needs.map((n) => [n.project, n.task, n.file, n.got])).toEqual([
      ['benchmarks', 'd2', 'benchmarks/registers.spec.mjs', 'passed'],
      ['benchmarks', 'd3', 'benchmarks/social.spec.mjs', 'passed'],
    ]);
    // compare: two identical full runs still pass (the candidate's own gates passed; every record compared)
    const full = keep(repo, 'full');
    const same = await runCeilingbenchHere(['compare', full, full]);
    expect(same.status, same.stdout).toBe(0);
    expect(same.stdout).toMatch(/the candidate's own gates: \d+, no hard gate failed or went unchecked/);
    const fail = run(['run', '--project', 'benchmarks'], userGate(0.999));
    expect(fail.status).toBe(1);
    expect(fail.output).toMatch(/gate benchmarks\.minRetention FAILED \(hard\): d3 p_d = /);
  });

  it("-t '^d2' skips the d3 fit: not evaluated, naming the filter; exit 1 although d2 passes", async () => {
    const r = run(['run', '--project', 'benchmarks', '-t', '^d2'], userGate(0.5));
    expect(r.status, r.output).toBe(1);
    expect(r.output).toMatch(
      /gate benchmarks\.minRetention FAILED \(hard\): not evaluated — no finished record in project 'benchmarks' for d3 retention fit .*was skipped \(the test name filter -t \^d2\)/,
    );
    // compare decides through the same verdict: the filtered run against itself compares every record it holds
    // and none regressed, yet its manifest lacks the d3 fit: not evaluated, exit 1 (exit 0 before: no regression)
    const filtered = keep(repo, 'filtered');
    const c = await runCeilingbenchHere(['compare', filtered, filtered]);
    expect(c.status, c.stdout).toBe(1);
    expect(c.stdout).toMatch(
      /the candidate's own gates: 1 hard gate\(s\) failed or not evaluated[^\n]*\n- \[sim:retention\?p=0\.95\] gate benchmarks\.minRetention FAILED \(hard\): not evaluated — .*d3 retention fit/,
    );
    expect(c.stdout).toMatch(/\nFAIL: 1 hard gate\(s\) of the candidate failed\n$/);
  });

  it('a file filter (`vitest run --project benchmarks registers`) leaves social.spec uncollected: exit 1', () => {
    const r = run(['run', '--project', 'benchmarks', 'registers'], userGate(0.5));
    expect(r.status, r.output).toBe(1);
    expect(r.output).toMatch(
      /spec file benchmarks\/social\.spec\.mjs was not collected \(this run's filters: .*files registers\)/,
    );
  });

  it('describe.skip around the d3 sweep: not evaluated, exit 1', () => {
    const skipped = consumerRepo({
      ...SPECS,
      'benchmarks/social.spec.mjs':
        "import { describe } from 'vitest';\nimport { describeSweep } from 'ceilingbench/vitest';\ndescribe.skip('social', () => describeSweep('d3'));\n",
    });
    const r = vitestIn(skipped, ['run', '--project', 'benchmarks'], { ...base, CEILINGBENCH_GATES: userGate(0.5) });
    expect(r.status, r.output).toBe(1);
    expect(r.output).toMatch(
      /d3 retention fit .*was skipped \(describe\.skip, test\.skip, \.only or \.todo in its spec file\)/,
    );
  });

  it('a standard project filtered to one family (`--project puzzles -t sudoku`, `vitest run sudoku`) fails on the rest', () => {
    const gates = JSON.stringify({ puzzles: { collapseNoEarlierThan: 1 } });
    for (const args of [
      ['run', '--project', 'puzzles', '-t', 'sudoku'],
      ['run', '--project', 'puzzles', 'sudoku'],
    ]) {
      const r = run(args, gates);
      expect(r.status, r.output).toBe(1);
      expect(r.output).toMatch(
        /gate puzzles\.collapseNoEarlierThan FAILED \(hard\): not evaluated — .*hanoi collapse fit/,
      );
      expect(r.report()?.gates.some((g) => g.gate === 'collapseNoEarlierThan' && g.task === 'sudoku' && g.passed)).toBe(
        true,
      );
    }
  });

  it('--reporter on the command line adds to the verdict, never removes it: dot and junit still fail, write the set', () => {
    const failDot = run(['run', '--project', 'd2', '--reporter=dot'], FAIL);
    expect(failDot.status, failDot.output).toBe(1);
    expect(failDot.output).toMatch(/gate d2\.minRetention FAILED/);
    const junit = join(repo, 'junit-out.xml');
    const passJunit = run(['run', '--project', 'd2', '--reporter=junit', `--outputFile=${junit}`], PASS);
    expect(passJunit.status, passJunit.output).toBe(0);
    expect(passJunit.report()?.gates).toEqual([expect.objectContaining({ project: 'd2', passed: true })]);
    const unevaluable = run(['run', '--project', 'd2', '--reporter=github-actions', '-t', 'N=5$'], PASS);
    expect(unevaluable.status, unevaluable.output).toBe(1);
  });

  it('a merge refuses blobs measured on another subject or gated on other evidence than it is configured with', () => {
    const blobs = passingShards();
    const same = mergedPassing();
    expect(same.status, said(same)).toBe(0);
    const otherSubject = runVitest([`--merge-reports=${blobs}`], {
      ...base,
      CEILINGBENCH_SUBJECT: 'sim:retention?p=0.8',
      CEILINGBENCH_GATES: PASS,
    });
    expect(otherSubject.status, said(otherSubject)).toBe(1);
    expect(said(otherSubject)).toMatch(
      /was measured by subject 'sim:retention\?p=0\.95', not the configured 'sim:retention\?p=0\.8'/,
    );
    const lower = JSON.stringify({ d2: { minRetention: { value: 0.5, mode: 'hard', evidence: 'lower' } } });
    const otherEvidence = runVitest([`--merge-reports=${blobs}`], { ...base, CEILINGBENCH_GATES: lower });
    expect(otherEvidence.status, said(otherEvidence)).toBe(1);
    expect(said(otherEvidence)).toMatch(/evaluated on the point estimate, not the configured CI lower bound/);
  });

  it('--retry does not re-measure: the failing fit is measured once, and the run says the retry was refused', () => {
    const r = run(['run', '--project', 'd2', '--retry=2', '--reporter=verbose'], FAIL);
    expect(r.status, r.output).toBe(1);
    expect(r.output).toMatch(/retry 2 refused for the measuring tests/);
    expect(r.output).toMatch(/d2 · fit N=5…50/);
    // Vitest marks a retried test `(retry xN)`: none of the measuring tests is
    expect(r.output).not.toMatch(/\(retry x\d+\)/);
    // the refusal is the report's too, not only the console's: ceilingbench.json's scope, summary.md's Scope line
    expect(r.report()?.scope?.retryRefused).toBe(2);
    expect(readFileSync(join(repo, 'reports/summary.md'), 'utf8')).toMatch(
      /^Scope: ran d2 · .*retry 2 refused by the measuring tests \(cells, fits, adaptive designs, SCC assays\): each measured once, its failure stands/m,
    );
  });

  it('every config file form is read (.cjs, .cts), two at once is a configuration error naming both', () => {
    const withConfig = (files: Record<string, string>) =>
      vitestIn(
        consumerRepo({ 'vitest.config.mjs': SPECS['vitest.config.mjs'], ...files }),
        ['run', '--project', 'd2'],
        base,
      );
    const cjs = withConfig({
      'ceilingbench.config.cjs': 'module.exports = { gates: { d2: { minRetention: 0.999 } } };\n',
    });
    expect(cjs.status, cjs.output).toBe(1);
    expect(cjs.output).toMatch(/gate d2\.minRetention FAILED/);
    const cts = withConfig({
      'ceilingbench.config.cts': 'export default { gates: { d2: { minRetention: 0.999 } } };\n',
    });
    expect(cts.status, cts.output).toBe(1);
    expect(cts.output).toMatch(/gate d2\.minRetention FAILED/);
    const two = withConfig({
      'ceilingbench.config.ts': 'export default {};\n',
      'ceilingbench.config.mts': 'export default { gates: { d2: { minRetention: 0.999 } } };\n',
    });
    expect(two.status, two.output).not.toBe(0);
    expect(two.output).toMatch(/ceilingbench\.config\.ts and ceilingbench\.config\.mts are both in/);
  });

  it('`ceilingbench report a.json b.json` exits 1 when a hard gate of the merged set failed, naming its subject', async () => {
    const gates = gate('d2', 0.9);
    const good = runVitest(['--project', 'd2'], { ...base, CEILINGBENCH_GATES: gates });
    const bad = runVitest(['--project', 'd2'], {
      ...base,
      CEILINGBENCH_SUBJECT: 'sim:retention?p=0.8',
      CEILINGBENCH_GATES: gates,
    });
    expect([good.status, bad.status]).toEqual([0, 1]);
    const out = mkdtempSync(join(tmpdir(), 'cb-verdict-merged-'));
    const merged = await runCeilingbenchHere(['report', reportOf(good), reportOf(bad), '--out', out]);
    expect(merged.status, merged.stdout + merged.stderr).toBe(1);
    expect(merged.stderr).toMatch(/\[sim:retention\?p=0\.8\] gate d2\.minRetention FAILED/);
    expect(readFileSync(join(out, 'summary.md'), 'utf8')).toMatch(
      /d2\.minRetention \(d2\) · sim:retention\?p=0\.8 \| hard \| \*\*FAIL\*\*/,
    );
    const better = runVitest(['--project', 'd2'], {
      ...base,
      CEILINGBENCH_SUBJECT: 'sim:retention?p=0.99',
      CEILINGBENCH_GATES: gates,
    });
    const passing = await runCeilingbenchHere(['report', reportOf(good), reportOf(better), '--out', out]);
    expect(passing.status, passing.stdout + passing.stderr).toBe(0);
  });

  it('`ceilingbench run --project puzzles -t sudoku` fails on the families it did not run', () => {
    const r = runCeilingbench(['run', '--project', 'puzzles', '-t', 'sudoku', '--trials', '2'], {
      ...base,
      CEILINGBENCH_GATES: JSON.stringify({ puzzles: { collapseNoEarlierThan: 1 } }),
      CEILINGBENCH_OUT: mkdtempSync(join(tmpdir(), 'cb-verdict-cli-')),
    });
    expect(r.status, r.stdout + r.stderr).toBe(1);
    expect(r.stderr).toMatch(/gate puzzles\.collapseNoEarlierThan FAILED \(hard\): not evaluated/);
  });

  it('`ceilingbench run` builds one report set: summary.md is appended to $GITHUB_STEP_SUMMARY once (the Vitest 5 lane built two)', () => {
    const summary = join(mkdtempSync(join(tmpdir(), 'cb-verdict-summary-')), 'step-summary.md');
    const r = runCeilingbench(['run', '--project', 'd2', '--trials', '2'], {
      ...base,
      CEILINGBENCH_GATES: PASS,
      GITHUB_STEP_SUMMARY: summary,
      CEILINGBENCH_OUT: mkdtempSync(join(tmpdir(), 'cb-verdict-cli-')),
    });
    expect(r.status, r.stdout + r.stderr).toBe(0);
    expect(readFileSync(summary, 'utf8').match(/^# ceilingbench results$/gm)).toHaveLength(1);
  });

  it('nothing collected is not a pass: --passWithNoTests on an empty selection, `vitest related` of the config', () => {
    writeFiles(repo, { 'ceilingbench.config.mjs': 'export default { gates: { d2: { minRetention: 0.5 } } };\n' });
    const empty = vitestIn(repo, ['run', '--passWithNoTests', 'no-such-spec'], base);
    expect(empty.status, empty.output).toBe(1);
    expect(empty.output).toMatch(/gate d2\.minRetention FAILED \(hard\): not evaluated — project 'd2' did not run/);
    const related = vitestIn(repo, ['related', 'ceilingbench.config.mjs', '--run'], base);
    expect(related.status, related.output).toBe(1);
    expect(related.output).toMatch(/gate d2\.minRetention FAILED \(hard\): not evaluated/);
    // `vitest run --changed` after a change to the configuration only: no spec file changed, nothing collected
    const git = (...args: string[]) =>
      spawnSync('git', ['-c', 'user.name=ci', '-c', 'user.email=ci@example.com', ...args], { cwd: repo });
    git('init', '-q');
    git('add', '-A');
    git('commit', '-qm', 'consumer');
    writeFiles(repo, { 'ceilingbench.config.mjs': 'export default { gates: { d2: { minRetention: 0.6 } } };\n' });
    const changed = vitestIn(repo, ['run', '--changed'], base);
    expect(changed.status, changed.output).toBe(1);
    expect(changed.output).toMatch(
      /gate d2\.minRetention FAILED \(hard\): not evaluated — project 'd2' did not run \(this run's filters: --changed\)/,
    );
    // without a hard gate, nothing collected stays Vitest's business
    writeFiles(repo, { 'ceilingbench.config.mjs': 'export default {};\n' });
    expect(vitestIn(repo, ['run', '--passWithNoTests', 'no-such-spec'], base).status).toBe(0);
  });
});
