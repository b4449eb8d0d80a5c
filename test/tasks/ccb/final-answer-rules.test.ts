import { describe, expect, it } from 'vitest';
import { PyRandom } from '../../../src/rng/index.js';
import type { CcbInstance } from '../../../src/tasks/ccb/index.js';
import type { CcbOutcome } from '../../../src/tasks/outcome.js';
import { resolveTask } from '../../../src/tasks/registry.js';
import type { GradeContext } from '../../../src/tasks/task.js';

// Issue 27's defect classes on CCB at N = 10, one by one, on the registered plugins: cut-offs mid-reconsideration,
// answers restated, retracted or hedged after the ANSWER block, and the notations that deflated correct answers.
const N = 10;
const ids = ['d1', 'd2', 'd3'] as const;
const gen = (id: string): CcbInstance =>
  resolveTask(id).generate(new PyRandom(50000), N, { seed: 50000, profile: 'official' });
const grade = (id: string, instance: CcbInstance, text: string, context?: GradeContext): CcbOutcome =>
  resolveTask(id).grade(instance, text, context) as CcbOutcome;

const trace = (steps: readonly string[], from = 1): string =>
  `1. TRACE: [${steps.map((s, i) => `"Step ${i + from}: ${s}"`).join(', ')}]`;
const respond = (steps: readonly string[], answer: string): string => `${trace(steps)}\n2. ANSWER: ${answer}`;

