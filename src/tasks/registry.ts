import { CeilingbenchError } from '../errors.js';
import { ccbTasks } from './ccb/index.js';
import { countTasks } from './count/index.js';
import { withResponseChannels } from './final-answer.js';
import { puzzleTasks } from './puzzles/index.js';
import { sccSecondaryTasks } from './scc-secondary/index.js';
import type { AnyTaskPlugin } from './task.js';

/**
 * Every registered plugin, in presentation order. The family arrays are the one list of tasks: their ids,
 * `availableTasks()` and everything driven by the registry follow from them.
 */
const REGISTERED: readonly AnyTaskPlugin[] = [...ccbTasks, ...puzzleTasks, ...countTasks, ...sccSecondaryTasks];

/** The id of a registered plugin (plugins declare `id` as a string, so the type cannot list them). */
export type TaskId = string;

/** Every task id ceilingbench defines, in presentation order: the ids of the registered plugins. */
export const TASK_IDS: readonly TaskId[] = REGISTERED.map((plugin) => plugin.id);

/** Registered plugins grade whole responses: reasoning and whitespace variants are set aside first. */
const plugins = new Map<TaskId, AnyTaskPlugin>();
for (const plugin of REGISTERED) {
  if (plugins.has(plugin.id)) throw new Error(`task registry: two plugins declare the id '${plugin.id}'`);
  plugins.set(plugin.id, withResponseChannels(plugin));
}

export const isTaskId = (id: string): id is TaskId => plugins.has(id);

/** The registered plugins, in TASK_IDS order. */
export function availableTasks(): AnyTaskPlugin[] {
  return [...plugins.values()];
}

export class UnknownTaskError extends CeilingbenchError {
  constructor(id: string) {
    super('CB_UNKNOWN_TASK', `unknown task '${id}'; use one of: ${TASK_IDS.join(', ') || '(none)'}`);
    this.name = 'UnknownTaskError';
  }
}

export function resolveTask(id: string): AnyTaskPlugin {
  const plugin = plugins.get(id);
  if (!plugin) throw new UnknownTaskError(id);
  return plugin;
}
