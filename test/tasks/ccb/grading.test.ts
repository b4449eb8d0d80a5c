import { describe, expect, it } from 'vitest';
import { PyRandom } from '../../../src/rng/index.js';
import type { CcbInstance } from '../../../src/tasks/ccb/index.js';
import type { CcbOutcome } from '../../../src/tasks/outcome.js';
import { resolveTask } from '../../../src/tasks/registry.js';
import type { AnyTaskPlugin, GradeContext } from '../../../src/tasks/task.js';

// Erased plugin types, as the registry hands them out.
const d1Task: AnyTaskPlugin = resolveTask('d1');
const d2Task: AnyTaskPlugin = resolveTask('d2');
const d3Task: AnyTaskPlugin = resolveTask('d3');

const gen = (task: AnyTaskPlugin, seed: number, depth: number, profile = 'official', query = false): CcbInstance =>
  task.generate(new PyRandom(seed), depth, { seed, profile, ...(query ? { query } : {}) });

/** A response in the requested format from explicit step states and an answer (null: no ANSWER line). */
const respond = (steps: readonly string[], answer: string | null): string =>
  `1. TRACE: [${steps.map((s, i) => `"Step ${i + 1}: ${s}"`).join(', ')}]${answer === null ? '' : `\n2. ANSWER: ${answer}`}`;

const summary = (o: CcbOutcome) => ({ kind: o.kind, kStar: o.kStar, tfbc: o.tfbc, answerCorrect: o.answerCorrect });

function grade(task: AnyTaskPlugin, instance: CcbInstance, text: string, context?: GradeContext) {
  const outcome = task.grade(instance, text, context) as CcbOutcome;
  expect(outcome.family).toBe('ccb');
  return outcome;
}

describe('D1 hand-written responses (N=5, seed 50000)', () => {
  const inst = gen(d1Task, 50000, 5);
  const t = inst.trace;
  const flip = '[[3, 2, 1], [6, 5, 4], [9, 8, 7]]';

  it('exact → correct, k* = −1, no TFBC; compact or spread-out layout gives the same verdict', () => {
    expect(summary(grade(d1Task, inst, respond(t, inst.answer)))).toEqual({
      kind: 'correct',
      kStar: -1,
      tfbc: false,
      answerCorrect: true,
    });
    const spread = `1. TRACE: [\n${t.map((s, i) => `  "Step ${i + 1} :  ${s.replace(/ /g, '')}"`).join(',\n')}\n]\n\n2. ANSWER:\n${inst.answer}`;
    expect(summary(grade(d1Task, inst, spread))).toEqual(summary(grade(d1Task, inst, respond(t, inst.answer))));
  });

  it('lucky guess: divergent trace, right answer → correct with TFBC at the first divergent step', () => {
    const steps = [t[0], flip, flip, flip, flip];
    expect(summary(grade(d1Task, inst, respond(steps, inst.answer)))).toEqual({
      kind: 'correct',
      kStar: 2,
      tfbc: true,
      answerCorrect: true,
    });
  });

  it('divergence at step k with a wrong answer → reasoning, k* = k', () => {
    for (const k of [1, 3, 5]) {
      const steps = t.map((s, i) => (i + 1 >= k ? flip : s));
      const o = grade(d1Task, inst, respond(steps, flip));
      expect(summary(o)).toEqual({ kind: 'reasoning', kStar: k, tfbc: false, answerCorrect: false });
      expect(o.issues.join(' ')).toContain(`step ${k}`);
    }
  });

  it('out-of-range value / collision: constraint in the paper profile, reasoning in official', () => {
    const bad = '[[10, 8, 7], [6, 5, 4], [3, 2, 1]]';
    const steps = [bad, ...t.slice(1)];
    expect(summary(grade(d1Task, inst, respond(steps, bad)))).toMatchObject({ kind: 'reasoning', kStar: 1 });
    const paper = gen(d1Task, 50000, 5, 'paper');
    const o = grade(d1Task, paper, respond(steps, bad));
    expect(summary(o)).toEqual({ kind: 'constraint', kStar: 1, tfbc: false, answerCorrect: false });
    expect(o.issues[0]).toMatch(/grid integrity/);
    const collision = '[[9, 9, 7], [6, 5, 4], [3, 2, 1]]';
    expect(grade(d1Task, paper, respond([collision, ...t.slice(1)], flip)).kind).toBe('constraint');
  });

  it('prose instead of a trace → format', () => {
    const o = grade(
      d1Task,
      inst,
      'The grid ends up rotated a few times; I believe the final layout is mostly reversed.',
    );
    // No step could be read: k* is undefined (−1), not "divergent at step 1".
    expect(summary(o)).toEqual({ kind: 'format', kStar: -1, tfbc: false, answerCorrect: false });
    expect(o.traceReadable).toBe(false);
    expect(o.issues.join(' ')).toMatch(/no trace step/);
  });

  it('a cut-off trace → truncation with k* at the first missing step; finish reason length → truncation', () => {
    const cut = `1. TRACE: ["Step 1: ${t[0]}", "Step 2: ${t[1]}", "Step 3: ${t[2]}", "Step 4: [[7, 4, 1], [2,`;
    expect(summary(grade(d1Task, inst, cut))).toEqual({
      kind: 'truncation',
      kStar: 4,
      tfbc: false,
      answerCorrect: false,
    });
    const full = respond(t, null);
    expect(grade(d1Task, inst, full, { finishReason: 'length' }).kind).toBe('truncation');
    expect(grade(d1Task, inst, full, { finishReason: 'stop' }).kind).toBe('format');
  });

  it('release format rules: TRACE within the first 50 characters; a grid split over lines is not a step', () => {
    const preamble = `Sure! Here is the careful, step-by-step solution to the task:\n${respond(t, flip)}`;
    expect(grade(d1Task, inst, preamble, { reading: 'authors' }).kind).toBe('format');
    // the symmetric rule counts a readable final answer whatever the preamble: the issue stays a note
    const counted = grade(d1Task, inst, preamble);
    expect(counted.kind).toBe('reasoning');
    expect(counted.issues.join(' ')).toMatch(/'TRACE' does not appear within the first 50 characters/);
    expect(
      grade(d1Task, inst, `Sure! Here is the careful, step-by-step solution:\n${respond(t, inst.answer)}`).kind,
    ).toBe('correct');
    const split = respond(
      t.map((s) => s.replace('], [', '],\n[')),
      inst.answer,
    );
    // TFBC is defined over parseable traces only: an unreadable trace is reported, never a lucky guess.
    const unread = grade(d1Task, inst, split);
    expect(summary(unread)).toMatchObject({ kind: 'correct', kStar: -1, tfbc: false });
    expect(unread.traceReadable).toBe(false);
    expect(unread.issues.join(' ')).toMatch(/trace unreadable/);
  });

  it('empty output → format (a model output, never missing data); cut by the token limit → truncation', () => {
    expect(summary(grade(d1Task, inst, '  \n'))).toEqual({
      kind: 'format',
      kStar: -1,
      tfbc: false,
      answerCorrect: false,
    });
    expect(grade(d1Task, inst, '', { finishReason: 'length' }).kind).toBe('truncation');
  });
});

