import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PyRandom } from '../../src/rng/index.js';
import { isSuccess, type TrialOutcome, trialOutcomeSchema } from '../../src/tasks/outcome.js';
import { availableTasks, resolveTask } from '../../src/tasks/registry.js';
import type { AnyTaskPlugin, GradeContext, TaskInstance } from '../../src/tasks/task.js';
import { hostileTextArb, LARGE_SHAPES } from './hostile-inputs.js';

/**
 * Scenario 1 (RELIABILITY.md): every registered task's parser and grader, on hostile model output,
 * never throws, always returns a classified (schema-valid, non-`api`) outcome, and takes time linear in
 * the input: the ratio t(10·n)/t(n) is compared against 10 (linear), with < 30 as the bound, so that a
 * slow machine does not fail it but a quadratic parser (ratio ≈ 100) does.
 */

const KB = 1024;
const MB = KB * KB;
/** Ratio bound for a 10× larger input: linear is 10, quadratic 100. */
const MAX_RATIO = 30;
/** Times below this are timer noise; a denominator is floored to it so a fast parser cannot fail on jitter. */
const FLOOR_MS = 5;

interface Subject {
  task: AnyTaskPlugin;
  instance: TaskInstance;
  canonical: string;
}

/** One generated instance per registered task, at its second level (small but not trivial). */
function subjects(): Subject[] {
  return availableTasks().map((task) => {
    const level = task.levels.values[Math.min(1, task.levels.values.length - 1)];
    const seed = 20_251_129;
    const instance = task.generate(new PyRandom(seed), level, { seed, profile: task.profiles[0] });
    return { task, instance, canonical: task.canonicalResponse(instance) };
  });
}

const SUBJECTS = subjects();

function expectClassified(task: AnyTaskPlugin, outcome: TrialOutcome): void {
  const parsed = trialOutcomeSchema.safeParse(outcome);
  expect(parsed.success, parsed.success ? '' : JSON.stringify(parsed.error.issues[0])).toBe(true);
  expect(outcome.family).toBe(task.family);
  // a response was received, so it is never missing data
  expect(outcome.kind).not.toBe('api');
}

/** Measured ratios, as Markdown table rows for RELIABILITY.md (printed with CEILINGBENCH_PRINT_TIMINGS=1). */
const measured: string[] = [];

function gradeAndParse(subject: Subject, text: string): TrialOutcome {
  const result = subject.task.parse(text);
  expect(typeof result.ok).toBe('boolean');
  if (!result.ok) expect(typeof result.reason).toBe('string');
  return subject.task.grade(subject.instance, text, { finishReason: 'stop' });
}

function timeOnce(subject: Subject, text: string): { ms: number; outcome: TrialOutcome } {
  const start = performance.now();
  const outcome = subject.task.grade(subject.instance, text, { finishReason: 'stop' });
  return { ms: performance.now() - start, outcome };
}

/**
 * t(large)/t(small) from interleaved samples (min of each), so both sizes see the same machine load. A
 * ratio above the bound is measured again (up to twice): a super-linear parser fails every time, noise does not.
 */
function linearity(subject: Subject, shape: string, small: string, large: string, samples: number): number {
  let ratio = Number.POSITIVE_INFINITY;
  let times: [number, number] = [0, 0];
  for (let round = 0; round < 3 && ratio >= MAX_RATIO; round++) {
    let t1 = Number.POSITIVE_INFINITY;
    let t2 = Number.POSITIVE_INFINITY;
    for (let i = 0; i < samples; i++) {
      t1 = Math.min(t1, timeOnce(subject, small).ms);
      const big = timeOnce(subject, large);
      expectClassified(subject.task, big.outcome);
      t2 = Math.min(t2, big.ms);
    }
    ratio = Math.min(ratio, t2 / Math.max(t1, FLOOR_MS));
    times = [t1, t2];
  }
  const size = (n: number) => (n >= MB ? `${n / MB} MB` : `${n / KB} KB`);
  measured.push(
    `| ${subject.task.id} | ${shape} | ${size(small.length)} → ${size(large.length)} | ${times[0].toFixed(1)} → ${times[1].toFixed(1)} ms | ${ratio.toFixed(1)} |`,
  );
  return ratio;
}

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

  it.each(SUBJECTS.map((s) => [s.task.id, s] as const))(
    '%s: grade time grows linearly from 100 KB to 1 MB on every hostile shape',
    (id, subject) => {
      for (const [shape, build] of Object.entries(LARGE_SHAPES)) {
        const ratio = linearity(subject, shape, build(100 * KB, subject.canonical), build(MB, subject.canonical), 3);
        expect(ratio, `${id} ${shape}: t(1 MB)/t(100 KB)`).toBeLessThan(MAX_RATIO);
      }
    },
  );

  // The 10 MB step on the shapes that cost the most per byte: noise, unclosed step headers, unclosed answers (deep
  // nesting is checked to 1 MB here, and to depth 5000 by the property above).
  const TEN_MB_SHAPES = ['unicode-noise', 'unclosed-headers', 'unclosed-answer'] as const;
  it.each(SUBJECTS.map((s) => [s.task.id, s] as const))(
    '%s: grade time grows linearly from 1 MB to 10 MB',
    (id, subject) => {
      for (const shape of TEN_MB_SHAPES) {
        const build = LARGE_SHAPES[shape];
        const ratio = linearity(subject, shape, build(MB, subject.canonical), build(10 * MB, subject.canonical), 2);
        expect(ratio, `${id} ${shape}: t(10 MB)/t(1 MB)`).toBeLessThan(MAX_RATIO);
      }
    },
  );

  it('the measurement itself flags a quadratic grader (control)', () => {
    // rescans the rest of the text from every 16th position, as a lazy regex under findall would
    const quadratic = {
      ...SUBJECTS[0],
      task: {
        ...SUBJECTS[0].task,
        grade: (instance: TaskInstance, text: string, context?: GradeContext) => {
          let found = 0;
          for (let i = 0; i < text.length; i += 16) found += text.indexOf('\u0007', i) >= 0 ? 1 : 0;
          return SUBJECTS[0].task.grade(instance, found > 0 ? text : '', context);
        },
      },
    };
    const build = LARGE_SHAPES['unicode-noise'];
    expect(linearity(quadratic, 'control: quadratic', build(100 * KB, ''), build(MB, ''), 2)).toBeGreaterThan(
      MAX_RATIO,
    );
  });

  it('prints the measured time ratios', () => {
    if (process.env.CEILINGBENCH_PRINT_TIMINGS)
      process.stdout.write(`| task | shape | sizes | min grade time | ratio |\n${measured.join('\n')}\n`);
    expect(measured.length).toBeGreaterThan(0);
  });
});
