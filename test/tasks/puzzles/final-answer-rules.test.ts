import { describe, expect, it } from 'vitest';
import { PyRandom } from '../../../src/rng/index.js';
import { generateCell } from '../../../src/tasks/instances.js';
import { isSuccess, type PuzzleOutcome } from '../../../src/tasks/outcome.js';
import { availableTasks } from '../../../src/tasks/registry.js';
import type { AnyTaskPlugin, GradeContext, TaskInstance } from '../../../src/tasks/task.js';

// Issue 27's defect classes on the nine puzzles, through the registered plugins: the final answer is the last
// one in any accepted form, and an answer the text after it takes back, hedges or was still writing past is
// never a pass.
const puzzles = availableTasks().filter((task) => task.family === 'puzzle');

/** The block name and value of a response `name = <value>` (canonical and simulated responses end with one). */
function split(text: string): { name: string; value: string } {
  const at = text.search(/^[a-z_]+ = /m);
  const assignment = text.slice(at);
  const eq = assignment.indexOf(' = ');
  return { name: assignment.slice(0, eq), value: assignment.slice(eq + 3) };
}

/** A simulated response that fails; bounded search, deterministic. */
function failing(task: AnyTaskPlugin, instance: TaskInstance): string {
  for (let s = 0; s < 60; s++) {
    const text = task.simulate(instance, new PyRandom(1000 + s), { retention: 0.3, recover: 0, capacity: 2 });
    if (!isSuccess(task.grade(instance, text))) return text;
  }
  throw new Error(`${task.id}: no failing simulated response`);
}

describe.each(puzzles.map((task) => [task.id, task] as const))('%s: the final answer decides', (_, task) => {
  const [instance] = generateCell(task, 3, 1, { seedOffset: 11 });
  if (instance === undefined) throw new Error('no instance');
  const right = task.canonicalResponse(instance);
  const { name, value } = split(right);
  const wrongValue = split(failing(task, instance)).value;
  const grade = (text: string, context?: GradeContext) => task.grade(instance, text, context) as PuzzleOutcome;

  it('an answer followed by a mid-sentence reconsideration (no finish reason) is Collapse; at length always', () => {
    const reconsidering = `${right}\n\nWait, let me double-check the third move because`;
    expect(grade(reconsidering, { finishReason: null }).kind).toBe('collapse');
    expect(grade(reconsidering, { finishReason: 'length' }).kind).toBe('collapse');
    expect(grade(`${reconsidering} it looked odd. It is fine.`, { finishReason: null }).kind).toBe('pass');
    expect(grade(reconsidering, { finishReason: 'stop' }).kind).toBe('pass');
  });

  it('a plain restatement after the block replaces it: a wrong final list after a correct draft is not a pass', () => {
    const wrongLast = grade(`${right}\n\nFinal answer:\n${wrongValue}`);
    expect(wrongLast.kind).toBe('fail');
    expect(wrongLast.issues[0]).toBe('the answer restated after the block is graded');
    expect(grade(`${name} = ${wrongValue}\n\nHmm, corrected:\n${value}`).kind).toBe('pass');
    expect(grade(`${right}\n\nThe answer, boxed: \\boxed{${wrongValue}}`).kind).toBe('fail');
    // The same value restated (or a check of one move) changes nothing.
    expect(grade(`${right}\n\nFinal answer:\n${value}`).kind).toBe('pass');
  });

  it('a prose retraction after the block is Collapse; a hedge with a second answer is Fail', () => {
    const retracted = grade(`${right}\n\nI made an error in the second step, so this is not right.`);
    expect(retracted.kind).toBe('collapse');
    expect(retracted.issues[0]).toMatch(/taken back/);
    expect(grade(`${right} (or ${wrongValue}, if I misread the rules)`).kind).toBe('fail');
  });

  it('LaTeX display delimiters around the value are stripped', () => {
    expect(grade(`${name} = \\[ ${value} \\]`).kind).toBe('pass');
    expect(grade(`${name} = $$\n${value}\n$$`).kind).toBe('pass');
  });
});
