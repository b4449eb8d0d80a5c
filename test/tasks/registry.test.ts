import { describe, expect, it } from 'vitest';
import { ccbTasks } from '../../src/tasks/ccb/index.js';
import { countTasks } from '../../src/tasks/count/index.js';
import { availableTasks, isTaskId, resolveTask, TASK_IDS, UnknownTaskError } from '../../src/tasks/index.js';
import { puzzleTasks } from '../../src/tasks/puzzles/index.js';
import { sccSecondaryTasks } from '../../src/tasks/scc-secondary/index.js';

describe('task registry', () => {
  it('knows every task id of the three papers', () => {
    expect(TASK_IDS).toEqual([
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
    ]);
    expect(isTaskId('d2')).toBe(true);
    expect(isTaskId('d4')).toBe(false);
  });

  it('rejects an unknown id with the list of valid ones', () => {
    expect(() => resolveTask('d4')).toThrow(UnknownTaskError);
    expect(() => resolveTask('d4')).toThrow(/unknown task 'd4'/);
  });

  it('hands out only implemented plugins, each under its own id', () => {
    for (const plugin of availableTasks()) expect(resolveTask(plugin.id)).toBe(plugin);
  });

  it('derives TASK_IDS from the plugin arrays: every plugin, in order, none left out', () => {
    const plugins = [...ccbTasks, ...puzzleTasks, ...countTasks, ...sccSecondaryTasks];
    expect(TASK_IDS).toEqual(plugins.map((plugin) => plugin.id));
    expect(availableTasks().map((plugin) => plugin.id)).toEqual(TASK_IDS);
    for (const plugin of plugins) expect(isTaskId(plugin.id)).toBe(true);
  });
});
