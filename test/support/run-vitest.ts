import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { vi } from 'vitest';
import { type Report, reportSchema } from '../../src/schema/report.js';
import { CLI_BIN } from './cli-bin.js';

export const ROOT = resolve(new URL('../..', import.meta.url).pathname);

export interface VitestRun {
  status: number | null;
  stdout: string;
  stderr: string;
  outDir: string;
  report: () => Report;
  junit: () => string;
}

/**
 * The configuration a child runs when the test names none: a small one on dist/ (no TypeScript graph to bundle or
 * transform, the transforms cached across children), which the unit project's global setup has built from the
 * current sources (test/support/build-dist.ts).
 */
export const CHILD_CONFIG = ['--config', 'test/support/vitest.child.config.mjs', '--configLoader', 'bundle'];
/**
 * What every child run gets unless its test says otherwise: no HTML page (`CEILINGBENCH_HTML: 'true'` asks for
 * one). Drawing the page's charts loads Vega, about half a second of CPU a run, and most end-to-end checks read
 * the JSON, the JUnit or the exit code; the page itself is checked by the task families' end-to-end tests, the
 * runs whose files are searched for a key, the HTML report's own tests and the consumer smoke test.
 */
export const CHILD_DEFAULT_ENV: Readonly<Record<string, string>> = { CEILINGBENCH_HTML: 'false' };
/** Where a child's standard benchmark projects read their spec files (for a file filter: `${CHILD_SPECS}/d2/…`). */
export const CHILD_SPECS = 'dist/specs';

/**
 * A child's environment: the parent's (`base`), CI, our child defaults, then `env`; without the variables that
 * would tell the child it runs inside a Vitest worker.
 */
export const childEnv = (
  base: Record<string, string | undefined>,
  env: Record<string, string>,
): Record<string, string | undefined> => ({
  ...base,
  CI: 'true',
  ...CHILD_DEFAULT_ENV,
  ...env,
  VITEST: undefined,
  VITEST_WORKER_ID: undefined,
  VITEST_POOL_ID: undefined,
  NODE_ENV: undefined,
  TEST: undefined,
});

/**
 * Runs `vitest run <args>` in a child process (the way CI and users run it), with CEILINGBENCH_*
 * variables, writing reports into a fresh temporary directory. No network: sim/oracle subjects only.
 */
export function runVitest(args: string[], env: Record<string, string>): VitestRun {
  const outDir = env.CEILINGBENCH_OUT ?? mkdtempSync(join(tmpdir(), 'cb-e2e-'));
  const result = spawnSync(
    process.execPath,
    [join(ROOT, 'node_modules/vitest/vitest.mjs'), 'run', ...(args.includes('--config') ? [] : CHILD_CONFIG), ...args],
    {
      cwd: ROOT,
      env: childEnv(process.env, { CEILINGBENCH_OUT: outDir, ...env }),
      encoding: 'utf8',
      timeout: 300_000,
    },
  );
  return {
    status: result.status,
    stdout: result.stdout,
    stderr: result.stderr,
    outDir,
    report: () => reportSchema.parse(JSON.parse(readFileSync(join(outDir, 'ceilingbench.json'), 'utf8'))),
    junit: () => readFileSync(join(outDir, 'junit.xml'), 'utf8'),
  };
}

export interface CliRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the `ceilingbench` command in a child process, as a user would (on the current sources: see CLI_BIN). */
export function runCeilingbench(args: string[], env: Record<string, string> = {}): CliRun {
  const result = spawnSync(process.execPath, [CLI_BIN, ...args], {
    cwd: ROOT,
    env: childEnv(process.env, env),
    encoding: 'utf8',
    timeout: 300_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/**
 * The `ceilingbench` command run in this process (runCli, the program the binary runs; paths absolute), under
 * the variables a child gets over this process's (CI, our child defaults, then `env`). For the commands that only
 * read report files and write their own (`compare`, `report`): a child spends about a CPU second loading modules
 * before milliseconds of work. Never for `run`, which starts Vitest. The same commands as a child process stay
 * covered where the command's route is the point (test/e2e/run-compare.test.ts: compare, baseline).
 */
export async function runCeilingbenchHere(args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  if (args[0] === 'run') throw new Error('runCeilingbenchHere: `run` starts Vitest; use runCeilingbench');
  const { runCli } = await import('../../src/cli/program.js');
  for (const [key, value] of Object.entries({ CI: 'true', ...CHILD_DEFAULT_ENV, ...env })) vi.stubEnv(key, value);
  const stdout: string[] = [];
  const stderr: string[] = [];
  try {
    const status = await runCli(args, { stdout: (t) => stdout.push(t), stderr: (t) => stderr.push(t) });
    return { status, stdout: stdout.join(''), stderr: stderr.join('') };
  } finally {
    vi.unstubAllEnvs();
  }
}