describe('D2 hand-written responses', () => {
  const inst = gen(d2Task, 100000, 10);
  const t = inst.trace;

  it('the release ground truth with repeated digits grades correct in official (no uniqueness rule)', () => {
    expect(t[4]).toBe('[A=6, B=7, C=7, D=3, E=8, F=4, G=5]');
    expect(summary(grade(d2Task, inst, respond(t, inst.answer)))).toEqual({
      kind: 'correct',
      kStar: -1,
      tfbc: false,
      answerCorrect: true,
    });
  });

  it('key order and whitespace do not matter', () => {
    const reorder = (s: string) => `[ ${s.slice(1, -1).split(', ').reverse().join(' ,  ')} ]`;
    const text = respond(t.map(reorder), reorder(inst.answer));
    expect(summary(grade(d2Task, inst, text))).toMatchObject({ kind: 'correct', kStar: -1 });
  });

  it('an out-of-range value (D=10) → constraint at that step', () => {
    const steps = [...t];
    steps[2] = '[A=6, B=7, C=1, D=10, E=8, F=4, G=5]';
    const o = grade(d2Task, inst, respond(steps, '[A=7, B=8, C=2, D=9, E=4, F=5, G=6]'));
    expect(summary(o)).toEqual({ kind: 'constraint', kStar: 3, tfbc: false, answerCorrect: false });
    expect(o.issues[0]).toMatch(/D=10 is outside 0-9/);
  });

  it('lucky guess and divergence', () => {
    const steps = [...t];
    steps[5] = '[A=5, B=7, C=7, D=3, E=8, F=4, G=9]';
    expect(summary(grade(d2Task, inst, respond(steps, inst.answer)))).toEqual({
      kind: 'correct',
      kStar: 6,
      tfbc: true,
      answerCorrect: true,
    });
    expect(summary(grade(d2Task, inst, respond(steps, steps[5])))).toEqual({
      kind: 'reasoning',
      kStar: 6,
      tfbc: false,
      answerCorrect: false,
    });
  });

  it('paper profile: an illegal re-assignment (repeated digit) → constraint; the same text is reasoning in official', () => {
    const paper = gen(d2Task, 50000, 5, 'paper');
    const steps = [...paper.trace];
    steps[3] = '[A=7, B=1, C=2, D=2, E=4, F=5, G=6]';
    const text = respond(steps, steps[3]);
    const o = grade(d2Task, paper, text);
    expect(summary(o)).toEqual({ kind: 'constraint', kStar: 4, tfbc: false, answerCorrect: false });
    expect(o.issues[0]).toMatch(/uniqueness: C and D both hold 2/);
    const officialTwin = { ...paper, profile: 'official' as const };
    expect(grade(d2Task, officialTwin, text).kind).toBe('reasoning');
  });

  it('release format rules: prose inside the trace, a malformed step, a lower-case TRACE keyword', () => {
    const prose = respond(t, inst.answer).replace('"Step 3:', '"Step 3: D becomes 2 so the state is');
    expect(grade(d2Task, inst, prose).kind).toBe('correct');
    const proseWrong = respond(t, t[0]).replace('", "Step 3:', ' -> then", "Step 3:');
    const malformed = respond([...t.slice(0, 9), '[A=7, B=8, C=2]'], t[0]);
    const lower = respond(t, t[0]).replace('TRACE', 'trace');
    const authors: GradeContext = { reading: 'authors' };
    for (const text of [proseWrong, malformed, lower]) {
      // the release's precedence: a wrong answer behind a trace format issue is Format
      expect(grade(d2Task, inst, text, authors).kind).toBe('format');
      // the symmetric rule: the final answer is readable, so the trial counts; the trace issue is a note
      expect(grade(d2Task, inst, text).kind).toBe('reasoning');
    }
  });

  it('prose instead of a trace → format; a cut-off trace → truncation', () => {
    expect(grade(d2Task, inst, 'After all ten operations the registers end at A=7, B=8 and so on.').kind).toBe(
      'format',
    );
    const cut = respond(t.slice(0, 6), null).slice(0, -1);
    expect(summary(grade(d2Task, inst, cut))).toEqual({
      kind: 'truncation',
      kStar: 7,
      tfbc: false,
      answerCorrect: false,
    });
  });
});

