import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PyRandom } from '../../../src/rng/index.js';
import type { CcbInstance } from '../../../src/tasks/ccb/index.js';
import { closeBracket, closeDoubleBracket, scanSteps } from '../../../src/tasks/ccb/scan.js';
import type { CcbOutcome } from '../../../src/tasks/outcome.js';
import { resolveTask } from '../../../src/tasks/registry.js';
import type { AnyTaskPlugin } from '../../../src/tasks/task.js';

// Erased plugin types, as the registry hands them out.
const d1Task: AnyTaskPlugin = resolveTask('d1');
const d2Task: AnyTaskPlugin = resolveTask('d2');
const d3Task: AnyTaskPlugin = resolveTask('d3');

const tasks = { d1: d1Task, d2: d2Task, d3: d3Task } as const;
type TaskKey = keyof typeof tasks;

const instanceArb = fc
  .record({
    task: fc.constantFrom<TaskKey>('d1', 'd2', 'd3'),
    profile: fc.constantFrom('official', 'paper'),
    depth: fc.integer({ min: 1, max: 50 }),
    seed: fc.integer({ min: 0, max: 2_000_000 }),
    query: fc.boolean(),
  })
  .map(({ task, profile, depth, seed, query }) => {
    const useQuery = task === 'd3' && profile === 'paper' && query;
    const instance = tasks[task].generate(new PyRandom(seed), depth, { seed, profile, ...(useQuery ? { query } : {}) });
    return { plugin: tasks[task], instance: instance as CcbInstance };
  });

const summary = (o: CcbOutcome) => ({ kind: o.kind, kStar: o.kStar, tfbc: o.tfbc, answerCorrect: o.answerCorrect });

