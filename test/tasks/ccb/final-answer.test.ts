import { describe, expect, it } from 'vitest';
import { PyRandom } from '../../../src/rng/index.js';
import type { CcbInstance } from '../../../src/tasks/ccb/index.js';
import type { CcbOutcome } from '../../../src/tasks/outcome.js';
import { resolveTask } from '../../../src/tasks/registry.js';
import type { AnyTaskPlugin, GradeContext } from '../../../src/tasks/task.js';

// The misgraded shapes of issue 16, one by one, on the registered plugins (as every caller gets them).
const ids = ['d1', 'd2', 'd3'] as const;
const task = (id: string): AnyTaskPlugin => resolveTask(id);
const gen = (id: string, depth: number, seed = 50000): CcbInstance =>
  task(id).generate(new PyRandom(seed), depth, { seed, profile: 'official' });

const respond = (steps: readonly string[], answer: string): string =>
  `1. TRACE: [${steps.map((s, i) => `"Step ${i + 1}: ${s}"`).join(', ')}]\n2. ANSWER: ${answer}`;

/** A state that differs from `state` in the domain's own format. */
function corrupt(id: string, state: string): string {
  if (id === 'd1') return state.replace(/^\[\[(\d+), (\d+)/, '[[$2, $1');
  if (id === 'd2') return state.replace(/A=(\d)/, (_, v: string) => `A=${(Number(v) + 1) % 10}`);
  if (state === '[]') return '[AB:F]';
  return state.replace(/:(F|R)/, (_, t: string) => (t === 'F' ? ':R' : ':F'));
}

const grade = (id: string, instance: CcbInstance, text: string, context?: GradeContext): CcbOutcome =>
  task(id).grade(instance, text, context) as CcbOutcome;

describe.each(ids)('%s: the final answer decides', (id) => {
  for (const depth of [5, 20]) {
    const inst = gen(id, depth);
    const right = respond(inst.trace, inst.answer);
    const wrongSteps = inst.trace.map((s, i) => (i >= 1 ? corrupt(id, s) : s));
    const wrong = respond(wrongSteps, corrupt(id, inst.answer));

    it(`N=${depth}: a think block whose draft says the opposite is never graded`, () => {
      const falsePositive = grade(id, inst, `<think>\nDraft:\n${right}\nHmm, let me redo it.\n</think>\n${wrong}`);
      expect(falsePositive.kind).not.toBe('correct');
      expect(falsePositive.kStar).toBe(2);
      const rescued = grade(id, inst, `<think>\nDraft:\n${wrong}\nNo, wait.\n</think>\n\n${right}`);
      expect(rescued).toMatchObject({ kind: 'correct', kStar: -1, tfbc: false });
      for (const tag of ['thinking', 'reasoning', 'THINK']) {
        expect(grade(id, inst, `<${tag}>${right}</${tag}>${wrong}`).kind).not.toBe('correct');
      }
      // A chat template that pre-fills <think>: the content starts inside the block.
      expect(grade(id, inst, `${right}\n</think>\n${wrong}`).kind).not.toBe('correct');
    });

    it(`N=${depth}: an unclosed think block is Truncation at length and never Correct otherwise`, () => {
      const open = `<think>\n${right}\nLet me double-check step 3`;
      expect(grade(id, inst, open, { finishReason: 'length' }).kind).toBe('truncation');
      for (const finishReason of ['stop', null] as const) {
        const o = grade(id, inst, open, { finishReason });
        expect(o.kind).not.toBe('correct');
        expect(o.issues[0]).toMatch(/unclosed reasoning block/);
      }
      expect(grade(id, inst, `${right}\n<think>more thoughts`).kind).not.toBe('correct');
    });

    it(`N=${depth}: several ANSWER blocks → the last one is graded, with the trace that goes with it`, () => {
      const corrected = grade(id, inst, `${right}\n\nWait, I made an error. Let me redo it.\n\n${wrong}`);
      expect(corrected.kind).not.toBe('correct');
      expect(corrected.kStar).toBe(2);
      expect(corrected.issues.join(' ')).toMatch(/2 ANSWER blocks: the last one is graded/);
      const fixed = grade(id, inst, `${wrong}\n\nWait, I made an error. Let me redo it.\n\n${right}`);
      expect(fixed).toMatchObject({ kind: 'correct', kStar: -1, tfbc: false });
      const restated = grade(id, inst, `${right}\n\nSo, to restate:\n${right}`);
      expect(restated).toMatchObject({ kind: 'correct', kStar: -1, tfbc: false });
      expect(restated.issues).toEqual(['2 ANSWER blocks: the last one is graded']);
      // A self-correction that restates only the answer keeps the trace written before it.
      const onlyAnswer = grade(id, inst, `${right}\nHmm, no.\nANSWER: ${corrupt(id, inst.answer)}`);
      expect(onlyAnswer.kind).not.toBe('correct');
      expect(onlyAnswer.kStar).toBe(-1);
    });

    it(`N=${depth}: a "Here is my answer:" preamble is not an answer`, () => {
      expect(grade(id, inst, `Here is my answer:\n${right}`)).toMatchObject({ kind: 'correct', kStar: -1 });
      expect(grade(id, inst, `My answer:\n\n${wrong}`).kind).not.toBe('correct');
    });

    it(`N=${depth}: line endings and a note after the answer never change the outcome`, () => {
      for (const text of [right.replace(/\n/g, '\r\n'), right.replace(/\n/g, '\r'), `\ufeff${right}  \n\n`]) {
        expect(grade(id, inst, text)).toMatchObject({ kind: 'correct', kStar: -1 });
      }
      const noted = `${right}\nNote: every state above was checked twice.`;
      expect(grade(id, inst, noted)).toMatchObject({ kind: 'correct', kStar: -1 });
      expect(grade(id, inst, noted.replace(/\n/g, '\r\n')).kind).toBe('correct');
    });

    it(`N=${depth}: an unclosed final answer is Format, or Truncation at finish reason length`, () => {
      const cut = right.slice(0, right.lastIndexOf(']'));
      expect(grade(id, inst, cut, { finishReason: 'stop' }).kind).toBe('format');
      expect(grade(id, inst, cut, { finishReason: null }).kind).toBe('format');
      expect(grade(id, inst, cut, { finishReason: 'length' }).kind).toBe('truncation');
    });
  }
});

describe('provider-style outputs', () => {
  it('D3: a restated answer is not swallowed by the last trace step', () => {
    const inst = gen('d3', 5);
    const o = grade('d3', inst, `${respond(inst.trace, inst.answer)}\n\nFinal answer:\nANSWER: ${inst.answer}`);
    expect(o).toMatchObject({ kind: 'correct', kStar: -1, tfbc: false });
  });

  it('D3: the answer may span lines of pairs; prose on the next line ends it', () => {
    const inst = gen('d3', 5);
    const pairs = inst.answer.slice(1, -1).split(', ');
    const multiLine = `${respond(inst.trace, '')}\n${pairs.join(',\n')}\nThese follow from the rules.`;
    expect(grade('d3', inst, multiLine)).toMatchObject({ kind: 'correct', kStar: -1 });
  });
});
