import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PyRandom } from '../../src/rng/index.js';
import { generateCell } from '../../src/tasks/instances.js';
import { isSuccess, type TrialOutcome } from '../../src/tasks/outcome.js';
import { availableTasks } from '../../src/tasks/registry.js';
import type { AnyTaskPlugin, TaskInstance } from '../../src/tasks/task.js';

// Contract tests over every registered task (issue 27, parts 2, 3 and 5): an answer is graded only when it is
// the model's final one. A response cut off while it is still reasoning after a correct answer, and a correct
// answer followed by a contradicting restatement, hedge or retraction, are never a success.

interface Case {
  task: AnyTaskPlugin;
  instance: TaskInstance;
  right: string;
  wrong: string;
}

/** A simulated response that does not succeed (bounded search, deterministic); null when none was found. */
function simulatedWrong(task: AnyTaskPlugin, instance: TaskInstance, seed: number): string | null {
  for (let s = 0; s < 40; s++) {
    const text = task.simulate(instance, new PyRandom(seed * 97 + s), { retention: 0.3, recover: 0, capacity: 2 });
    if (!isSuccess(task.grade(instance, text))) return text;
  }
  return null;
}

const cases: Case[] = availableTasks().flatMap((task) =>
  task.levels.values.slice(0, 2).flatMap((level) =>
    generateCell(task, level, 2, { seedOffset: 13 }).flatMap((instance, i) => {
      const wrong = simulatedWrong(task, instance, level * 10 + i);
      return wrong === null ? [] : [{ task, instance, right: task.canonicalResponse(instance), wrong }];
    }),
  ),
);

/** The answer part of a response in the family's accepted form: after the last `ANSWER:`, `name = `, or the count. */
function answerPart(task: AnyTaskPlugin, text: string): string {
  const keyword = text.lastIndexOf('ANSWER:');
  if (keyword >= 0) return text.slice(keyword + 'ANSWER:'.length).trim();
  const assignment = text.search(/^[a-z_]+ = /m);
  if (assignment >= 0) return text.slice(text.indexOf(' = ', assignment) + 3).trim();
  if (task.family === 'count') return text.trim();
  throw new Error(`${task.id}: no answer part in ${text.slice(0, 80)}`);
}

const caseArb = fc.constantFrom(...cases);

/**
 * What a model writes after a draft answer when it goes on reasoning (cut off before it finishes). Without
 * digits: a counting task reads the last integer, so a digit here would be that task's answer (a failure, not
 * a cut-off; test/tasks/count-final-answer.test.ts has that case).
 */
const reconsideringArb = fc.constantFrom(
  'Wait, let me double-check the second step',
  'Hmm, but the third move might be wrong, let me verify it again from the start',
  'Actually, let me re-check this: the first operation',
  'Let me verify each step once more, starting from the first',
  'But wait',
);

describe('every registered task: a cut-off after an answer is never a success', () => {
  it('covers every registered task', () => {
    expect([...new Set(cases.map((c) => c.task.id))]).toEqual(availableTasks().map((t) => t.id));
  });

  it('cut at length (or mid-sentence with no finish reason) after a correct answer plus more reasoning', () => {
    fc.assert(
      fc.property(
        caseArb,
        reconsideringArb,
        fc.constantFrom('length', null, undefined),
        fc.constantFrom('\n\n', '\n'),
        ({ task, instance, right }, more, finishReason, gap) => {
          const graded = task.grade(instance, `${right}${gap}${more}`, { finishReason });
          expect(isSuccess(graded), `${task.id} ${finishReason}`).toBe(false);
          const expected: Record<TrialOutcome['family'], string> = {
            ccb: 'truncation',
            puzzle: 'collapse',
            count: 'unparsed',
          };
          expect(graded.kind).toBe(expected[graded.family]);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('the same reconsideration ended by the model itself (finish reason stop) leaves the answer graded', () => {
    fc.assert(
      fc.property(caseArb, reconsideringArb, ({ task, instance, right }, more) => {
        const alone = task.grade(instance, right, { finishReason: 'stop' });
        const graded = task.grade(instance, `${right}\n\n${more}.`, { finishReason: 'stop' });
        expect(isSuccess(graded)).toBe(isSuccess(alone));
      }),
      { numRuns: 100 },
    );
  });

  it('a complete CCB answer that ends the output at length is still graded', () => {
    for (const { task, instance, right } of cases.filter((c) => c.task.family === 'ccb')) {
      expect(task.grade(instance, right, { finishReason: 'length' }).kind).toBe('correct');
    }
  });
});

const restatementArb = fc.constantFrom('boxed', 'hedge', 'retraction', 'again') as fc.Arbitrary<
  'boxed' | 'hedge' | 'retraction' | 'again'
>;

describe('every registered task: the final answer is the last one, in any accepted form', () => {
  // Simulated wrong responses that hold an answer to restate (a count response without an integer holds none).
  const restatable = cases.filter((c) =>
    (c.task.family === 'count' ? /\p{Nd}/u : /[\p{L}\p{N}]/u).test(answerPart(c.task, c.wrong)),
  );

  it('covers every registered task with an answer to restate', () => {
    expect([...new Set(restatable.map((c) => c.task.id))]).toEqual(availableTasks().map((t) => t.id));
  });

  it('a canonical answer followed by a contradicting restatement, hedge or retraction is never a success', () => {
    fc.assert(
      fc.property(fc.constantFrom(...restatable), restatementArb, ({ task, instance, right, wrong }, form) => {
        const other = answerPart(task, wrong);
        const text = {
          boxed: `${right}\n\nSo the final answer is \\boxed{${other}}`,
          hedge: `${right} (or ${other}, if I misread a step)`,
          retraction: `${right}\n\nI made an error in my work: the correct answer is different from this.`,
          again: `${right}\n\nWait, that is not right. Redone:\n\n${wrong}`,
        }[form];
        const graded = task.grade(instance, text, { finishReason: 'stop' });
        expect(isSuccess(graded), `${task.id} ${form}`).toBe(false);
      }),
      { numRuns: 300 },
    );
  });

  // The JSON-object tasks (dual, agent) read the authors' FIRST object (docs/outputs.md): a later correct one
  // does not replace a wrong first one there; it only keeps a correct first one from counting.
  const lastAnswerCases = cases.filter((c) => !['dual', 'agent'].includes(c.task.id));

  it('a wrong answer followed by a correct restatement in another accepted form grades as the restatement', () => {
    fc.assert(
      fc.property(fc.constantFrom(...lastAnswerCases), ({ task, instance, right, wrong }) => {
        const graded = task.grade(instance, `${wrong}\n\nFinal answer: \\boxed{${answerPart(task, right)}}`);
        expect(isSuccess(graded), task.id).toBe(true);
      }),
      { numRuns: 150 },
    );
  });
});
