import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Vitest } from 'vitest/node';
import { nearestNames } from '../../config/nearest-names.js';
import { RUN_CONFIG_KEY } from '../../config/resolve.js';
import { EXIT } from '../../errors.js';
import { matchProject } from '../../plan/projects.js';
import type { SpendLedger } from '../../spend/ledger.js';
import { ledgerAt, setInterruptible } from '../../spend/ledger-server.js';
import { VITEST_CONFIG_FILES } from '../../vitest/files.js';
import { PROJECT_PATTERNS_KEY } from '../../vitest/subject-keys.js';
import type { RegisterCommand } from '../command.js';
import { configLoaderFor } from '../config-loader.js';
import { UsageError } from '../errors.js';
import { type RunEnvFlags, runFlagsEnv } from '../run-flags.js';
import { closeVitest, signalListenersAddedBy, stopOnSignals, workersLeaveStopSignalsToMain } from '../run-interrupt.js';
import { selectedProjectsOnly } from '../selected-projects.js';
import { standardProjectList } from '../task-help.js';
import { printPlan } from './plan.js';
import { COMMAND_HELP } from './table.js';

interface RunFlags extends RunEnvFlags {
  root?: string;
  /** A comma list; repeated flags give several (cac: an array). */
  project?: string | string[];
  out?: string;
  shard?: string;
  /** Vitest's test name filter (`-t`); cac reads `-t 5` as a number. */
  testNamePattern?: string | number;
  dryRun?: boolean;
}

const PLUGIN_HINT = "the benchmark projects come from `ceilingbench()` of 'ceilingbench/plugin' in vitest.config.ts";

/** Vite 8.4+ announces that the `runner` config loader is deprecated (it stays within vitest 4's Vite range). */
const RUNNER_DEPRECATION = /`runner` config loader is deprecated/;

/** Runs `start` with that one notice dropped from console.warn (Vite's logger writes through it). */
async function withoutRunnerNotice<T>(start: () => Promise<T>): Promise<T> {
  const warn = console.warn;
  console.warn = (...args: unknown[]) => {
    if (typeof args[0] === 'string' && RUNNER_DEPRECATION.test(args[0])) return;
    warn(...args);
  };
  try {
    return await start();
  } finally {
    console.warn = warn;
  }
}

function parseProjects(value: string | string[] | undefined): string[] | undefined {
  if (value === undefined || value === 'all') return undefined;
  const names = [value]
    .flat()
    .flatMap((v) => String(v).split(','))
    .map((s) => s.trim())
    .filter(Boolean);
  if (names.length === 0) throw new UsageError(`--project: '${value}' names no project; use a comma list or 'all'`);
  return names;
}

/**
 * The patterns Vitest filters its projects by: several subjects run inside one project (`d2`), so `d2@gpt-4o`
 * selects project `d2` (its base) and, provided as typed, the subject (src/vitest/subject-filter.ts).
 */
const vitestPatterns = (typed: readonly string[]): string[] => [
  ...new Set(typed.flatMap((p) => (p.includes('@') ? [p.slice(0, p.lastIndexOf('@'))] : [p]))),
];

/** `-t`, checked as Vitest will read it (a regular expression over the full test name). */
function parseNamePattern(value: string | number | undefined): string | undefined {
  if (value === undefined) return undefined;
  const pattern = String(value);
  try {
    new RegExp(pattern);
  } catch (error) {
    throw new UsageError(`-t: '${pattern}' is not a regular expression (${(error as Error).message})`);
  }
  return pattern;
}

/** The spend ledger the plugin started for this Vitest instance (none for unpaid subjects). */
function ledgerOf(vitest: Vitest): SpendLedger | undefined {
  for (const project of vitest.projects) {
    const config = project.getProvidedContext()[RUN_CONFIG_KEY];
    if (config) return ledgerAt(config.spendLedger?.url);
  }
  return undefined;
}

/**
 * `ceilingbench run`: drives Vitest programmatically in the user's repository (the current directory or
 * --root): with the user's vitest config when there is one, otherwise the plugin's standard projects. Reports
 * go under the root; Vite's cache goes to .ceilingbench/vite, so nothing is written under node_modules.
 */
