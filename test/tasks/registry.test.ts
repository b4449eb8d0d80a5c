import { describe, expect, it } from 'vitest';
import type { CeilingbenchError } from '../../src/errors.js';
import { ccbTasks } from '../../src/tasks/ccb/index.js';
import { countTasks } from '../../src/tasks/count/index.js';
import {
  type AnyTaskPlugin,
  availableTasks,
  isTaskId,
  registerTask,
  resolveTask,
  TASK_IDS,
  UnknownTaskError,
} from '../../src/tasks/index.js';
import { puzzleTasks } from '../../src/tasks/puzzles/index.js';
import { sccSecondaryTasks } from '../../src/tasks/scc-secondary/index.js';
import { reloadModulesAfterThisFile } from '../support/shared-worker.js';

// registers a plugin of its own
reloadModulesAfterThisFile();

describe('task registry', () => {
  /** The shipped families, each as its folder exports it: the one list the registry is built from. */
  const families = { ccbTasks, puzzleTasks, countTasks, sccSecondaryTasks };
  const UNKNOWN = 'not-a-shipped-task';

  it('registers every plugin of every shipped family once, under a valid id (the list derives from the families)', () => {
    const ids = Object.values(families).flatMap((family) => family.map((plugin) => plugin.id));
    for (const [name, family] of Object.entries(families)) expect(family.length, name).toBeGreaterThan(0);
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set(TASK_IDS)).toEqual(new Set(ids));
    for (const id of ids) {
      expect(id).toMatch(/^[a-z][a-z0-9-]*$/);
      expect(isTaskId(id)).toBe(true);
    }
    expect(isTaskId(UNKNOWN)).toBe(false);
  });

  it('rejects an unknown id with the list of valid ones', () => {
    expect(() => resolveTask(UNKNOWN)).toThrow(UnknownTaskError);
    expect(() => resolveTask(UNKNOWN)).toThrow(new RegExp(`unknown task '${UNKNOWN}'.*${TASK_IDS.join(', ')}`));
  });

  it('hands out only implemented plugins, each under its own id', () => {
    for (const plugin of availableTasks()) expect(resolveTask(plugin.id)).toBe(plugin);
  });

  it('derives TASK_IDS from the plugin arrays: every plugin, in order, none left out', () => {
    const plugins = Object.values(families).flat();
    expect(TASK_IDS).toEqual(plugins.map((plugin) => plugin.id));
    expect(
      availableTasks()
        .map((plugin) => plugin.id)
        .slice(0, TASK_IDS.length),
    ).toEqual(TASK_IDS);
    for (const plugin of plugins) expect(isTaskId(plugin.id)).toBe(true);
  });
});

describe('registerTask', () => {
  const base = resolveTask('d2');
  it('rejects a malformed declaration with every problem and a stable code', () => {
    const bad = { ...base, id: 'Bad Id', analysis: 'vibes', project: '', levels: { kind: 'depth', values: [] } };
    const error = (() => {
      try {
        registerTask(bad as unknown as AnyTaskPlugin);
      } catch (e) {
        return e as CeilingbenchError;
      }
      return undefined;
    })();
    expect(error?.code).toBe('CB_TASK_PLUGIN');
    expect(error?.message).toMatch(
      /id must be.*analysis must be one of retention, collapse, counting.*project must.*levels/,
    );
    expect(isTaskId('Bad Id')).toBe(false);
  });

  it('refuses a second plugin under a taken id, accepts the same object again', () => {
    expect(() => registerTask({ ...base })).toThrow(/'d2': another plugin already has this id/);
    const extra = { ...base, id: 'registry-test-extra', project: 'extra' } as AnyTaskPlugin;
    registerTask(extra);
    registerTask(extra);
    expect(resolveTask('registry-test-extra').project).toBe('extra');
    expect(availableTasks().at(-1)?.id).toBe('registry-test-extra');
    expect(TASK_IDS).not.toContain('registry-test-extra');
  });
});
