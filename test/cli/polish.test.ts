import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/program.js';
import { matchProjectNames } from '../../src/plan/projects.js';
import { planSchema } from '../../src/schema/plan.js';
import { simReport } from '../report/merge-support.js';

// A user's small stops on the way: a mistyped --project of `plan`, `report` with no argument.

async function cli(argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, { stdout: (t) => out.push(t), stderr: (t) => err.push(t) });
  return { code, out: out.join(''), err: err.join('') };
}

const STANDARD = ['d1', 'd2', 'd3', 'puzzles', 'scc'];

describe('matchProjectNames: --project as Vitest matches it', () => {
  it('a name, a glob, another case, a negation; the part after @ is kept', () => {
    expect(matchProjectNames(['d2'], STANDARD)).toEqual(['d2']);
    expect(matchProjectNames(['d*', 'd2'], STANDARD)).toEqual(['d1', 'd2', 'd3']);
    expect(matchProjectNames(['D2'], STANDARD)).toEqual(['d2']);
    expect(matchProjectNames(['!d*'], STANDARD)).toEqual(['puzzles', 'scc']);
    expect(matchProjectNames(['d2@gpt-*', '*@x'], ['d1', 'd2'])).toEqual(['d2@gpt-*', 'd1@x', 'd2@x']);
  });

  it('a name that matches no project is a usage error naming the projects and the nearest', () => {
    expect(() => matchProjectNames(['d2', 'puzles'], STANDARD)).toThrow(
      "--project: 'puzles' matches no project (projects: d1, d2, d3, puzzles, scc) — did you mean 'puzzles'?",
    );
    expect(() => matchProjectNames(['x*'], STANDARD)).toThrow(/'x\*' matches no project .* name one of them, or 'all'/);
  });
});

describe('ceilingbench plan --project <typo>', () => {
  it('exits 2 naming the projects and the nearest, as run does, instead of planning 0 calls', async () => {
    const root = mkdtempSync(join(tmpdir(), 'cb-polish-plan-'));
    const result = await cli(['plan', '--root', root, '--project', 'd22', '--subject', 'oracle']);
    expect(result.code).toBe(2);
    expect(result.out).toBe('');
    expect(result.err).toMatch(
      /^ceilingbench: --project: 'd22' matches no project \(projects: d1, d2, d3, puzzles, scc\)/,
    );
    expect(result.err).toMatch(/did you mean 'd2'/);
  });

  it('a glob plans the projects it matches; benchmarks/ is a project when it exists', async () => {
    const root = mkdtempSync(join(tmpdir(), 'cb-polish-plan-'));
    mkdirSync(join(root, 'benchmarks'));
    const argv = ['plan', '--root', root, '--subject', 'oracle', '--trials', '1', '--json'];
    const result = await cli([...argv, '--project', 'd*,bench*']);
    expect(result.err).toBe('');
    expect(result.code).toBe(0);
    expect(planSchema.parse(JSON.parse(result.out)).projects.map((p) => p.name)).toEqual([
      'd1',
      'd2',
      'd3',
      'benchmarks',
    ]);
  });

  it('with a vitest.config: its own projects are known, a typo of them is not', async () => {
    const root = mkdtempSync(join(tmpdir(), 'cb-polish-plan-'));
    writeFileSync(
      join(root, 'vitest.config.mjs'),
      "export default { test: { projects: [{ test: { name: 'mine' } }] } };\n",
    );
    const argv = ['plan', '--root', root, '--subject', 'oracle', '--trials', '1'];
    const own = await cli([...argv, '--project', 'mine']);
    expect(own.err).toBe('');
    expect(own.code).toBe(0);
    expect(own.out).toMatch(/^mine\s+not estimated$/m);
    const typo = await cli([...argv, '--project', 'mien']);
    expect(typo.code).toBe(2);
    expect(typo.err).toMatch(
      /'mien' matches no project \(projects: d1, d2, d3, puzzles, scc, mine\) — did you mean 'mine'\?/,
    );
  });

  it('with project folders in the vitest.config, which only Vitest can name, a name is planned as written', async () => {
    const root = mkdtempSync(join(tmpdir(), 'cb-polish-plan-'));
    writeFileSync(join(root, 'vitest.config.mjs'), "export default { test: { projects: ['packages/*'] } };\n");
    const result = await cli(['plan', '--root', root, '--subject', 'oracle', '--trials', '1', '--project', 'pkg-a']);
    expect(result.code).toBe(0);
    expect(result.out).toMatch(/^pkg-a\s+not estimated$/m);
  });
});

describe('ceilingbench report with no argument', () => {
  const cwd = process.cwd();
  afterEach(() => process.chdir(cwd));

  it('reads reports/ceilingbench.json of the current directory', async () => {
    const root = mkdtempSync(join(tmpdir(), 'cb-polish-report-'));
    mkdirSync(join(root, 'reports'));
    const report = await simReport({
      spec: 'sim:retention?p=0.9',
      runSeed: 0,
      tasks: ['d1'],
      trials: 4,
      levels: [5, 10],
    });
    writeFileSync(join(root, 'reports', 'ceilingbench.json'), JSON.stringify(report));
    process.chdir(root);
    const result = await cli(['report']);
    expect(result.err).toBe('');
    expect(result.code).toBe(0);
    expect(result.out).toMatch(/^ceilingbench report: \d+ charts/);
    expect(existsSync(join(root, 'reports', 'index.html'))).toBe(true);
  });

  it('without that file: a usage error saying what to pass', async () => {
    const root = mkdtempSync(join(tmpdir(), 'cb-polish-report-'));
    process.chdir(root);
    const result = await cli(['report']);
    expect(result.code).toBe(2);
    expect(result.err).toMatch(
      /^ceilingbench: no reports\/ceilingbench\.json in .* — pass the ceilingbench\.json a run wrote \(ceilingbench report path\/to\/ceilingbench\.json\)/,
    );
  });
});