describe('D3 hand-written responses (N=5, seed 50000)', () => {
  const inst = gen(d3Task, 50000, 5);
  const t = inst.trace;

  it('exact, and pair order within a state does not matter', () => {
    expect(summary(grade(d3Task, inst, respond(t, inst.answer)))).toMatchObject({ kind: 'correct', kStar: -1 });
    const shuffled = (s: string) => `[${s.slice(1, -1).split(', ').reverse().join(',')}]`;
    expect(summary(grade(d3Task, inst, respond(t.map(shuffled), shuffled(inst.answer))))).toMatchObject({
      kind: 'correct',
      kStar: -1,
    });
  });

  it('an unordered pair (HA) → constraint; with the right answer it is still correct, with TFBC', () => {
    const steps = ['[HA:F]', ...t.slice(1)];
    const wrong = '[AH:F, EG:R]';
    const o = grade(d3Task, inst, respond(steps, wrong));
    expect(summary(o)).toEqual({ kind: 'constraint', kStar: 1, tfbc: false, answerCorrect: false });
    expect(o.issues[0]).toMatch(/HA is not in alphabetical order/);
    expect(summary(grade(d3Task, inst, respond(steps, inst.answer)))).toEqual({
      kind: 'correct',
      kStar: 1,
      tfbc: true,
      answerCorrect: true,
    });
  });

  it('a self pair, a pair repeated within a step, a malformed pair → constraint', () => {
    const wrong = '[AH:F]';
    for (const bad of ['[AA:F]', '[AH:F, AH:R, EG:R]', '[AH:F, EK:R]']) {
      const steps = [t[0], bad, ...t.slice(2)];
      expect(grade(d3Task, inst, respond(steps, wrong)).kind, bad).toBe('constraint');
    }
  });

  it('a missed closure edge at step 4 → reasoning with k* = 4', () => {
    const missed = '[AH:F, DE:F, DG:R, EG:R, HI:F]';
    const steps = [...t.slice(0, 3), missed, '[AF:R, AH:F, DE:F, DG:R, EG:R, FH:R, FI:R, HI:F]'];
    expect(summary(grade(d3Task, inst, respond(steps, steps[4])))).toEqual({
      kind: 'reasoning',
      kStar: 4,
      tfbc: false,
      answerCorrect: false,
    });
  });

  it('prose instead of a trace → format; a cut-off trace → truncation', () => {
    expect(grade(d3Task, inst, 'Everyone is allied with everyone else in the end.').kind).toBe('format');
    const cut = respond(t.slice(0, 2), null);
    expect(summary(grade(d3Task, inst, cut))).toEqual({
      kind: 'truncation',
      kStar: 3,
      tfbc: false,
      answerCorrect: false,
    });
  });

  it('Var B slot labels parse as the same pairs', () => {
    const slot = (s: string) =>
      s.replace(/\b([A-J])([A-J]):/g, (_, x: string, y: string) => {
        const p = (c: string) => `P${String(c.charCodeAt(0) - 64).padStart(2, '0')}`;
        return `${p(x)}${p(y)}:`;
      });
    expect(summary(grade(d3Task, inst, respond(t.map(slot), slot(inst.answer))))).toMatchObject({
      kind: 'correct',
      kStar: -1,
    });
  });

  it('paper query mode: the answer is the query token; a wrong relation is reasoning', () => {
    const q = gen(d3Task, 100000, 10, 'paper', true);
    expect(grade(d3Task, q, respond(q.trace, 'AH:F')).kind).toBe('correct');
    expect(summary(grade(d3Task, q, respond(q.trace, 'AH:R')))).toMatchObject({ kind: 'reasoning', kStar: -1 });
    expect(grade(d3Task, q, respond(q.trace, 'HA:F')).kind).toBe('constraint');
    expect(grade(d3Task, q, respond(q.trace, 'neutral')).kind).toBe('format');
  });
});