export const registerRun: RegisterCommand = (cli, io) => {
  cli
    .command(COMMAND_HELP.run.usage, COMMAND_HELP.run.description)
    .option('--root <dir>', 'The repository to run in (default: the current directory)')
    .option(
      '--project <list>',
      `Comma list of Vitest project names or globs (${standardProjectList()}, your own, d2@*) or all`,
      {
        default: 'all',
      },
    )
    .option(
      '--subject <spec>',
      'sim:<profile>[?k=v], oracle, openai:<model>, replay:<path>[#model]; repeat it for several subjects (projects d2@<label>, …)',
    )
    .option('--seed <n>', 'Run seed (0 = the released CCB instances)')
    .option('--trials <n>', 'Trials per cell (default 40)')
    .option('--out <dir>', 'Report directory (default reports/ under the root)')
    .option('--shard <i/n>', 'Run shard i of n (split by spec file)')
    .option(
      '-t, --testNamePattern <pattern>',
      "Run only the tests whose full name matches this regular expression (Vitest's -t), e.g. -t 'N=5$'",
    )
    .option(
      '--design <grid|adaptive|sequential>',
      "CCB depth design: the papers' grid (default), adaptive allocation, or sequential (stops when the minRetention test decides)",
    )
    .option('--target-width <w>', 'Adaptive design: stop at this 95% CI width of p_d')
    .option('--dry-run', 'Print the plan (calls, tokens, cost; see `ceilingbench plan`) and exit without running')
    .option('--max-cost <usd>', 'Send no new trial once this much is spent (USD, at the config prices)')
    .option('--max-tokens <n>', 'Send no new trial once this many tokens (prompt + completion) are spent')
    .option('--max-calls <n>', 'Send no new trial once this many requests (retries included) are sent')
    .option('--batch', "Send the grid's openai trials through the provider's batch API (half price, resumable)")
    .action(async (flags: RunFlags) => {
      const root = resolve(flags.root ?? process.cwd());
      if (!existsSync(root)) throw new UsageError(`--root: no directory at ${root}`);
      const projects = parseProjects(flags.project);
      const testNamePattern = parseNamePattern(flags.testNamePattern);
      const env: Record<string, string | undefined> = {
        ...runFlagsEnv(flags),
        CEILINGBENCH_OUT: flags.out ? resolve(flags.out) : undefined,
      };
      if (flags.shard !== undefined && !/^\d+\/\d+$/.test(flags.shard)) {
        throw new UsageError(`--shard: '${flags.shard}' is not of the form i/n (e.g. 1/3)`);
      }
      if (flags.dryRun) {
        // every subject is planned, then the run's total, which the limits are compared with
        const project = flags.project === undefined ? undefined : [flags.project].flat().join(',');
        return printPlan({ ...flags, project }, io);
      }
      for (const [key, value] of Object.entries(env)) if (value !== undefined) process.env[key] = value;
      const batchPass = { root, env: process.env, projects, testNamePattern, shard: flags.shard, io };
      const batched = await (await import('./run-batch.js')).batchBeforeRun(batchPass); // batch mode: into the cache first

      const [{ ceilingbench }, { isBenchmarkProject }, { createVitest, version: vitestVersion }, progress, reporter] =
        await Promise.all([
          import('../../vitest/plugin.js'),
          import('../../vitest/benchmark-mark.js'),
          import('vitest/node'),
          import('../../../reporters/progress-reporter.js'),
          import('../../../reporters/reporter.js'),
        ]);
      const hasConfig = VITEST_CONFIG_FILES.some((name) => existsSync(resolve(root, name)));
      const create = async (project: string[] | undefined): Promise<Vitest> => {
        try {
          // The configuration (and the subject it names) is resolved and checked while Vitest starts, before
          // any worker: a setup mistake is exit 2 here, not one failed test per cell.
          return await withoutRunnerNotice(() =>
            createVitest(
              'test',
              {
                run: true,
                watch: false,
                root,
                config: hasConfig ? undefined : false,
                // The module runner in a user's repository (nothing written under node_modules); one bundle in
                // ceilingbench's own, whose configuration imports the plugin's TypeScript sources (config-loader.ts).
                configLoader: configLoaderFor(root),
                project: project && vitestPatterns(project),
                // as typed: they select the subjects of a project (`d2@gpt-4o`)
                ...(project ? { provide: { [PROJECT_PATTERNS_KEY]: project } } : {}),
                shard: flags.shard,
                testNamePattern,
                passWithNoTests: false,
                // Instances, not files: a reporter named by file is loaded through Vite's module runner, which
                // transforms its whole import graph (the report, gates, compare) once more at every start-up; the
                // CLI has these modules loaded already.
                reporters: [new progress.default(), new reporter.default()],
                ...moduleCacheOptions(vitestVersion, resolve(root, '.ceilingbench/vitest-cache')),
              },
              {
                cacheDir: resolve(root, '.ceilingbench/vite'),
                plugins: [...(hasConfig ? [] : [ceilingbench()]), ...(project ? [selectedProjectsOnly(project)] : [])],
              },
              { stdout: process.stdout, stderr: process.stderr },
            ),
          );
        } catch (error) {
          const message = (error as Error).message;
          // Vitest 4.1 says "No projects matched the filter …", Vitest 5 "… The filter matched no projects: …" and
          // then prints the projects' definition as JSON over many lines: one line, the same on both, with the hint
          if (/No projects matched|The filter matched no projects/.test(message)) {
            // the names there are, from a start-up without the filter, so the error can say which was meant
            // (as `plan` does), the nearest first
            const listing = await create(undefined);
            const known = listing.projects.map((p) => p.name);
            await listing.close();
            const filter = (project ?? []).map((p) => `"${p}"`).join(', ');
            throw new UsageError(
              `No projects matched the filter ${filter}${projectHint(project ?? [], known)} — ${PLUGIN_HINT}`,
            );
          }
          throw new UsageError(message);
        }
      };
      // Without --project: the benchmark projects the plugin added (standard and the user's spec folder), not
      // the repository's other test projects. Listing them takes one Vitest start-up of its own.
      let selected = projects;
      if (selected === undefined) {
        const listing = await create(undefined);
        selected = listing.projects.filter(isBenchmarkProject).map((p) => p.name);
        await listing.close();
        if (selected.length === 0) throw new UsageError(`no benchmark project in ${root} — ${PLUGIN_HINT}`);
      }
      // A paid subject gets a spend ledger even without a limit, so that Ctrl-C stops launching instead of killing
      // the answers in flight.
      setInterruptible(true);
      const restoreWorkerEnv = workersLeaveStopSignalsToMain();
      const created = await signalListenersAddedBy(() => create(selected))
        .finally(() => setInterruptible(false))
        .catch((error: unknown) => {
          restoreWorkerEnv();
          throw error;
        });
      const vitest = created.value;
      const ledger = ledgerOf(vitest);
      const signals = stopOnSignals(vitest, ledger, created.added, io);
      let closed = true;
      try {
        await vitest.start();
      } finally {
        closed = await closeVitest(vitest, signals.interrupted(), io);
        signals.restore();
        restoreWorkerEnv();
      }
      let code = typeof process.exitCode === 'number' ? process.exitCode : 0;
      // trials were kept from being sent, or the run was interrupted: the report is partial; a rerun resumes
      const partial = (ledger?.report().notSent ?? 0) > 0 || signals.interrupted() || (batched?.partial ?? 0) > 0;
      if (partial && (code === EXIT.ok || code === EXIT.gateFailed)) code = EXIT.budgetStopped;
      io.stdout(code === 0 ? 'ceilingbench: run passed\n' : `ceilingbench: run finished with exit code ${code}\n`);
      // the pool's own timers would hold the process for their 60 s: the report is written, nothing is left to do
      if (!closed) setTimeout(() => process.exit(code), 50).unref();
      return code;
    });
};

