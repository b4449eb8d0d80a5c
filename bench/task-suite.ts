import type { Bench } from 'tinybench';
import { PyRandom } from '../src/rng/index.js';
import { availableTasks } from '../src/tasks/registry.js';
import type { AnyTaskPlugin } from '../src/tasks/task.js';

/** The deepest level of a task's default axis (the costliest instance it generates by default). */
export const deepestLevel = (task: AnyTaskPlugin): number => task.levels.values[task.levels.values.length - 1];

/**
 * Per registered task at its deepest level: `generate` (one instance from a fresh seeded RNG, seeds cycling as
 * in generateCell) and `render + parse + grade` (the prompt, then parsing and grading the canonical answer of
 * a pre-generated instance — the per-trial cost the harness adds to a model call).
 */
export function addTaskBenches(bench: Bench): void {
  for (const task of availableTasks()) {
    const level = deepestLevel(task);
    const profile = task.profiles[0];
    let attempt = 0;
    bench.add(`${task.id} L${level} · generate`, () => {
      const seed = level * 10000 + (attempt++ % 64);
      task.generate(new PyRandom(seed), level, { seed, profile });
    });
    const seed = level * 10000;
    const instance = task.generate(new PyRandom(seed), level, { seed, profile });
    const response = task.canonicalResponse(instance);
    bench.add(`${task.id} L${level} · render + parse + grade`, () => {
      task.render(instance);
      if (!task.parse(response).ok) throw new Error(`${task.id}: the canonical response does not parse`);
      task.grade(instance, response, { finishReason: 'stop' });
    });
  }
}
