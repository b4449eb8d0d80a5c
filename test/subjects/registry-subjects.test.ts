import { describe, expect, it } from 'vitest';
import { createSubject } from '../../src/subjects/index.js';
import { generateCell } from '../../src/tasks/instances.js';
import { isMissing, isSuccess } from '../../src/tasks/outcome.js';
import { availableTasks, resolveTask } from '../../src/tasks/registry.js';

/** Subjects against the real task plugins, whichever are registered in this build. */
describe('subjects on the registered tasks', () => {
  it('the oracle scores 100% on every cell of every registered task (every level, two instances)', async () => {
    const oracle = await createSubject('oracle');
    for (const task of availableTasks()) {
      for (const level of task.levels.values) {
        for (const [trialIndex, instance] of generateCell(task, level, 2).entries()) {
          const response = await oracle.answer({
            taskId: task.id,
            instance,
            prompt: task.render(instance),
            trialIndex,
            maxOutputTokens: task.maxOutputTokens(level),
          });
          if (response.kind !== 'answer') throw new Error(response.kind === 'error' ? response.error : response.reason);
          const outcome = task.grade(instance, response.text, { finishReason: response.finishReason });
          expect({ task: task.id, level, ok: isSuccess(outcome) }).toEqual({ task: task.id, level, ok: true });
        }
      }
    }
  });

  it('sim:default answers every registered task in a format its grader accepts (never api)', async () => {
    const sim = await createSubject('sim:default');
    for (const task of availableTasks()) {
      const level = task.levels.values[0];
      for (const [trialIndex, instance] of generateCell(task, level, 3).entries()) {
        const response = await sim.answer({
          taskId: task.id,
          instance,
          prompt: task.render(instance),
          trialIndex,
          maxOutputTokens: task.maxOutputTokens(level),
        });
        if (response.kind !== 'answer') throw new Error(response.kind === 'error' ? response.error : response.reason);
        expect(isMissing(task.grade(instance, response.text, { finishReason: response.finishReason }))).toBe(false);
      }
    }
  });

  it('sim:counting is exact well below capacity and wrong well above it on the count task', async () => {
    const task = resolveTask('count');
    const sim = await createSubject('sim:counting?cc=300');
    const score = async (level: number) => {
      let exact = 0;
      for (const [trialIndex, instance] of generateCell(task, level, 10).entries()) {
        const r = await sim.answer({
          taskId: 'count',
          instance,
          prompt: task.render(instance),
          trialIndex,
          maxOutputTokens: 4096,
        });
        if (r.kind === 'answer' && isSuccess(task.grade(instance, r.text))) exact++;
      }
      return exact;
    };
    expect(await score(64)).toBe(10); // ≤ 0.9·cc: exact by the count plugin's simulate
    expect(await score(4096)).toBe(0); // far beyond capacity
  });

  it('sim:retention gives P(correct | N) = p^N on the CCB tasks (recover = 0)', async () => {
    const p = 0.9;
    const depth = 10;
    const sim = await createSubject(`sim:retention?p=${p}`);
    for (const id of ['d1', 'd2', 'd3']) {
      const task = resolveTask(id);
      const instances = generateCell(task, depth, 100);
      let correct = 0;
      let trials = 0;
      for (let trialIndex = 0; trialIndex < 8; trialIndex++) {
        for (const instance of instances) {
          const r = await sim.answer({
            taskId: id,
            instance,
            prompt: task.render(instance),
            trialIndex,
            maxOutputTokens: 1e6,
          });
          if (r.kind === 'answer' && isSuccess(task.grade(instance, r.text, { finishReason: r.finishReason })))
            correct++;
          trials++;
        }
      }
      const expected = p ** depth;
      const sd = Math.sqrt((expected * (1 - expected)) / trials);
      expect({ id, deviationInSd: Math.abs(correct / trials - expected) / sd < 4 }).toEqual({
        id,
        deviationInSd: true,
      });
    }
  });
});
