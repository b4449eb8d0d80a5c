import { standardProjects } from '../tasks/project-names.js';
import { availableTasks } from '../tasks/registry.js';
import type { LevelAxis } from '../tasks/task.js';

// Help texts that name tasks or projects read them from the registered plugins, so they never go stale.

/** The tasks whose level axis is of this kind: `d1, d2, d3` for depth. */
export const tasksWithAxis = (kind: LevelAxis['kind']): string =>
  availableTasks()
    .filter((task) => task.levels.kind === kind)
    .map((task) => task.id)
    .join(', ');

/** Every task's profiles or variants where it has more than one: `d1: official | paper; …` grouped by list. */
export function choicesByTask(pick: 'profiles' | 'variants'): string {
  const groups = new Map<string, string[]>();
  for (const task of availableTasks()) {
    const list = task[pick];
    if (list.length < 2) continue;
    const key = list.join(' | ');
    groups.set(key, [...(groups.get(key) ?? []), task.id]);
  }
  return [...groups].map(([choices, ids]) => `${ids.join(', ')}: ${choices}`).join('; ');
}

export const standardProjectList = (): string => standardProjects().join(', ');