/** A state guaranteed to differ from `state` in the domain's own format. */
function corrupt(task: string, state: string): string {
  if (task === 'd1') return state.replace(/^\[\[(\d+), (\d+)/, '[[$2, $1');
  if (task === 'd2') return state.replace(/A=(\d)/, (_, v: string) => `A=${(Number(v) + 1) % 10}`);
  if (state === '[]') return '[AB:F]';
  return state.replace(/:(F|R)/, (_, t: string) => (t === 'F' ? ':R' : ':F'));
}

interface Layout {
  inner: string;
  entry: string;
  colon: string;
  answer: string;
  reorder: number;
}

const layoutArb: fc.Arbitrary<Layout> = fc.record({
  inner: fc.constantFrom('', ' ', '  ', '\t', ' \t '),
  entry: fc.constantFrom('', ' ', '\n', '\n  ', '\r\n', '\n\n'),
  colon: fc.constantFrom('', ' ', '  '),
  answer: fc.constantFrom(' ', '', '\n', '  \t'),
  reorder: fc.integer({ min: 0, max: 1000 }),
});

/** Rewrites one state with another layout: spacing, and (D2 keys, D3 pairs) a different item order. */
function relayoutState(task: string, state: string, layout: Layout): string {
  if (task === 'd1') return state.replace(/, /g, `,${layout.inner}`);
  if (!state.startsWith('[')) return state;
  const items = state.slice(1, -1).split(', ').filter(Boolean);
  const rotated = items.length > 0 ? items.map((_, i) => items[(i + layout.reorder) % items.length]) : items;
  const spaced = task === 'd2' ? rotated.map((it) => it.replace('=', `${layout.colon}=${layout.colon}`)) : rotated;
  return `[${layout.inner}${spaced.join(`,${layout.inner}`)}${layout.inner}]`;
}

function render(task: string, steps: readonly string[], answer: string, layout?: Layout): string {
  const state = (s: string) => (layout ? relayoutState(task, s, layout) : s);
  const colon = layout?.colon ?? '';
  const entries = steps.map((s, i) => `"Step ${i + 1}${colon}:${colon === '' ? ' ' : colon}${state(s)}"`);
  return `1. TRACE: [${entries.join(`,${layout?.entry ?? ' '}`)}]\n2. ANSWER:${layout?.answer ?? ' '}${state(answer)}`;
}

describe('CCB grading properties', () => {
  it('the canonical response of any instance grades correct with k* = −1', () => {
    fc.assert(
      fc.property(instanceArb, ({ plugin, instance }) => {
        const outcome = plugin.grade(instance, plugin.canonicalResponse(instance)) as CcbOutcome;
        expect(summary(outcome)).toEqual({ kind: 'correct', kStar: -1, tfbc: false, answerCorrect: true });
        expect(plugin.parse(plugin.canonicalResponse(instance)).ok).toBe(true);
      }),
      { numRuns: 150 },
    );
  });

  it('corrupting step k (answer kept) gives k* = k and TFBC; with the corrupted answer, not correct', () => {
    fc.assert(
      fc.property(instanceArb, fc.nat(), ({ plugin, instance }, pick) => {
        const k = (pick % instance.trace.length) + 1;
        const steps = instance.trace.map((s, i) => (i === k - 1 ? corrupt(plugin.id, s) : s));
        const lucky = plugin.grade(instance, render(plugin.id, steps, instance.answer)) as CcbOutcome;
        expect(summary(lucky)).toEqual({ kind: 'correct', kStar: k, tfbc: true, answerCorrect: true });
        if (instance.data && (instance.data as { answerMode?: string }).answerMode === 'query') return;
        const wrong = plugin.grade(
          instance,
          render(plugin.id, steps, corrupt(plugin.id, instance.answer)),
        ) as CcbOutcome;
        expect(wrong.kind).not.toBe('correct');
        expect(wrong.kStar).toBe(k);
      }),
      { numRuns: 150 },
    );
  });

  it('whitespace, line breaks between entries, D2 key order and D3 pair order never change a verdict', () => {
    fc.assert(
      fc.property(instanceArb, layoutArb, fc.nat(), fc.boolean(), ({ plugin, instance }, layout, pick, bad) => {
        const k = (pick % instance.trace.length) + 1;
        const steps = bad ? instance.trace.map((s, i) => (i >= k - 1 ? corrupt(plugin.id, s) : s)) : instance.trace;
        const answer = bad && !instance.answer.includes(':N') ? corrupt(plugin.id, instance.answer) : instance.answer;
        const plain = plugin.grade(instance, render(plugin.id, steps, answer)) as CcbOutcome;
        const moved = plugin.grade(instance, render(plugin.id, steps, answer, layout)) as CcbOutcome;
        expect(summary(moved)).toEqual(summary(plain));
      }),
      { numRuns: 200 },
    );
  });

  it('D2 paper profile keeps 7 distinct digits at every step', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 5_000_000 }), fc.integer({ min: 1, max: 60 }), (seed, depth) => {
        const instance = d2Task.generate(new PyRandom(seed), depth, { seed, profile: 'paper' });
        for (const state of instance.trace) {
          const digits = state.match(/\d/g) ?? [];
          expect(digits).toHaveLength(7);
          expect(new Set(digits).size).toBe(7);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('the simulator at retention 1 answers exactly the canonical response', () => {
    fc.assert(
      fc.property(instanceArb, fc.nat(), ({ plugin, instance }, s) => {
        const text = plugin.simulate(instance, new PyRandom(s), { retention: 1, recover: 0, capacity: 0 });
        expect(text).toBe(plugin.canonicalResponse(instance));
      }),
      { numRuns: 60 },
    );
  });

  it('grading arbitrary text never throws and always yields a valid CCB outcome', () => {
    const fragments = [
      'Step 1:',
      'Step 2: [[',
      '[A=',
      'ANSWER:',
      'TRACE',
      ']]',
      ']',
      '[',
      'AB:F',
      'BA:R',
      ',',
      ' ',
      '\n',
    ];
    const textArb = fc.oneof(
      fc.string(),
      fc.array(fc.constantFrom(...fragments), { maxLength: 60 }).map((a) => a.join('')),
    );
    fc.assert(
      fc.property(instanceArb, textArb, ({ plugin, instance }, text) => {
        const o = plugin.grade(instance, text) as CcbOutcome;
        expect(['correct', 'reasoning', 'constraint', 'format', 'truncation', 'api']).toContain(o.kind);
        expect(o.tfbc).toBe(o.answerCorrect && o.kStar !== -1);
      }),
      { numRuns: 300 },
    );
  });
});

// Timing of the same inputs (ms per size): bench/linearity-suite.ts, `npx tsx bench/run.ts --only linearity`.
describe('parsers on adversarial input', () => {
  const adversarial = [
    'Step 1: [[',
    'Step 12:[A=',
    'step 3 -',
    'Step 4: [ [1, 2',
    '] ',
    ']',
    '[[',
    'ANSWER:',
    'ANSWER - ',
    'AB:F, ',
    'BA :  R ',
    'AK:F',
    ' -> ',
    'is  correct ',
    'A=1, ',
    'TRACE',
    '   ',
    '\t',
    'P01P02:F',
    '\n',
  ];
  const textArb = (min: number, max: number) =>
    fc
      .record({
        motif: fc.array(fc.constantFrom(...adversarial), { minLength: 1, maxLength: 12 }),
        size: fc.integer({ min, max }),
        oneLine: fc.boolean(),
      })
      .map(({ motif, size, oneLine }) => {
        const unit = oneLine ? motif.join('').replace(/\n/g, ' ') : motif.join('');
        return unit.repeat(Math.ceil(size / unit.length));
      });
  const deepest = [d1Task, d2Task, d3Task].map((task) => ({
    task,
    instance: task.generate(new PyRandom(500000), 50, { seed: 500000 }),
  }));

  it('grades ~100k–400k characters of repeated motifs to a classified outcome', () => {
    fc.assert(
      fc.property(textArb(100_000, 400_000), (text) => {
        for (const { task, instance } of deepest) {
          const o = task.grade(instance, text) as CcbOutcome;
          expect(['correct', 'reasoning', 'constraint', 'format', 'truncation'], task.id).toContain(o.kind);
          expect(o.tfbc).toBe(o.answerCorrect && o.kStar !== -1);
        }
      }),
      { numRuns: 12 },
    );
  });

  /**
   * scanSteps with `closeAt` counted (the work past each header, the part the release's lazy regex repeats):
   * at most one call per character, and a super-linear scan fails at the first call over, not after it ends.
   */
  function expectOnePass(text: string, header: RegExp, closeAt: (text: string, index: number) => number): void {
    let calls = 0;
    scanSteps(text, header, (t, i) => {
      if (++calls > text.length) throw new Error(`closeAt called more than ${text.length} times`);
      return closeAt(t, i);
    });
  }
  // The D1 and D2 step headers (src/tasks/ccb/d1/parse.ts, d2/parse.ts).
  const D1_HEADER = /step\s*\d+\s*:\s*\[[ \t]*\[/gi;
  const D2_HEADER = /step\s*\d+\s*:\s*\[\s*[A-Za-z_]+\s*=/gi;

  it('the step scanner reads past a header at most once per character (no rescan of an unclosed line)', () => {
    fc.assert(
      fc.property(textArb(1_000, 20_000), (text) => {
        expectOnePass(text, D1_HEADER, closeDoubleBracket);
        expectOnePass(text, D2_HEADER, closeBracket);
      }),
      { numRuns: 200 },
    );
  });

  it('a single line of 40,000 unclosed step headers (quadratic for the naive release regex): one pass, not correct', () => {
    const text = `TRACE ${'Step 1: [[Step 2: [A='.repeat(40_000)}`;
    // A rescan from every header to the end of the line would be 40,000 × ~440,000 calls.
    expectOnePass(text, D1_HEADER, closeDoubleBracket);
    expectOnePass(text, D2_HEADER, closeBracket);
    for (const task of [d1Task, d2Task, d3Task]) {
      const instance = task.generate(new PyRandom(50000), 5, { seed: 50000 });
      const outcome = task.grade(instance, text) as CcbOutcome;
      expect(outcome.kind).not.toBe('correct');
    }
  });
});
