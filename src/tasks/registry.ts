import { CeilingbenchError } from '../errors.js';
import { ccbTasks } from './ccb/index.js';
import { countTasks } from './count/index.js';
import { withResponseChannels } from './final-answer.js';
import { puzzleTasks } from './puzzles/index.js';
import { sccSecondaryTasks } from './scc-secondary/index.js';
import type { AnyTaskPlugin } from './task.js';

/** Every task id ceilingbench defines, in presentation order. */
export const TASK_IDS = [
  'd1',
  'd2',
  'd3',
  'hanoi',
  'checkers',
  'river',
  'sat',
  'crypt',
  'coloring',
  'jug',
  'sudoku',
  'rubik',
  'count',
  'nested',
  'dual',
  'agent',
] as const;
export type TaskId = (typeof TASK_IDS)[number];

/** Registered plugins grade whole responses: reasoning and whitespace variants are set aside first. */
const plugins = new Map<string, AnyTaskPlugin>(
  [...ccbTasks, ...puzzleTasks, ...countTasks, ...sccSecondaryTasks].map((plugin) => [
    plugin.id,
    withResponseChannels(plugin),
  ]),
);

export const isTaskId = (id: string): id is TaskId => (TASK_IDS as readonly string[]).includes(id);

/** The plugins that are implemented, in TASK_IDS order. */
export function availableTasks(): AnyTaskPlugin[] {
  return TASK_IDS.flatMap((id) => plugins.get(id) ?? []);
}

export class UnknownTaskError extends CeilingbenchError {
  constructor(id: string) {
    const known = availableTasks().map((t) => t.id);
    super(
      'CB_UNKNOWN_TASK',
      isTaskId(id)
        ? `task '${id}' is defined but not implemented in this build; available: ${known.join(', ') || '(none)'}`
        : `unknown task '${id}'; use one of: ${known.join(', ') || '(none)'}`,
    );
    this.name = 'UnknownTaskError';
  }
}

export function resolveTask(id: string): AnyTaskPlugin {
  const plugin = plugins.get(id);
  if (!plugin) throw new UnknownTaskError(id);
  return plugin;
}
