import { describe, expect, it } from 'vitest';
import { PyRandom } from '../../../src/rng/index.js';
import {
  answerSizedBudget,
  budgetPerLevel,
  definePuzzle,
  failOutcome,
  listAnswer,
  passOutcome,
} from '../../../src/tasks/puzzles/common/index.js';
import { assertGradingContract, assertPuzzleSkeleton } from '../../support/puzzle-contract.js';

/** A toy puzzle: count up to the level's number. Only what differs between puzzles is declared. */
const countUp = (fixed: boolean, knob: boolean) =>
  definePuzzle({
    id: 'count-up',
    title: 'Count up',
    levels: [2, 3, 4, 5, 6, 7],
    ...(knob ? { knob: (n: number) => n } : {}),
    fixedInstancePerLevel: fixed,
    generate: (n: number, rng: PyRandom) => ({
      data: { n, drawn: fixed ? 0 : rng.randbelow(10) },
      answer: Array.from({ length: n }, (_, i) => i + 1),
    }),
    instanceKey: (instance) => `n=${instance.data.n}`,
    render: (instance) => `Count from 1 to ${instance.data.n}. End with the line\nnumbers = [1, 2, ...]`,
    answerFormat: listAnswer('numbers'),
    writeAnswer: (numbers) => JSON.stringify(numbers),
    validate: (instance, numbers) =>
      JSON.stringify(numbers) === JSON.stringify(instance.answer) ? passOutcome() : failOutcome(['wrong count']),
    simulate: (instance, rng, knobs) => instance.answer.map((k) => (rng.random() < knobs.retention ? k : k + 1)),
    simulatedReasoning: 'Counting.',
    maxOutputTokens: budgetPerLevel([10, 20, 30, 40, 50, 60]),
  });

describe('definePuzzle', () => {
  it('supplies the shared skeleton and the whole grading contract from a declaration', () => {
    const task = countUp(false, true);
    assertPuzzleSkeleton(task);
    assertGradingContract(task, [1, 2]);
    expect(task.levels.knob?.(3)).toBe(4);
    expect('fixedInstancePerLevel' in task).toBe(false);
    expect('knob' in countUp(true, false).levels).toBe(false);
    expect(countUp(true, false).fixedInstancePerLevel).toBe(true);
  });

  it('wraps the generated content into an instance with id, level, seed and the default profile', () => {
    const instance = countUp(false, false).generate(new PyRandom(4), 2, { seed: 4, profile: 'other' });
    expect(instance).toEqual({
      task: 'count-up',
      level: 2,
      seed: 4,
      profile: 'default',
      data: { n: 3, drawn: new PyRandom(4).randbelow(10) },
      trace: [],
      answer: [1, 2, 3],
    });
  });

  it('renders with the shared system prompt, answers as `name = value`, and simulates after its reasoning line', () => {
    const task = countUp(false, false);
    const instance = task.generate(new PyRandom(1), 1, { seed: 1 });
    const prompt = task.render(instance);
    expect(prompt.system).toMatch(/^You are solving a logic puzzle\./);
    expect(prompt.user).toBe('Count from 1 to 2. End with the line\nnumbers = [1, 2, ...]');
    expect(task.canonicalResponse(instance)).toBe('numbers = [1,2]');
    expect(task.simulate(instance, new PyRandom(1), { retention: 1, recover: 0, capacity: 0 })).toBe(
      'Counting.\n\nnumbers = [1,2]',
    );
    expect(task.grade(instance, 'numbers = [1, 3]')).toEqual(failOutcome(['wrong count']));
  });

  it('looks every level up in the declared table: budgets per level, a RangeError elsewhere', () => {
    const task = countUp(false, true);
    expect([1, 2, 3, 4, 5, 6].map((level) => task.maxOutputTokens(level, 'per-level'))).toEqual([
      10, 20, 30, 40, 50, 60,
    ]);
    for (const call of [
      () => task.maxOutputTokens(7),
      () => task.levels.knob?.(0),
      () => task.generate(new PyRandom(1), 0, { seed: 1 }),
    ]) {
      expect(call).toThrow(/count-up: level \d is not defined; use an integer level 1–6/);
    }
  });

  it("budgets: 'fixed' (the default) is the largest level's at every level, as the paper fixes one budget", () => {
    const task = countUp(false, true);
    expect(task.budgets).toEqual(['fixed', 'per-level']);
    expect([1, 2, 3, 4, 5, 6].map((level) => task.maxOutputTokens(level))).toEqual([60, 60, 60, 60, 60, 60]);
    expect([1, 6].map((level) => task.maxOutputTokens(level, 'fixed'))).toEqual([60, 60]);
    expect(() => task.maxOutputTokens(1, 'growing')).toThrow(/unknown budget 'growing'; use one of fixed, per-level/);
  });
});

describe('output budgets', () => {
  it('answerSizedBudget: 8192 reasoning tokens plus 4096 per level above L1, plus twice the answer estimate', () => {
    const budget = answerSizedBudget((answerTokens: number) => answerTokens);
    expect(budget(100, 1)).toBe(8192 + 200);
    expect(budget(10.2, 3)).toBe(8192 + 2 * 4096 + 22);
  });
});
