import { describe, expect, it } from 'vitest';
import { availableTasks, isTaskId, resolveTask, TASK_IDS, UnknownTaskError } from '../../src/tasks/index.js';

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
});
