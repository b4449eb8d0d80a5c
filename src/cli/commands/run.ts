import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Vitest } from 'vitest/node';
import { nearestNames } from '../../config/nearest-names.js';
import { RUN_CONFIG_KEY } from '../../config/resolve.js';
import { EXIT } from '../../errors.js';
import { matchProject } from '../../plan/projects.js';
import type { SpendLedger } from '../../spend/ledger.js';
import { ledgerAt, setInterruptible } from '../../spend/ledger-server.js';
import { VITEST_CONFIG_FILES } from '../../vitest/files.js';
import { setRunInterrupted } from '../../vitest/interrupt-state.js';
import { PROJECT_PATTERNS_KEY } from '../../vitest/subject-keys.js';
import type { CliIo, RegisterCommand } from '../command.js';
import { configLoaderFor } from '../config-loader.js';
import { UsageError } from '../errors.js';
import { type RunEnvFlags, runFlagsEnv } from '../run-flags.js';
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

const STOP_SIGNALS = ['SIGINT', 'SIGTERM'] as const;

/** How long the first signal waits for the trials in flight before it cancels them (and what it says meanwhile). */
export const INTERRUPT_WAIT_MS = 30_000;
const INTERRUPT_STATUS_MS = 10_000;

/**
 * Ctrl-C and SIGTERM (to the process or its group), for every subject:
 * - the first stops launching: with a spend ledger (a paid subject) every trial not yet sent becomes `budget` and
 *   the answers in flight land in the response cache; the wait for them is bounded (INTERRUPT_WAIT_MS), says every
 *   INTERRUPT_STATUS_MS what it still waits for, and then cancels the run. Without a ledger (sim, oracle, replay:
 *   nothing is paid, nothing to wait for) the run is cancelled at once. The report is written (what finished), the
 *   report set is marked `interrupted`, and the run exits 4;
 * - the second cancels at once what is still running: the report is still written;
 * - the third exits at once (130), through Vitest's own handlers for their terminal clean-up.
 * Vitest's handlers, which exit on the first signal and lose everything, are taken off while the run lasts.
 * Returns the undo, and whether the run was interrupted.
 */
function stopOnSignals(
  vitest: Vitest,
  ledger: SpendLedger | undefined,
  vitestHandlers: Map<string, Array<(...args: unknown[]) => void>>,
  io: CliIo,
): { restore: () => void; interrupted: () => boolean } {
  let signals = 0;
  const timers: NodeJS.Timeout[] = [];
  // Vitest tells every worker of its pool to cancel; one that is ending meanwhile (its files done, or the pool
  // stopping it) has no channel left, and the pool raises that as an uncaught error ("Channel closed", "Worker
  // exited unexpectedly"), which would end this process before the report is written. Once the run is being
  // cancelled nothing of such a worker is waited for: the error is passed over; any other is raised again.
  const onClosedChannel = (error: Error & { code?: string }) => {
    if (error.code === 'ERR_IPC_CHANNEL_CLOSED' || error.message === 'Worker exited unexpectedly') return;
    process.off('uncaughtException', onClosedChannel);
    throw error;
  };
  const cancel = (why: string) => {
    for (const t of timers) clearTimeout(t);
    io.stderr(`ceilingbench: ${why} — cancelling the tests still running; the report is written with what finished\n`);
    if (!process.listeners('uncaughtException').includes(onClosedChannel))
      process.on('uncaughtException', onClosedChannel);
    void vitest.cancelCurrentRun('keyboard-input');
  };
  const onSignal = (signal: NodeJS.Signals) => {
    signals++;
    if (signals === 1) {
      setRunInterrupted();
      if (!ledger || ledger.inFlight === 0) {
        io.stderr(`\nceilingbench: ${signal} — stopping (press Ctrl-C again to exit at once)\n`);
        cancel('no trial in flight to wait for');
        return;
      }
      ledger.interrupt();
      io.stderr(
        `\nceilingbench: ${signal} — no new request is sent; waiting up to ${INTERRUPT_WAIT_MS / 1000} s for the ` +
          `${ledger.inFlight} trial(s) in flight to land in the response cache, then writing the report ` +
          '(press Ctrl-C again to stop waiting)\n',
      );
      const status = setInterval(() => {
        if (ledger.inFlight > 0) io.stderr(`ceilingbench: still waiting for ${ledger.inFlight} trial(s) in flight\n`);
      }, INTERRUPT_STATUS_MS);
      status.unref();
      const deadline = setTimeout(() => {
        clearInterval(status);
        if (ledger.inFlight > 0)
          cancel(`gave up waiting for ${ledger.inFlight} trial(s) in flight after ${INTERRUPT_WAIT_MS / 1000} s`);
      }, INTERRUPT_WAIT_MS);
      deadline.unref();
      timers.push(deadline, status as unknown as NodeJS.Timeout);
      return;
    }
    if (signals === 2) {
      cancel(`${signal} again`);
      return;
    }
    process.exitCode = 130;
    for (const handler of vitestHandlers.get(signal) ?? []) handler(signal);
    process.exit(130);
  };
  for (const signal of STOP_SIGNALS) {
    for (const handler of vitestHandlers.get(signal) ?? []) process.off(signal, handler);
    process.on(signal, onSignal);
  }
  return {
    restore: () => {
      for (const t of timers) clearTimeout(t);
      for (const signal of STOP_SIGNALS) process.off(signal, onSignal);
      process.off('uncaughtException', onClosedChannel);
    },
    interrupted: () => signals > 0,
  };
}

