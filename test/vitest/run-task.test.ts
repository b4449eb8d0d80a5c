import { describe, expect, it } from 'vitest';
import { generateCell, isSuccess } from '../../src/tasks/index.js';
import { runTask } from '../../src/vitest/run-task.js';

// The run's reasoningDelimiters reach the grading of every sweep and matcher through the task it resolves.

describe('runTask', () => {
  const scratch = { open: '<scratchpad>', close: '</scratchpad>' };

  it('grades with the run configuration’s delimiters; without one, the built-in table only', () => {
    const plain = runTask('d1', undefined);
    const [instance] = generateCell(plain, 5, 1);
    const right = plain.canonicalResponse(instance);
    const behind = `${right}\n<scratchpad>\n2. ANSWER: [[0, 0, 0], [0, 0, 0], [0, 0, 0]]\n</scratchpad>`;
    expect(isSuccess(plain.grade(instance, behind))).toBe(false);
    expect(isSuccess(runTask('d1', { reasoningDelimiters: [scratch] }).grade(instance, behind))).toBe(true);
    // the unit project has no ceilingbench plugin: nothing is provided, and the matcher still grades
    expect(isSuccess(runTask('d1').grade(instance, right))).toBe(true);
  });
});