/** What a `--project` filter that matched nothing could have meant: the nearest names, and the names there are. */
export function projectHint(patterns: readonly string[], known: readonly string[]): string {
  if (known.length === 0) return '';
  const unmatched = patterns.filter((p) => matchProject(p, known).length === 0).map((p) => p.split('@')[0]);
  // a glob is no misspelt name
  const near = [...new Set(unmatched.filter((p) => !/[*!]/.test(p)).flatMap((p) => nearestNames(p, known)))];
  const mean = near.length > 0 ? ` — did you mean '${near.join("', '")}'?` : '';
  return `${mean} (projects: ${known.join(', ')})`;
}

/**
 * Transformed modules are cached on disk between runs (Vitest 4.1's `experimental.fsModuleCache`, the default in
 * Vitest 5), keyed by file content: a rerun transforms only what changed. Ours go with Vite's cache, so a run writes
 * nothing under node_modules. Vitest 4.1 reads `experimental.*`; Vitest 5 the top-level path and warns that the
 * experimental keys are deprecated. Each version's types know only its own spelling (hence `object`).
 */
function moduleCacheOptions(vitestVersion: string, path: string): object {
  return Number.parseInt(vitestVersion, 10) >= 5
    ? { fsModuleCachePath: path }
    : { experimental: { fsModuleCache: true, fsModuleCachePath: path } };
}
