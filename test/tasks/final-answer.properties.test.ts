import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PyRandom } from '../../src/rng/index.js';
import { generateCell } from '../../src/tasks/instances.js';
import { isSuccess, type TrialOutcome } from '../../src/tasks/outcome.js';
import { HARMONY, REASONING_CHANNELS } from '../../src/tasks/reasoning-channels.js';
import { availableTasks } from '../../src/tasks/registry.js';
import type { AnyTaskPlugin, TaskInstance } from '../../src/tasks/task.js';
import { REASONING_WRAPPERS, USER_DELIMITER } from './reasoning-wrappers.js';

// Contract tests over every registered task: whitespace variants and reasoning blocks never change what the
// final answer says (issue 16, parts 3 and 4), for every reasoning delimiter of the table (issue 27).

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

describe('every registered task: reasoning is never graded, for every delimiter of the table', () => {
  it('covers every table entry and both Harmony forms', () => {
    const names = REASONING_WRAPPERS.map((w) => w.name);
    for (const channel of REASONING_CHANNELS) expect(names).toContain(channel.name);
    expect(names).toEqual(expect.arrayContaining(['harmony', 'harmony stripped']));
  });

  // Exhaustive over registered tasks × delimiters (prose and finish reason vary with the index), so every
  // family meets every delimiter on every run.
  const PROSE = ['', 'Let me work through this carefully.\n', 'Draft answer below; I will check it.\n'];
  const FINISH = ['stop', 'length', null] as const;

  it('behind reasoning whose draft says the opposite, the grade is the final answer’s', () => {
    let checked = 0;
    cases.forEach(({ task, instance, right, wrong }, i) => {
      if (wrong === null) return;
      REASONING_WRAPPERS.forEach((wrapper, j) => {
        const prose = PROSE[(i + j) % PROSE.length] ?? '';
        const context = { reasoningDelimiters: wrapper.delimiters };
        for (const [draft, final] of [
          [wrong, right],
          [right, wrong],
        ]) {
          const alone = task.grade(instance, final);
          const graded = task.grade(instance, wrapper.closed(draft, final, prose), context);
          expect(verdict(graded), `${task.id} behind ${wrapper.name}`).toEqual(verdict(alone));
          expect(isSuccess(graded), `${task.id} behind ${wrapper.name}`).toBe(final === right);
          // a chat template that pre-filled the opening: the content starts inside the reasoning
          if (wrapper.prefilled !== null) {
            const prefilled = task.grade(instance, wrapper.prefilled(draft, final, prose), context);
            expect(verdict(prefilled), `${task.id} prefilled ${wrapper.name}`).toEqual(verdict(alone));
          }
          checked++;
        }
      });
    });
    expect(checked).toBeGreaterThanOrEqual(2 * REASONING_WRAPPERS.length * availableTasks().length);
  });

  it('reasoning the output ended in is never a success, whatever it holds or the finish reason says', () => {
    cases.forEach(({ task, instance, right }, i) => {
      REASONING_WRAPPERS.forEach((wrapper, j) => {
        for (const before of [false, true]) {
          const finishReason = FINISH[(i + j + Number(before)) % FINISH.length] ?? null;
          const response = wrapper.unclosed(before ? `${right}\n` : '', right);
          const graded = task.grade(instance, response, { finishReason, reasoningDelimiters: wrapper.delimiters });
          const where = `${task.id} in ${wrapper.name} at ${finishReason}`;
          expect(isSuccess(graded), where).toBe(false);
          if (finishReason === 'length' && task.family === 'ccb') expect(graded.kind, where).toBe('truncation');
          if (wrapper.delimiters.length === 0) expect(task.parse(response).ok, where).toBe(false);
        }
      });
    });
  });

  it('Harmony: an empty final channel, or reasoning after the final one that the output ended in, is no success', () => {
    const { channel, message, start } = HARMONY;
    const [end, ret] = HARMONY.ends;
    fc.assert(
      fc.property(caseArb, fc.constantFrom('stop', 'length', null), ({ task, instance, right }, finishReason) => {
        const analysis = `${channel}analysis${message}${right}${end}`;
        const empty = `${analysis}${start}assistant${channel}final${message}${ret}`;
        const reopened = `${analysis}${start}assistant${channel}final${message}${right}${end}${start}assistant${channel}analysis${message}Wait, step 2`;
        for (const response of [empty, reopened]) {
          const graded = task.grade(instance, response, { finishReason });
          expect(isSuccess(graded)).toBe(false);
          if (finishReason === 'length' && task.family === 'ccb') expect(graded.kind).toBe('truncation');
        }
      }),
      { numRuns: 150 },
    );
  });

  it('the stripped Harmony form is never read into an ordinary answer', () => {
    fc.assert(
      fc.property(caseArb, fc.constantFrom('analysis: ', 'analysis\n', 'Analysis of the steps. '), (c, prefix) => {
        const text = `${prefix}${c.right}`;
        expect(verdict(c.task.grade(c.instance, text))).toEqual(verdict(c.task.grade(c.instance, `Note. ${c.right}`)));
      }),
      { numRuns: 100 },
    );
  });

  it('with the user’s delimiters, a contradicting draft in their block after the answer is never read', () => {
    fc.assert(
      fc.property(caseArb, ({ task, instance, right, wrong }) => {
        if (wrong === null) return;
        const response = `${right}\n${USER_DELIMITER.open}\n${wrong}\n${USER_DELIMITER.close}`;
        const known = task.grade(instance, response, { reasoningDelimiters: [USER_DELIMITER] });
        expect(verdict(known)).toEqual(verdict(task.grade(instance, right)));
      }),
      { numRuns: 100 },
    );
  });
});

const ZERO_WIDTHS = ['\u200b', '\u200c', '\u200d', '\u2060', '\ufeff'] as const;

describe('every registered task: zero-width characters are invisible to grading', () => {
  it('zero-width spaces, joiners and word joiners anywhere in a response never change its grade', () => {
    fc.assert(
      fc.property(
        caseArb,
        fc.boolean(),
        fc.array(fc.tuple(fc.nat(), fc.constantFrom(...ZERO_WIDTHS)), { minLength: 1, maxLength: 12 }),
        ({ task, instance, right, wrong }, useWrong, inserts) => {
          const text = useWrong && wrong !== null ? wrong : right;
          let spiked = text;
          for (const [at, char] of inserts) {
            const i = at % (spiked.length + 1);
            spiked = `${spiked.slice(0, i)}${char}${spiked.slice(i)}`;
          }
          expect(verdict(task.grade(instance, spiked))).toEqual(verdict(task.grade(instance, text)));
        },
      ),
      { numRuns: 300 },
    );
  });
});