/** The listeners of the stop signals added while `start` ran (Vitest's logger adds its own). */
async function signalListenersAddedBy<T>(
  start: () => Promise<T>,
): Promise<{ value: T; added: Map<string, Array<(...args: unknown[]) => void>> }> {
  const before = new Map(STOP_SIGNALS.map((s) => [s, new Set(process.listeners(s))]));
  const value = await start();
  const added = new Map(
    STOP_SIGNALS.map((s) => [
      s,
      process.listeners(s).filter((l) => !before.get(s)?.has(l)) as Array<(...args: unknown[]) => void>,
    ]),
  );
  return { value, added };
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
      const restoreWorkerEnv = workersLeaveCtrlCToMain();
      const created = await signalListenersAddedBy(() => create(selected))
        .finally(() => setInterruptible(false))
        .catch((error: unknown) => {
          restoreWorkerEnv();
          throw error;
        });
      const vitest = created.value;
      const ledger = ledgerOf(vitest);
      const signals = stopOnSignals(vitest, ledger, created.added, io);
      try {
        await vitest.start();
      } finally {
        await vitest.close();
        signals.restore();
        restoreWorkerEnv();
      }
      let code = typeof process.exitCode === 'number' ? process.exitCode : 0;
      // trials were kept from being sent, or the run was interrupted: the report is partial; a rerun resumes
      const partial = (ledger?.report().notSent ?? 0) > 0 || signals.interrupted() || (batched?.partial ?? 0) > 0;
      if (partial && (code === EXIT.ok || code === EXIT.gateFailed)) code = EXIT.budgetStopped;
      io.stdout(code === 0 ? 'ceilingbench: run passed\n' : `ceilingbench: run finished with exit code ${code}\n`);
      return code;
    });
};

/**
 * Every worker of the run leaves Ctrl-C to this process from its first instant, also one still starting or collecting
 * when the signal comes (src/vitest/worker-signals.ts, loaded first through NODE_OPTIONS, which the pool's forks
 * inherit). Set for this run only: returns the undo, so that nothing this process starts later inherits it. Where
 * the module is not built beside this one (the CLI run from its sources), the workers install it when a test first
 * reads its configuration instead.
 */
function workersLeaveCtrlCToMain(): () => void {
  const module = new URL('../../vitest/worker-signals.js', import.meta.url);
  if (!existsSync(fileURLToPath(module))) return () => {};
  const before = { NODE_OPTIONS: process.env.NODE_OPTIONS, CB_RUN_WORKER_SIGNALS: process.env.CB_RUN_WORKER_SIGNALS };
  process.env.CB_RUN_WORKER_SIGNALS = '1';
  process.env.NODE_OPTIONS = `${before.NODE_OPTIONS ?? ''} --import=${JSON.stringify(module.href)}`.trim();
  return () => {
    for (const [key, value] of Object.entries(before)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  };
}

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
