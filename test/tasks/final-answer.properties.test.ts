import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PyRandom } from '../../src/rng/index.js';
import { generateCell } from '../../src/tasks/instances.js';
import { isSuccess, type TrialOutcome } from '../../src/tasks/outcome.js';
import { availableTasks } from '../../src/tasks/registry.js';
import type { AnyTaskPlugin, TaskInstance } from '../../src/tasks/task.js';

// Contract tests over every registered task: whitespace variants and reasoning blocks never change what the
// final answer says (issue 16, parts 3 and 4).

interface Case {
  task: AnyTaskPlugin;
  instance: TaskInstance;
  right: string;
  /** A simulated response that does not succeed; null when the simulator found none for this instance. */
  wrong: string | null;
}

/** A simulated response that fails, from a weak simulated model (bounded search, deterministic). */
function simulatedWrong(task: AnyTaskPlugin, instance: TaskInstance, seed: number): string | null {
  for (let s = 0; s < 40; s++) {
    const text = task.simulate(instance, new PyRandom(seed * 97 + s), { retention: 0.3, recover: 0, capacity: 2 });
    if (!isSuccess(task.grade(instance, text))) return text;
  }
  return null;
}

const cases: Case[] = availableTasks().flatMap((task) =>
  task.levels.values.slice(0, 2).flatMap((level) =>
    generateCell(task, level, 2, { seedOffset: 7 }).map((instance, i) => ({
      task,
      instance,
      right: task.canonicalResponse(instance),
      wrong: simulatedWrong(task, instance, level * 10 + i),
    })),
  ),
);

/** What a grade says, without the human-readable issues (they may quote the response). */
const verdict = (o: TrialOutcome) => ({ ...o, issues: undefined });

const variantArb = fc.record({
  lineEnding: fc.constantFrom('\n', '\r\n', '\r'),
  bom: fc.boolean(),
  nbsp: fc.boolean(),
  trailing: fc.constantFrom('', ' ', '  \t', '\u00a0'),
  blank: fc.constantFrom('', '\n', '\n \n'),
  around: fc.constantFrom('', '\n\n', '  \n\t\n'),
});
type Variant = typeof variantArb extends fc.Arbitrary<infer V> ? V : never;

/** The same response with other line endings, a BOM, NBSPs, trailing spaces and blank lines. */
function vary(text: string, v: Variant): string {
  const spaced = v.nbsp ? text.replace(/ /g, '\u00a0') : text;
  const lines = spaced.split('\n').map((line) => `${line}${v.trailing}`);
  const body = lines.join(`${v.blank}\n`).replace(/\n/g, v.lineEnding);
  return `${v.bom ? '\ufeff' : ''}${v.around}${body}${v.around.replace(/\n/g, v.lineEnding)}`;
}

const caseArb = fc.constantFrom(...cases);

describe('every registered task: whitespace and line endings never change an outcome', () => {
  it('covers every registered task with a canonical and a failing response', () => {
    const ids = new Set(cases.map((c) => c.task.id));
    expect([...ids]).toEqual(availableTasks().map((t) => t.id));
    const withWrong = new Set(cases.filter((c) => c.wrong !== null).map((c) => c.task.id));
    expect([...withWrong]).toEqual(availableTasks().map((t) => t.id));
  });

  it('canonical and wrong responses grade the same under CRLF, CR, BOM, NBSP, trailing spaces and blank lines', () => {
    fc.assert(
      fc.property(caseArb, variantArb, fc.boolean(), ({ task, instance, right, wrong }, variant, useWrong) => {
        const text = useWrong && wrong !== null ? wrong : right;
        const plain = task.grade(instance, text);
        expect(verdict(task.grade(instance, vary(text, variant)))).toEqual(verdict(plain));
        expect(task.parse(vary(text, variant)).ok).toBe(task.parse(text).ok);
      }),
      { numRuns: 400 },
    );
  });
});

const tagArb = fc.constantFrom('think', 'thinking', 'reasoning', 'Think');
const proseArb = fc.constantFrom('', 'Let me work through this carefully.\n', 'Draft answer below; I will check it.\n');

describe('every registered task: a reasoning block is never graded', () => {
  it('behind a think block whose draft says the opposite, the grade is the final answer’s', () => {
    fc.assert(
      fc.property(caseArb, tagArb, proseArb, fc.boolean(), ({ task, instance, right, wrong }, tag, prose, flip) => {
        if (wrong === null) return;
        const [draft, final] = flip ? [right, wrong] : [wrong, right];
        const response = `<${tag}>\n${prose}${draft}\n</${tag}>\n${final}`;
        const graded = task.grade(instance, response);
        const alone = task.grade(instance, final);
        expect(verdict(graded)).toEqual(verdict(alone));
        expect(isSuccess(graded)).toBe(final === right);
        // A chat template that pre-filled the opening tag: the content starts inside the block.
        expect(verdict(task.grade(instance, `${prose}${draft}\n</${tag}>\n${final}`))).toEqual(verdict(alone));
      }),
      { numRuns: 300 },
    );
  });

  it('an unclosed think block is never a success, whatever it holds or the finish reason says', () => {
    fc.assert(
      fc.property(
        caseArb,
        tagArb,
        fc.constantFrom('stop', 'length', null),
        fc.boolean(),
        ({ task, instance, right }, tag, finishReason, before) => {
          const response = `${before ? `${right}\n` : ''}<${tag}>\n${right}\nLet me double-check`;
          const graded = task.grade(instance, response, { finishReason });
          expect(isSuccess(graded)).toBe(false);
          if (finishReason === 'length' && task.family === 'ccb') expect(graded.kind).toBe('truncation');
          expect(task.parse(response).ok).toBe(false);
        },
      ),
      { numRuns: 200 },
    );
  });
});
