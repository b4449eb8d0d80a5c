import { CeilingbenchError } from '../errors.js';
import { ccbTasks } from './ccb/index.js';
import { countTasks } from './count/index.js';
import { withResponseChannels } from './final-answer.js';
import { OUTCOME_FAMILIES } from './outcome.js';
import { puzzleTasks } from './puzzles/index.js';
import { sccSecondaryTasks } from './scc-secondary/index.js';
import { ANALYSES, type AnyTaskPlugin } from './task.js';

/** The plugins ceilingbench ships, in presentation order: the family arrays are the one list of them. */
const BUILT_IN: readonly AnyTaskPlugin[] = [...ccbTasks, ...puzzleTasks, ...countTasks, ...sccSecondaryTasks];

/** The id of a registered plugin (plugins declare `id` as a string, so the type cannot list them). */
export type TaskId = string;

/** The ids of the tasks ceilingbench ships, in presentation order (registered tasks follow in availableTasks()). */
export const TASK_IDS: readonly TaskId[] = BUILT_IN.map((plugin) => plugin.id);

/** Registered plugins grade whole responses: reasoning and whitespace variants are set aside first. */
const plugins = new Map<TaskId, AnyTaskPlugin>();

/** The plugin objects as given, for telling a repeated registration from a clash. */
const registered = new Map<TaskId, AnyTaskPlugin>();

/** What a plugin must declare for the harness to run it; every problem, not just the first. */
function declarationProblems(plugin: AnyTaskPlugin): string[] {
  const problems: string[] = [];
  if (typeof plugin.id !== 'string' || !/^[a-z][a-z0-9-]*$/.test(plugin.id)) {
    problems.push(`id must be lower-case letters, digits and '-', starting with a letter (got '${String(plugin.id)}')`);
  }
  if (!(OUTCOME_FAMILIES as readonly string[]).includes(plugin.family)) {
    problems.push(`family must be one of ${OUTCOME_FAMILIES.join(', ')} (the outcome record it grades into)`);
  }
  if (!(ANALYSES as readonly string[]).includes(plugin.analysis)) {
    problems.push(`analysis must be one of ${ANALYSES.join(', ')}`);
  }
  if (typeof plugin.project !== 'string' || plugin.project === '') problems.push('project must name a Vitest project');
  const values = plugin.levels?.values ?? [];
  if (values.length === 0 || values.some((v, i) => !Number.isFinite(v) || (i > 0 && v <= (values[i - 1] ?? v)))) {
    problems.push('levels.values must be a non-empty ascending list of numbers');
  }
  if (!plugin.variants?.length || !plugin.profiles?.length)
    problems.push('variants and profiles need one entry each at least');
  if (plugin.ladder !== undefined && plugin.family !== 'count')
    problems.push("a plugin that declares a ladder grades into the 'count' outcome record (family 'count')");
  return problems;
}

/**
 * Adds a task plugin to the registry, so that describeSweep, the subjects, the matchers and the reports take
 * it like a built-in one (see README "Adding a task family"). Call it in the spec file, before describeSweep.
 * Registering the same object again is a no-op; another plugin with a taken id is an error.
 */
export function registerTask(plugin: AnyTaskPlugin): void {
  const problems = declarationProblems(plugin);
  if (problems.length > 0) {
    throw new CeilingbenchError('CB_TASK_PLUGIN', `task plugin '${String(plugin.id)}': ${problems.join('; ')}`);
  }
  const existing = plugins.get(plugin.id);
  if (existing) {
    if (registered.get(plugin.id) === plugin) return;
    throw new CeilingbenchError('CB_TASK_PLUGIN', `task plugin '${plugin.id}': another plugin already has this id`);
  }
  registered.set(plugin.id, plugin);
  plugins.set(plugin.id, withResponseChannels(plugin));
}

for (const plugin of BUILT_IN) registerTask(plugin);

export const isTaskId = (id: string): id is TaskId => plugins.has(id);

/** The registered plugins: the built-in ones in TASK_IDS order, then the ones registered since. */
export function availableTasks(): AnyTaskPlugin[] {
  return [...plugins.values()];
}

export class UnknownTaskError extends CeilingbenchError {
  constructor(id: string) {
    super('CB_UNKNOWN_TASK', `unknown task '${id}'; use one of: ${[...plugins.keys()].join(', ') || '(none)'}`);
    this.name = 'UnknownTaskError';
  }
}

export function resolveTask(id: string): AnyTaskPlugin {
  const plugin = plugins.get(id);
  if (!plugin) throw new UnknownTaskError(id);
  return plugin;
}
