import { describe, expect, it } from 'vitest';
import { availableTasks, registerTask, resolveTask } from '../../src/tasks/registry.js';
import { zigzagTask } from '../fixture-family/zigzag.js';
import { wordtallyTask } from '../ladder-family/wordtally.js';
import { answerSymmetryBreaks } from '../support/answer-symmetry.js';
import { reloadModulesAfterThisFile } from '../support/shared-worker.js';

// The symmetry contract over every registered plugin (issue 40): whether a trial counts never depends on whether
// its final answer is right. Shapes and finish reasons: test/support/answer-symmetry.ts.
registerTask(zigzagTask);
reloadModulesAfterThisFile();
registerTask(wordtallyTask);

describe('answer symmetry: counted or set aside is decided blind to correctness', () => {
  for (const task of availableTasks()) {
    it(`${task.id} (${task.family} record)`, () => {
      const breaks = answerSymmetryBreaks(resolveTask(task.id));
      expect(breaks.map((b) => `${b.shape} @${b.finishReason}: right ${b.right}, wrong ${b.wrong}`)).toEqual([]);
    });
  }
});
