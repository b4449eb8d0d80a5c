import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../../config';
import { PROJECTS } from '../../config/schema';
import { UsageError } from '../errors';
import type { RegisterCommand } from './index';

const ROOT = resolve(fileURLToPath(new URL('../../..', import.meta.url)));

interface RunFlags {
  project?: string;
  subject?: string;
  seed?: string | number;
  trials?: string | number;
  out?: string;
  shard?: string;
  design?: string;
  targetWidth?: string | number;
}

function parseProjects(value: string | undefined): string[] {
  if (value === undefined || value === 'all') return [...PROJECTS];
  const names = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = names.filter((n) => !(PROJECTS as readonly string[]).includes(n));
  if (unknown.length > 0 || names.length === 0) {
    throw new UsageError(
      `--project: unknown project '${unknown.join(',') || value}'; use a comma list of ${PROJECTS.join(', ')} or 'all'`,
    );
  }
  return names;
}

function integerFlag(name: string, value: string | number | undefined, min: number): string | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) throw new UsageError(`--${name}: '${value}' is not an integer ≥ ${min}`);
  return String(n);
}

/** `ceilingbench run`: drives Vitest programmatically over the benchmark projects and writes the report set. */
export const registerRun: RegisterCommand = (cli, io) => {
  cli
    .command('run', 'Run the benchmark (all projects by default) and write reports')
    .option('--project <list>', `Comma list of ${PROJECTS.join(', ')} or all`, { default: 'all' })
    .option('--subject <spec>', 'sim:<profile>[?k=v], oracle, openai:<model>, replay:<path>[#model]')
    .option('--seed <n>', 'Run seed (0 = the released CCB instances)')
    .option('--trials <n>', 'Trials per cell (default 40)')
    .option('--out <dir>', 'Report directory (default reports/)')
    .option('--shard <i/n>', 'Run shard i of n (split by spec file)')
    .option('--design <grid|adaptive>', "CCB depth design: the papers' grid (default) or adaptive allocation")
    .option('--target-width <w>', 'Adaptive design: stop at this 95% CI width of p_d')
    .action(async (flags: RunFlags) => {
      const projects = parseProjects(flags.project);
      const env: Record<string, string | undefined> = {
        CEILINGBENCH_SUBJECT: flags.subject,
        CEILINGBENCH_SEED: integerFlag('seed', flags.seed, 0),
        CEILINGBENCH_TRIALS: integerFlag('trials', flags.trials, 1),
        CEILINGBENCH_OUT: flags.out ? resolve(flags.out) : undefined,
        CEILINGBENCH_DESIGN: flags.design,
        CEILINGBENCH_TARGET_WIDTH: flags.targetWidth === undefined ? undefined : String(flags.targetWidth),
      };
      if (flags.design !== undefined && flags.design !== 'grid' && flags.design !== 'adaptive') {
        throw new UsageError(`--design: '${flags.design}' is not a design; use grid or adaptive`);
      }
      if (flags.shard !== undefined && !/^\d+\/\d+$/.test(flags.shard)) {
        throw new UsageError(`--shard: '${flags.shard}' is not of the form i/n (e.g. 1/3)`);
      }
      for (const [key, value] of Object.entries(env)) if (value !== undefined) process.env[key] = value;
      // Validate the whole configuration before starting any worker: building the subject (no request is
      // sent) checks the subject string and everything it reads — API key, base URL, cache mode, provider
      // options, replay file — so a setup mistake is exit 2 here, not one failed test per cell.
      try {
        const config = await loadConfig(process.env, ROOT);
        const { createSubject } = await import('../../subjects');
        const subject = await createSubject(config.subject, { seed: config.seed, report: () => undefined });
        await subject.close?.();
      } catch (error) {
        throw new UsageError((error as Error).message);
      }
      const { startVitest } = await import('vitest/node');
      const vitest = await startVitest(
        'test',
        [],
        {
          run: true,
          watch: false,
          root: ROOT,
          project: projects,
          shard: flags.shard,
          passWithNoTests: false,
          reporters: [resolve(ROOT, 'reporters/progress.ts'), resolve(ROOT, 'reporters/index.ts')],
        },
        {},
        { stdout: process.stdout, stderr: process.stderr },
      );
      await vitest.close();
      const code = typeof process.exitCode === 'number' ? process.exitCode : 0;
      io.stdout(code === 0 ? 'ceilingbench: run passed\n' : `ceilingbench: run finished with exit code ${code}\n`);
      return code;
    });
};
