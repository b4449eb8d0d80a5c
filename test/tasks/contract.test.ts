import { describe, it } from 'vitest';
import { availableTasks, registerTask, resolveTask } from '../../src/tasks/registry.js';
import { zigzagTask } from '../fixture-family/zigzag.js';
import { wordtallyTask } from '../ladder-family/wordtally.js';
import { reloadModulesAfterThisFile } from '../support/shared-worker.js';
import { assertTaskContract } from '../support/task-contract.js';

// The task contract over every registered plugin — the shipped ones and two families registered from test/.
registerTask(zigzagTask);
reloadModulesAfterThisFile();
registerTask(wordtallyTask);

describe('task contract', () => {
  for (const task of availableTasks()) {
    it(`${task.id} (${task.family} record, ${task.analysis}, project ${task.project})`, () => {
      assertTaskContract(resolveTask(task.id));
    });
  }
});
