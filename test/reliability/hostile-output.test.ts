import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isSuccess, type TrialOutcome, trialOutcomeSchema } from '../../src/tasks/outcome.js';
import { availableTasks, resolveTask } from '../../src/tasks/registry.js';
import type { AnyTaskPlugin } from '../../src/tasks/task.js';
import {
  hostileSubjects,
  hostileTextArb,
  LARGE_SHAPES,
  type HostileSubject as Subject,
  TEN_MB_SHAPES,
} from './hostile-inputs.js';

/**
 * Scenario 1 (RELIABILITY.md): every registered task's parser and grader, on hostile model output, never
 * throws and always returns a classified (schema-valid, non-`api`) outcome, up to 10 MB of input. How the grade
 * time grows with the input (t(10·n)/t(n) per task and shape, with a quadratic control) is measured by
 * bench/linearity-suite.ts (`npx tsx bench/run.ts --only linearity`), not asserted here: a unit test holds no
 * wall-clock threshold.
 */

const MB = 1024 * 1024;

const SUBJECTS = hostileSubjects();

function expectClassified(task: AnyTaskPlugin, outcome: TrialOutcome): void {
  const parsed = trialOutcomeSchema.safeParse(outcome);
  expect(parsed.success, parsed.success ? '' : JSON.stringify(parsed.error.issues[0])).toBe(true);
  expect(outcome.family).toBe(task.family);
  // a response was received, so it is never missing data
  expect(outcome.kind).not.toBe('api');
}

function gradeAndParse(subject: Subject, text: string): TrialOutcome {
  const result = subject.task.parse(text);
  expect(typeof result.ok).toBe('boolean');
  if (!result.ok) expect(typeof result.reason).toBe('string');
  return subject.task.grade(subject.instance, text, { finishReason: 'stop' });
}

const grade = (subject: Subject, text: string): TrialOutcome =>
  subject.task.grade(subject.instance, text, { finishReason: 'stop' });

describe('hostile output: every registered parser and grader', () => {
  it('covers every task of the registry', () => {
    expect(SUBJECTS.map((s) => s.task.id)).toEqual(availableTasks().map((t) => t.id));
    expect(SUBJECTS.length).toBeGreaterThanOrEqual(12);
    for (const s of SUBJECTS) expect(resolveTask(s.task.id)).toBe(s.task);
  });

  it.each(SUBJECTS.map((s) => [s.task.id, s] as const))('%s: the canonical answer is a success', (_, subject) => {
    const outcome = gradeAndParse(subject, subject.canonical);
    expectClassified(subject.task, outcome);
    expect(isSuccess(outcome), JSON.stringify(outcome.issues)).toBe(true);
  });

  it.each(SUBJECTS.map((s) => [s.task.id, s] as const))(
    '%s: never throws on random unicode, near misses, deep nesting and ReDoS shapes',
    (_, subject) => {
      fc.assert(
        fc.property(hostileTextArb(subject.canonical), (text) => {
          expectClassified(subject.task, gradeAndParse(subject, text));
        }),
        { numRuns: 120, seed: 42 },
      );
    },
  );

  it.each(SUBJECTS.map((s) => [s.task.id, s] as const))('%s: classifies every hostile shape at 1 MB', (id, subject) => {
    for (const [shape, build] of Object.entries(LARGE_SHAPES)) {
      const text = build(MB, subject.canonical);
      expect(text.length, `${id} ${shape}`).toBe(MB);
      expectClassified(subject.task, grade(subject, text));
    }
  });

  // The 10 MB step on the shapes that cost the most per byte (deep nesting is checked to 1 MB here, and to depth
  // 5000 by the property above).
  it.each(SUBJECTS.map((s) => [s.task.id, s] as const))(
    '%s: classifies 10 MB of the costliest shapes',
    (id, subject) => {
      for (const shape of TEN_MB_SHAPES) {
        const text = LARGE_SHAPES[shape](10 * MB, subject.canonical);
        expect(text.length, `${id} ${shape}`).toBe(10 * MB);
        expectClassified(subject.task, grade(subject, text));
      }
    },
  );
});
