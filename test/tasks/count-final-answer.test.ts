import { describe, expect, it } from 'vitest';
import { generateCell } from '../../src/tasks/instances.js';
import type { CountOutcome } from '../../src/tasks/outcome.js';
import { resolveTask } from '../../src/tasks/registry.js';
import type { GradeContext } from '../../src/tasks/task.js';

// Issue 27's defect classes on the counting tasks (count, nested): the last integer is graded only when it is
// the model's final answer.
describe.each(['count', 'nested'])('%s: the last integer counts only when it is final', (id) => {
  const task = resolveTask(id);
  const [instance] = generateCell(task, task.levels.values[1] ?? 64, 1, { seedOffset: 3 });
  if (instance === undefined) throw new Error('no instance');
  const n = instance.answer as number;
  const grade = (text: string, context?: GradeContext) => task.grade(instance, text, context) as CountOutcome;

  it('cut off at length while recounting after the answer: Unparsed, not Exact', () => {
    const text = `The answer is ${n}.\n\nWait, let me recount the items in the second half`;
    expect(grade(text, { finishReason: 'length' })).toMatchObject({ kind: 'unparsed', parsed: null });
    expect(grade(text, { finishReason: null }).kind).toBe('unparsed');
    expect(grade(text, { finishReason: 'stop' }).kind).toBe('exact');
    // A complete answer that ends the output at length is graded; a bare integer there may be missing digits.
    expect(grade(`The answer is ${n}.`, { finishReason: 'length' }).kind).toBe('exact');
    expect(grade(`The answer is ${n}`, { finishReason: 'length' }).kind).toBe('unparsed');
    expect(grade(String(n), { finishReason: null }).kind).toBe('exact');
    expect(grade(`There are ${n} matches`, { finishReason: null }).kind).toBe('exact');
  });

  it('a hedge with a second count, or a retraction after the count, is Unparsed', () => {
    expect(grade(`The answer is ${n} (or ${n + 1}, if the first one counts).`).kind).toBe('unparsed');
    expect(grade(`${n + 1}, or maybe ${n}`).kind).toBe('unparsed');
    expect(grade(`${n}. I made an error somewhere; I will need to recount.`).kind).toBe('unparsed');
  });

  it('a boxed or LaTeX count is read', () => {
    expect(grade(`Counting gives \\boxed{${n}}`).kind).toBe('exact');
    expect(grade(`$$${n}$$`).kind).toBe('exact');
    expect(grade(`I first said ${n + 3}. Final: \\boxed{${n}}`).kind).toBe('exact');
  });
});
