import type { Command } from 'cac';
import { PyRandom } from '../../rng/index.js';
import { resolveTask } from '../../tasks/registry.js';
import type { AnyTaskPlugin, TaskInstance } from '../../tasks/task.js';
import type { RegisterCommand } from '../command.js';
import { UsageError } from '../errors.js';
import { choicesByTask, tasksWithAxis } from '../task-help.js';
import { COMMAND_HELP } from './table.js';

/** Options shared by `generate` and `grade`, as cac hands them over (mri may turn digit strings into numbers). */
export interface InstanceArgs {
  depth?: unknown;
  level?: unknown;
  seed?: unknown;
  profile?: unknown;
  query?: unknown;
}

export interface ResolvedInstance {
  plugin: AnyTaskPlugin;
  /** `depth` for CCB-style families, `level` for the others. */
  axisKey: 'depth' | 'level';
  level: number;
  seed: number;
  profile: string;
  instance: TaskInstance;
}

function positiveInteger(value: unknown, flag: string, example: string): number {
  const text = String(value);
  if (value === true || !/^\d+$/.test(text) || Number(text) < 1 || !Number.isSafeInteger(Number(text))) {
    throw new UsageError(`${flag} must be a positive integer, got '${value === true ? '' : text}'; e.g. ${example}`);
  }
  return Number(text);
}

function resolvePlugin(task: unknown): AnyTaskPlugin {
  if (typeof task !== 'string' || task === '') throw new UsageError('missing <task>; e.g. ceilingbench generate d1 …');
  return resolveTask(task); // an unknown task is a CeilingbenchError with exit 2
}

/** Validates the task, level, seed and profile arguments and generates the instance they name. */
export function resolveInstance(task: unknown, args: InstanceArgs): ResolvedInstance {
  const plugin = resolvePlugin(task);
  const axisKey = plugin.levels.kind === 'depth' ? 'depth' : 'level';
  const other = axisKey === 'depth' ? 'level' : 'depth';
  const given = args[axisKey] ?? args[other];
  if (given === undefined) {
    const example = plugin.levels.values[0] ?? 1;
    throw new UsageError(`missing --${axisKey} for task '${plugin.id}'; e.g. --${axisKey} ${example}`);
  }
  if (args.depth !== undefined && args.level !== undefined && String(args.depth) !== String(args.level)) {
    throw new UsageError(`--depth and --level disagree (${args.depth} vs ${args.level}); pass only --${axisKey}`);
  }
  const level = positiveInteger(given, `--${axisKey}`, `--${axisKey} ${plugin.levels.values[0] ?? 1}`);
  if (args.seed === undefined) {
    throw new UsageError(
      'missing --seed S; the instance seed (for CCB official, the release seed: depth*10000 + attempt), e.g. --seed 50000',
    );
  }
  const seedText = String(args.seed);
  if (args.seed === true || !/^\d+$/.test(seedText) || !Number.isSafeInteger(Number(seedText))) {
    throw new UsageError(`--seed must be a non-negative integer, got '${args.seed === true ? '' : seedText}'`);
  }
  const seed = Number(seedText);
  const profile = args.profile === undefined ? plugin.profiles[0] : String(args.profile);
  if (profile !== undefined && !plugin.profiles.includes(profile)) {
    const known = plugin.profiles.length > 0 ? plugin.profiles.join(', ') : '(none: omit --profile)';
    throw new UsageError(`unknown --profile '${profile}' for task '${plugin.id}'; use one of: ${known}`);
  }
  const options = { seed, ...(profile === undefined ? {} : { profile }), ...(args.query ? { query: true } : {}) };
  let instance: TaskInstance;
  try {
    instance = plugin.generate(new PyRandom(seed), level, options);
  } catch (error) {
    if (error instanceof Error)
      throw new UsageError(`cannot generate ${plugin.id} ${axisKey} ${level}: ${error.message}`);
    throw error;
  }
  return { plugin, axisKey, level, seed, profile: profile ?? instance.profile, instance };
}

export function resolveVariantArg(plugin: AnyTaskPlugin, variant: unknown): string | undefined {
  if (variant === undefined) return plugin.variants[0];
  const name = String(variant);
  if (!plugin.variants.includes(name)) {
    const known = plugin.variants.length > 0 ? plugin.variants.join(', ') : '(none: omit --variant)';
    throw new UsageError(`unknown --variant '${name}' for task '${plugin.id}'; use one of: ${known}`);
  }
  return name;
}

const section = (title: string, body: string): string => `--- ${title} ---\n${body}\n`;

/** The flags that name one instance (read by resolveInstance), for every command that takes one. */
export const withInstanceOptions = (command: Command): Command =>
  command
    .option('--depth <n>', `Depth N (tasks ${tasksWithAxis('depth')})`)
    .option('--level <n>', `Level (tasks ${tasksWithAxis('level')}) or length (${tasksWithAxis('length')})`)
    .option('--seed <s>', 'Instance seed (CCB official: the release seed, depth*10000 + attempt)')
    .option('--profile <name>', `Generation profile (${choicesByTask('profiles')})`)
    .option('--query', 'D3 paper profile: ask for the query pair instead of the full state');

export const registerGenerate: RegisterCommand = (cli, io) => {
  withInstanceOptions(cli.command(COMMAND_HELP.generate.usage, COMMAND_HELP.generate.description))
    .option('--variant <name>', `Prompt variant (${choicesByTask('variants')})`)
    .option('--json', 'Print one JSON object')
    .example('ceilingbench generate d1 --depth 5 --seed 50000 --json')
    .action((task: string, options: InstanceArgs & { variant?: unknown; json?: boolean }) => {
      const resolved = resolveInstance(task, options);
      const { plugin, instance } = resolved;
      const variant = resolveVariantArg(plugin, options.variant);
      const prompt = plugin.render(instance, variant);
      const response = plugin.canonicalResponse(instance);
      const canonical = {
        ...(instance.trace.length > 0 ? { trace: instance.trace } : {}),
        answer: instance.answer,
        response,
      };
      if (options.json) {
        const out = {
          task: plugin.id,
          profile: resolved.profile,
          [resolved.axisKey]: resolved.level,
          seed: resolved.seed,
          variant,
          instance,
          prompt: { system: prompt.system, user: prompt.user },
          canonical,
        };
        io.stdout(`${JSON.stringify(out, null, 2)}\n`);
        return 0;
      }
      const head = `${plugin.id} (${plugin.title}) · profile ${resolved.profile} · ${resolved.axisKey} ${resolved.level} · seed ${resolved.seed} · variant ${variant}\n`;
      const trace = instance.trace.map((s, i) => `Step ${i + 1}: ${typeof s === 'string' ? s : JSON.stringify(s)}`);
      const answer = typeof instance.answer === 'string' ? instance.answer : JSON.stringify(instance.answer);
      io.stdout(
        head +
          section('system prompt', prompt.system) +
          section('user prompt', prompt.user) +
          (trace.length > 0 ? section('canonical trace', trace.join('\n')) : '') +
          section('canonical answer', answer) +
          section('canonical response', response),
      );
      return 0;
    });
};
