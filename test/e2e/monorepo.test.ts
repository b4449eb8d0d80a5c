import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Report, reportSchema } from '../../src/schema/report.js';
import { CHILD_DEFAULT_ENV, ROOT } from '../support/run-vitest.js';

/**
 * A workspace whose package `packages/bench` holds the plugin and its own ceilingbench.config.ts, run from the
 * workspace root with Vite's default config loader. The workspace imports the plugin by the package's name, as a
 * user does: its node_modules/ceilingbench links to this checkout, which resolves to dist/ (built from the current
 * sources by the unit project's global setup). Its configuration files are plain objects (`defineConfig` is the
 * identity), and its spec imports only `vitest`, which Vitest resolves itself.
 */
const PLUGIN = 'ceilingbench/plugin';

const write = (path: string, text: string) => {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
};

function workspace(): string {
  const root = mkdtempSync(join(tmpdir(), 'cb-monorepo-'));
  write(join(root, 'package.json'), '{ "private": true, "type": "module", "workspaces": ["packages/*"] }\n');
  write(join(root, 'packages/bench/package.json'), '{ "name": "bench", "private": true, "type": "module" }\n');
  mkdirSync(join(root, 'node_modules'));
  symlinkSync(ROOT, join(root, 'node_modules/ceilingbench'), 'dir');
  write(
    join(root, 'packages/bench/vitest.config.ts'),
    `import { ceilingbench } from '${PLUGIN}';\nexport default { plugins: [ceilingbench({ projects: ['d2'] })] };\n`,
  );
  write(
    join(root, 'packages/bench/benchmarks/smoke.spec.ts'),
    "import { expect, test } from 'vitest';\ntest('smoke', () => expect(1 + 1).toBe(2));\n",
  );
  return root;
}

/** The root configuration: `projects: ['packages/*']`, with or without the root-level registration. */
function rootConfig(root: string, registered: boolean): void {
  const text = registered
    ? `import { ceilingbenchWorkspace } from '${PLUGIN}';\n` +
      "export default { plugins: [ceilingbenchWorkspace('packages/bench')], test: { projects: ['packages/*'] } };\n"
    : "export default { test: { projects: ['packages/*'] } };\n";
  write(join(root, 'vitest.config.ts'), text);
}

function gate(root: string, minRetention: number): void {
  write(
    join(root, 'packages/bench/ceilingbench.config.ts'),
    `export default { gates: { d2: { minRetention: ${minRetention} } } };\n`,
  );
  rmSync(join(root, 'packages/bench/reports'), { recursive: true, force: true });
}

interface Run {
  status: number | null;
  output: string;
  report: () => Report;
  junit: () => string;
}

/** `vitest run` from the workspace root, with no CEILINGBENCH_* of ours but the subject and the trials. */
function vitestRun(root: string, args: string[]): Run {
  const env: Record<string, string | undefined> = { ...process.env };
  for (const key of Object.keys(env)) if (key.startsWith('CEILINGBENCH_')) delete env[key];
  const result = spawnSync(process.execPath, [join(ROOT, 'node_modules/vitest/vitest.mjs'), 'run', ...args], {
    cwd: root,
    env: {
      ...env,
      CI: 'true',
      CEILINGBENCH_SUBJECT: 'sim:retention?p=0.9',
      CEILINGBENCH_TRIALS: '3',
      ...CHILD_DEFAULT_ENV,
      VITEST: undefined,
      VITEST_WORKER_ID: undefined,
      VITEST_POOL_ID: undefined,
      NODE_ENV: undefined,
      TEST: undefined,
    },
    encoding: 'utf8',
    timeout: 120_000,
  });
  const reports = join(root, 'packages/bench/reports');
  return {
    status: result.status,
    output: result.stdout + result.stderr,
    report: () => reportSchema.parse(JSON.parse(readFileSync(join(reports, 'ceilingbench.json'), 'utf8'))),
    junit: () => readFileSync(join(reports, 'junit.xml'), 'utf8'),
  };
}

const GATE_FAILED = /gate d2\.minRetention FAILED \(hard\): d2 p_d = 0\.\d{3}/;

describe('a package of a workspace, run from the workspace root', () => {
  let root = '';
  beforeAll(() => {
    root = workspace();
  });

  it('--project d2 with the root-level registration applies the package gate: above the truth, exit 1', () => {
    rootConfig(root, true);
    gate(root, 0.99);
    const run = vitestRun(root, ['--project', 'd2']);
    expect(run.status, run.output).not.toBe(0);
    expect(run.output).toMatch(GATE_FAILED);
    const report = run.report();
    expect(report.projects).toEqual(['d2']);
    expect(report.summary.hardGatesFailed).toBe(1);
    expect(report.gates).toEqual([expect.objectContaining({ project: 'd2', gate: 'minRetention', passed: false })]);
    // the package's reports/, never the workspace root's
    expect(existsSync(join(root, 'reports'))).toBe(false);
  });

  it('--project d2 with a gate below the truth passes', () => {
    rootConfig(root, true);
    gate(root, 0.5);
    const run = vitestRun(root, ['--project', 'd2']);
    expect(run.status, run.output).toBe(0);
    expect(run.report().gates).toEqual([expect.objectContaining({ project: 'd2', passed: true })]);
  });

  it('a plain `vitest run` needs no registration: the package adds its projects, its gate fails the run', () => {
    rootConfig(root, false);
    gate(root, 0.99);
    const run = vitestRun(root, []);
    expect(run.status, run.output).not.toBe(0);
    expect(run.output).toMatch(GATE_FAILED);
    const report = run.report();
    expect(report.summary.hardGatesFailed).toBe(1);
    expect(report.projects).toEqual(expect.arrayContaining(['d2', 'benchmarks']));
    // the package's spec folder runs once, as its benchmark project, not again as a test of the package's project
    const smoke = [...run.junit().matchAll(/<testcase classname="([^"]*)" name="smoke"/g)].map((m) => m[1]);
    expect(smoke).toEqual(['benchmarks.test']);
  });

  it('with the registration, a plain `vitest run` runs each benchmark project once, gated, one report set', () => {
    // Vitest 5 also runs the package's configuration as a container of the same projects (`bench (d2)`): they ran
    // twice, the copies ungated, and a stray reports/ at the root said "not run" (issue 41)
    rootConfig(root, true);
    gate(root, 0.99);
    rmSync(join(root, 'reports'), { recursive: true, force: true });
    const run = vitestRun(root, []);
    expect(run.status, run.output).not.toBe(0);
    expect(run.output).toMatch(GATE_FAILED);
    const report = run.report();
    expect(report.fits.map((f) => f.project)).toEqual(['d2']);
    expect(report.cells).toHaveLength(10);
    expect(report.gates.filter((g) => !g.passed)).toHaveLength(1);
    expect(existsSync(join(root, 'reports'))).toBe(false);
  });

  it('without the registration, --project d2 finds nothing: Vitest drops the package before its plugin runs', () => {
    rootConfig(root, false);
    const run = vitestRun(root, ['--project', 'd2']);
    expect(run.status).not.toBe(0);
    // Vitest 4.1's words, then Vitest 5's
    expect(run.output).toMatch(/No projects matched the filter "d2"|The filter matched no projects: d2/);
  });
});