/** A state that differs from `state` in the domain's own format. */
function corrupt(id: string, state: string): string {
  if (id === 'd1') return state.replace(/^\[\[(\d+), (\d+)/, '[[$2, $1');
  if (id === 'd2') return state.replace(/A=(\d)/, (_, v: string) => `A=${(Number(v) + 1) % 10}`);
  if (state === '[]') return '[AB:F]';
  return state.replace(/:(F|R)/, (_, t: string) => (t === 'F' ? ':R' : ':F'));
}

/** The initial state a model may write as `Step 0`. */
const INITIAL: Record<(typeof ids)[number], string> = {
  d1: '[[1, 2, 3], [4, 5, 6], [7, 8, 9]]',
  d2: '[A=1, B=2, C=3, D=4, E=5, F=6, G=7]',
  d3: '[]',
};

const RECONSIDER = 'Wait, let me double-check step 2 because the rotation';

describe.each(ids)('%s at N = 10: the final answer is the last one, and only a final one', (id) => {
  const inst = gen(id);
  const right = respond(inst.trace, inst.answer);
  const wrongAnswer = corrupt(id, inst.answer);
  const wrong = respond(inst.trace, wrongAnswer);

  it('cut off at length while reconsidering a correct answer: Truncation, not Correct (and alike for a wrong one)', () => {
    for (const text of [`${right}\n\n${RECONSIDER}`, `${wrong}\n\n${RECONSIDER}`]) {
      const o = grade(id, inst, text, { finishReason: 'length' });
      expect(o).toMatchObject({ kind: 'truncation', answerCorrect: false, answerParsed: false, tfbc: false });
      expect(o.issues.join(' ')).toMatch(/cut off at the token limit while still writing after the answer/);
    }
    // No finish reason: a reconsideration on a later line that ends mid-sentence is a cut-off too.
    expect(grade(id, inst, `${right}\n\n${RECONSIDER}`, { finishReason: null }).kind).toBe('truncation');
    expect(grade(id, inst, `${right}\n\n${RECONSIDER}`).kind).toBe('truncation');
    // The model stopped by itself: the answer stands.
    expect(grade(id, inst, `${right}\n\n${RECONSIDER}.`, { finishReason: 'stop' }).kind).toBe('correct');
    expect(grade(id, inst, `${right}\n\nWait, let me double-check step 2. Yes, it holds.`).kind).toBe('correct');
  });

  it('a complete answer that ends the output at length is still graded, right or wrong', () => {
    expect(grade(id, inst, right, { finishReason: 'length' })).toMatchObject({ kind: 'correct', kStar: -1 });
    // The symmetric rule: the answer is readable, complete and final, so the trial counts whatever it says.
    expect(grade(id, inst, wrong, { finishReason: 'length' }).kind).toBe('reasoning');
    // The authors' precedence (correct → format → truncation → …) sets the wrong one aside.
    expect(grade(id, inst, wrong, { finishReason: 'length', reading: 'authors' }).kind).toBe('truncation');
  });

  it('a \\boxed{…} restatement after the ANSWER block replaces it', () => {
    const boxedWrong = grade(id, inst, `${right}\n\nSo the final state is $\\boxed{${wrongAnswer}}$`);
    expect(boxedWrong).toMatchObject({ kind: 'reasoning', answerCorrect: false });
    const boxedRight = grade(id, inst, `${wrong}\n\nCorrection of the last line: \\boxed{${inst.answer}}`);
    expect(boxedRight).toMatchObject({ kind: 'correct', kStar: -1 });
  });

  it('a prose retraction after the ANSWER block is Format (its final answer is not readable), never Correct', () => {
    const retraction = 'I made an error in step 4; the correct final state is the one with the first two swapped.';
    for (const text of [`${right}\n\n${retraction}`, `${wrong}\n\n${retraction}`]) {
      const o = grade(id, inst, text, { finishReason: 'stop' });
      expect(o).toMatchObject({ kind: 'format', answerCorrect: false, answerParsed: false });
      expect(o.issues.join(' ')).toMatch(/taken back after it \('I made an error'\)/);
    }
  });

  it('an answer hedged with a second one is Reasoning (no single final answer), never Correct', () => {
    const hedged = grade(id, inst, `${right} (or ${wrongAnswer}, if step 3 goes the other way)`);
    expect(hedged).toMatchObject({ kind: 'reasoning', answerCorrect: false, answerParsed: true });
    expect(hedged.issues.join(' ')).toMatch(/hedged/);
    expect(grade(id, inst, `${right}\nOr possibly ${wrongAnswer}.`).kind).toBe('reasoning');
    // A remark that merely starts with such a word offers no second answer.
    expect(grade(id, inst, `${right}\nPossibly worth noting: every step was checked twice.`).kind).toBe('correct');
  });

  it('LaTeX display delimiters around the answer are stripped', () => {
    for (const [open, close] of [
      ['\\[ ', ' \\]'],
      ['$$', '$$'],
      ['\\(', '\\)'],
      ['$', '$'],
    ]) {
      const text = `${trace(inst.trace)}\n2. ANSWER: ${open}${inst.answer}${close}`;
      expect(grade(id, inst, text), `${open}…${close}`).toMatchObject({ kind: 'correct', kStar: -1 });
    }
    const display = `${trace(inst.trace)}\n2. ANSWER:\n\\[\n${inst.answer}\n\\]`;
    expect(grade(id, inst, display).kind).toBe('correct');
  });

  it('a later lower-case "my first answer: …" is a mention, not the last ANSWER block', () => {
    const o = grade(id, inst, `${right}\n\n(For the record, my first answer: ${wrongAnswer} was a slip.)`);
    expect(o).toMatchObject({ kind: 'correct', kStar: -1 });
    expect(o.issues).toEqual([]);
    // Without any upper-case keyword, the release's case-insensitive reading still finds the answer.
    expect(grade(id, inst, `${trace(inst.trace)}\nAnswer: ${inst.answer}`).answerParsed).toBe(true);
  });

  it('a leading "Step 0: <initial state>" is the initial state: no divergence, no TFBC', () => {
    const withZero = `1. TRACE: ["Step 0: ${INITIAL[id]}", ${trace(inst.trace).slice('1. TRACE: ['.length)}\n2. ANSWER: ${inst.answer}`;
    expect(grade(id, inst, withZero)).toMatchObject({ kind: 'correct', kStar: -1, tfbc: false, traceReadable: true });
    // A trace numbered from 0 with exactly N steps is a 0-based trace, not an initial state plus N − 1 steps.
    const zeroBased = `${trace(inst.trace, 0)}\n2. ANSWER: ${inst.answer}`;
    expect(grade(id, inst, zeroBased)).toMatchObject({ kind: 'correct', kStar: -1 });
    // A wrong real step is still found where it is.
    const slipped = inst.trace.map((s, i) => (i === 3 ? corrupt(id, s) : s));
    const zeroSlipped = `1. TRACE: ["Step 0: ${INITIAL[id]}", ${trace(slipped).slice('1. TRACE: ['.length)}\n2. ANSWER: ${inst.answer}`;
    expect(grade(id, inst, zeroSlipped)).toMatchObject({ kind: 'correct', kStar: 4, tfbc: true });
  });

  it('a self-correction that rewrites the whole trace: k* goes with the rewritten trace', () => {
    const rejected = inst.trace.map((s, i) => (i >= 1 ? corrupt(id, s) : s));
    const text = `${trace(rejected)}\n\nWait, I made an error at step 2. Let me redo the trace.\n\n${right}`;
    expect(grade(id, inst, text)).toMatchObject({ kind: 'correct', kStar: -1, tfbc: false });
    // The other way round: a correct draft trace rewritten wrongly diverges where the rewrite does.
    const rewrittenWrong = `${trace(inst.trace)}\n\nLet me redo it.\n\n${respond(rejected, inst.answer)}`;
    expect(grade(id, inst, rewrittenWrong)).toMatchObject({ kind: 'correct', kStar: 2, tfbc: true });
  });
});

describe('d3 at N = 10: notes on the answer line and answers without brackets', () => {
  const inst = gen('d3');
  const absent = ['AB:R', 'AC:F', 'AD:F', 'BC:F'].find((p) => !inst.answer.includes(p.slice(0, 2))) ?? 'XX:F';

  it('a note on the answer’s line is not part of the answer set', () => {
    const bracketed = `${trace(inst.trace)}\n2. ANSWER: ${inst.answer} — note: ${absent} was excluded`;
    expect(grade('d3', inst, bracketed)).toMatchObject({ kind: 'correct', kStar: -1 });
    const bare = `${trace(inst.trace)}\n2. ANSWER: ${inst.answer.slice(1, -1)} — note: ${absent} was excluded`;
    expect(grade('d3', inst, bare)).toMatchObject({ kind: 'correct', kStar: -1 });
  });

  it('a bare pair list that ends a cut-off output may be incomplete: Truncation at length, graded otherwise', () => {
    const bare = `${trace(inst.trace)}\n2. ANSWER: ${inst.answer.slice(1, -1)}`;
    expect(grade('d3', inst, bare, { finishReason: 'length' }).kind).toBe('truncation');
    expect(grade('d3', inst, bare, { finishReason: 'stop' }).kind).toBe('correct');
    expect(grade('d3', inst, `${bare}`, { finishReason: null }).kind).toBe('correct');
  });
});
