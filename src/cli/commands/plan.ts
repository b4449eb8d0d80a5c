import { existsSync, statSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { nativeImport } from '../../config/load.js';
import { resolveRunConfig } from '../../config/resolve.js';
import { standardProjects } from '../../tasks/project-names.js';
import { VITEST_CONFIG_FILES } from '../../vitest/files.js';
import type { CliIo, RegisterCommand } from '../command.js';
import { UsageError } from '../errors.js';
import { type RunEnvFlags, runFlagsEnv } from '../run-flags.js';
import { standardProjectList } from '../task-help.js';
import { COMMAND_HELP } from './table.js';

/** The flags `plan` shares with `run` (whose `--dry-run` prints the same plan). */
export interface PlanFlags extends RunEnvFlags {
  root?: string;
  project?: string;
  json?: boolean;
  /** The margin of the per-gate sample sizes (text output). */
  gateMargin?: string | number;
}

function projectList(value: string | undefined): string[] | undefined {
  if (value === undefined || value === 'all') return undefined;
  const names = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (names.length === 0) throw new UsageError(`--project: '${value}' names no project; use a comma list or 'all'`);
  return [...new Set(names)];
}

interface PluginLike {
  name?: string;
  api?: { ceilingbench?: { options?: { specs?: string | { dir: string; name?: string } | false } } };
}

async function flattenPlugins(option: unknown): Promise<PluginLike[]> {
  const value = await option;
  if (!value) return [];
  if (Array.isArray(value)) return (await Promise.all(value.map(flattenPlugins))).flat();
  return [value as PluginLike];
}

/**
 * The project names a vitest.config adds to the standard ones, read from the file without starting Vitest (Vite's
 * module runner, which writes nothing): its inline projects and the plugin's spec folder. Null when they cannot
 * be known so: project folders or globs, a workspace plugin, a file that does not load.
 */
async function vitestConfigProjects(root: string, file: string): Promise<string[] | null> {
  try {
    const { loadConfigFromFile } = await import('vite');
    const loaded = await loadConfigFromFile(
      { command: 'serve', mode: 'test' },
      resolve(root, file),
      root,
      'silent',
      undefined,
      'runner',
    );
    const config = (loaded?.config ?? {}) as { test?: { projects?: unknown[] }; plugins?: unknown };
    const names: string[] = [];
    for (const project of config.test?.projects ?? []) {
      const name = (project as { test?: { name?: unknown } } | null)?.test?.name;
      if (typeof name !== 'string') return null;
      names.push(name);
    }
    const plugins = await flattenPlugins(config.plugins);
    if (plugins.some((p) => p.name === 'ceilingbench:workspace')) return null;
    const specs = plugins.find((p) => p.name === 'ceilingbench')?.api?.ceilingbench?.options?.specs;
    if (typeof specs === 'string') names.push(basename(specs));
    else if (specs) names.push(specs.name ?? basename(specs.dir));
    return names;
  } catch {
    return null;
  }
}

/**
 * The `--project` names checked against the projects of the root, as `run` would find them: the standard ones,
 * benchmarks/ and, when a name is none of those, the vitest.config's own. A name is kept as written when that
 * file's projects cannot be known without starting Vitest.
 */
async function checkProjects(
  names: readonly string[],
  root: string,
  ownProjects: readonly string[],
): Promise<string[]> {
  // the one module, not the face: matching names needs none of the planner's tasks and assays
  const { matchProject, matchProjectNames } = await import('../../plan/projects.js');
  const known = [...standardProjects(), ...ownProjects];
  // the file Vitest would read: the first of its names, in its lookup order
  const configFile = VITEST_CONFIG_FILES.find((name) => existsSync(resolve(root, name)));
  if (configFile === undefined || names.every((name) => matchProject(name, known).length > 0)) {
    return matchProjectNames(names, known);
  }
  const configured = await vitestConfigProjects(root, configFile);
  if (configured === null) {
    const kept = names.flatMap((name) => {
      const hits = matchProject(name, known);
      return hits.length > 0 ? hits : [name];
    });
    return [...new Set(kept)];
  }
  return matchProjectNames(names, [...known, ...configured.filter((name) => !known.includes(name))]);
}

/** ceilingbench.config.ts without Vitest: Vite's module runner (Vitest's own dependency), which writes nothing. */
export async function importConfigFile(path: string, root: string): Promise<unknown> {
  if (!/\.[mc]?ts$/.test(path)) return nativeImport(path);
  let runnerImport: typeof import('vite').runnerImport;
  try {
    ({ runnerImport } = await import('vite'));
  } catch {
    throw new UsageError(`${path}: a TypeScript config needs Vite to be loaded (it comes with vitest: install vitest)`);
  }
  const { module } = await runnerImport(path, { root, configFile: false, logLevel: 'silent' });
  return module;
}

/**
 * The plan of the run these flags describe, resolved like `run` resolves its configuration (the flags as
 * CEILINGBENCH_* overrides of the config file and the environment). It builds no subject and sends nothing.
 */
export async function printPlan(flags: PlanFlags, io: CliIo): Promise<number> {
  const root = resolve(flags.root ?? process.cwd());
  if (!existsSync(root)) throw new UsageError(`--root: no directory at ${root}`);
  const overrides = runFlagsEnv(flags);
  const env: Record<string, string | undefined> = { ...process.env };
  for (const [key, value] of Object.entries(overrides)) if (value !== undefined) env[key] = value;
  const config = await resolveRunConfig({ root, env, importFile: (path) => importConfigFile(path, root) });
  // the user's spec folder, as the plugin adds it by default (benchmarks/ under the root)
  const own = resolve(root, 'benchmarks');
  const ownProjects = existsSync(own) && statSync(own).isDirectory() ? ['benchmarks'] : [];
  const listed = projectList(flags.project);
  const projects = listed === undefined ? undefined : await checkProjects(listed, root, ownProjects);
  const hasVitestConfig = VITEST_CONFIG_FILES.some((name) => existsSync(resolve(root, name)));
  const notes =
    projects === undefined && hasVitestConfig
      ? [
          "planned: the plugin's standard projects (and benchmarks/ when it exists); a vitest.config.ts may add or leave out projects — name the ones it runs with --project",
        ]
      : [];
  // loaded on use: the tasks, assays and tokenizer the plan reads are no cost to the CLI's other commands
  const { buildPlan, formatPlanTable } = await import('../../plan/index.js');
  const plan = await buildPlan({ config, env, projects, ownProjects, notes });
  if (flags.json) {
    io.stdout(`${JSON.stringify(plan, null, 2)}\n`);
    return 0;
  }
  const { DEFAULT_GATE_MARGIN, formatGatePower, gatePowerLines } = await import('../../plan/gate-power.js');
  const margin = gateMargin(flags.gateMargin, DEFAULT_GATE_MARGIN);
  io.stdout(
    formatPlanTable(plan) + formatGatePower(gatePowerLines(config.gates, plan.projects, margin, config.design), margin),
  );
  return 0;
}

/** `--gate-margin`: the difference from each gate's threshold the plan's sample sizes are for, in (0, 1). */
function gateMargin(value: string | number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const margin = Number(value);
  if (!(margin > 0 && margin < 1)) {
    throw new UsageError(`--gate-margin: '${value}' is not a number in (0, 1) — e.g. --gate-margin 0.02`);
  }
  return margin;
}

/** `ceilingbench plan`: calls, tokens and cost of a run before it starts, and what the response cache already holds. */
export const registerPlan: RegisterCommand = (cli, io) => {
  cli
    .command(COMMAND_HELP.plan.usage, COMMAND_HELP.plan.description)
    .option('--root <dir>', 'The repository (default: the current directory)')
    .option('--project <list>', `Comma list of projects (${standardProjectList()}, your own, d2@<label>) or all`, {
      default: 'all',
    })
    .option(
      '--subject <spec>',
      'sim:<profile>[?k=v], oracle, openai:<model>, replay:<path>[#model]; repeat it for several subjects (each planned, then the run total)',
    )
    .option('--seed <n>', 'Run seed (0 = the released CCB instances)')
    .option('--trials <n>', 'Trials per cell (default 40)')
    .option(
      '--design <grid|adaptive|sequential>',
      "CCB depth design: the papers' grid (default), adaptive allocation, or sequential (stops when the minRetention test decides)",
    )
    .option('--target-width <w>', 'Adaptive design: stop at this 95% CI width of p_d')
    .option('--max-cost <usd>', "The run's cost limit to compare the estimate with (USD, at the config prices)")
    .option('--max-tokens <n>', "The run's token limit to compare the estimate with (prompt + completion)")
    .option('--max-calls <n>', "The run's request limit to compare the estimate with")
    .option('--batch', "Price the openai subjects' requests at the batch rate (the price table's `batch`, else half)")
    .option('--json', 'Print the plan as JSON (ceilingbench-plan/1)')
    .option(
      '--gate-margin <d>',
      'Per gate, the trials that tell its threshold from threshold ± d at 95% / 80% power (default 0.02)',
    )
    .example(`ceilingbench plan --project ${standardProjects().slice(0, 3).join(',')} --subject openai:gpt-4o-mini`)
    .example('ceilingbench plan --project d2 --subject openai:gpt-4o-mini --subject openai:gpt-4o --max-cost 5')
    .action((flags: PlanFlags) => printPlan(flags, io));
};
