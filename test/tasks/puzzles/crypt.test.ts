import { describe, expect, it } from 'vitest';
import { PyRandom } from '../../../src/rng/index.js';
import { countSolutions } from '../../../src/tasks/puzzles/crypt/counter.js';
import { CRYPT_LEVELS, type CryptInstance } from '../../../src/tasks/puzzles/crypt/generate.js';
import { cryptTask } from '../../../src/tasks/puzzles/crypt/index.js';
import { writeMapping } from '../../../src/tasks/puzzles/crypt/render.js';
import { validateCrypt } from '../../../src/tasks/puzzles/crypt/validate.js';
import { assertGarbageClassified, simulatedPassRate } from '../../support/puzzle-contract.js';

const LEVELS = [1, 2, 3, 4, 5, 6];
const SEEDS = [1, 2, 3, 4];
const make = (level: number, seed: number): CryptInstance =>
  cryptTask.generate(new PyRandom(seed), level, { seed }) as CryptInstance;
const mappingLine = (mapping: Record<string, number>) => `mapping = ${writeMapping(mapping)}`;
const SEND = { addends: ['SEND', 'MORE'], result: 'MONEY' };
const SEND_SOLUTION = { S: 9, E: 5, N: 6, D: 7, M: 1, O: 0, R: 8, Y: 2 };

/** Brute force over every injective assignment (small letter sets only). */
function bruteForce(addends: string[], result: string): number {
  const words = [...addends, result];
  const letters = [...new Set(words.join(''))];
  const value = new Map<string, number>();
  let count = 0;
  const decode = (w: string) => Number([...w].map((l) => value.get(l)).join(''));
  const go = (i: number, used: number) => {
    if (i === letters.length) {
      if (words.some((w) => value.get(w[0]) === 0)) return;
      if (addends.reduce((s, w) => s + decode(w), 0) === decode(result)) count++;
      return;
    }
    for (let d = 0; d <= 9; d++) {
      if (used & (1 << d)) continue;
      value.set(letters[i], d);
      go(i + 1, used | (1 << d));
    }
  };
  go(0, 0);
  return count;
}

describe('crypt counter and generator', () => {
  it('SEND + MORE = MONEY has exactly one solution, the known one', () => {
    const { count, first } = countSolutions(SEND);
    expect(count).toBe(1);
    expect(first).toEqual(SEND_SOLUTION);
    expect(validateCrypt(SEND.addends, SEND.result, { entries: Object.entries(SEND_SOLUTION) }).kind).toBe('pass');
  });

  it('agrees with brute force on small puzzles, unique and not', () => {
    const puzzles: [string[], string][] = [
      [['AB', 'AB'], 'CA'],
      [['ABC', 'ABC'], 'DEF'],
      [['AB', 'CD'], 'EF'],
      [['AA', 'BB'], 'CC'],
      [['TO', 'GO'], 'OUT'],
      [['A', 'B', 'C'], 'DE'],
      [['LLB', 'XLB'], 'BXUX'],
    ];
    for (const [addends, result] of puzzles) {
      expect(countSolutions({ addends, result }).count).toBe(bruteForce(addends, result));
    }
    expect(countSolutions({ addends: ['ABC', 'DEF'], result: 'GHIJ' }, 2).count).toBe(2);
  });

  it('follows the level table, unique only, and records attempts', () => {
    for (const level of LEVELS) {
      const spec = CRYPT_LEVELS[level - 1];
      for (const seed of SEEDS) {
        const { data } = make(level, seed);
        expect(spec.addendCounts).toContain(data.addendCount);
        expect(data.addends).toHaveLength(data.addendCount);
        for (const word of data.addends) expect(word).toHaveLength(spec.wordLength);
        expect([spec.wordLength, spec.wordLength + 1]).toContain(data.result.length);
        expect(data.letters).toHaveLength(data.distinctLetters);
        expect(data.distinctLetters).toBeGreaterThanOrEqual(spec.minLetters);
        expect(data.distinctLetters).toBeLessThanOrEqual(spec.maxLetters);
        expect(data.attempts).toBeGreaterThanOrEqual(1);
        expect(countSolutions(data).count).toBe(1);
        if (data.distinctLetters <= 6) expect(bruteForce(data.addends, data.result)).toBe(1);
      }
    }
  });

  // Generation speed is measured in bench/ (BENCHMARKS.md), not asserted here.
  it('is deterministic per seed', () => {
    expect(JSON.stringify(make(6, 3))).toBe(JSON.stringify(make(6, 3)));
  });
});

describe('crypt grading', () => {
  it('collapses the ways a model declares a cryptarithm unsolvable', () => {
    for (const level of LEVELS) {
      for (const seed of SEEDS) {
        const instance = make(level, seed);
        expect(cryptTask.grade(instance, 'This cryptarithm has no solution.').kind).toBe('collapse');
        expect(cryptTask.grade(instance, 'It is impossible.\nmapping = {}').kind).toBe('collapse');
      }
    }
  });

  it('fails repeated digits, leading zeros, wrong sums, missing letters and bad values with the matching issue', () => {
    const grade = (mapping: Record<string, unknown>) =>
      cryptTask.grade(
        {
          ...make(3, 1),
          data: { ...make(3, 1).data, addends: SEND.addends, result: SEND.result },
        } as CryptInstance,
        `mapping = ${JSON.stringify(mapping)}`,
      );
    const repeated = grade({ ...SEND_SOLUTION, Y: 5 });
    expect(repeated.kind).toBe('fail');
    expect(repeated.issues).toContain('repeated digit 5: used by E, Y');
    const zero = grade({ ...SEND_SOLUTION, M: 0, O: 1 });
    expect(zero.issues).toContain('leading zero: MORE starts with M = 0');
    expect(zero.issues).toContain('leading zero: MONEY starts with M = 0');
    const wrongSum = grade({ ...SEND_SOLUTION, Y: 3 });
    expect(wrongSum.kind).toBe('fail');
    expect(wrongSum.issues).toEqual(['wrong sum: 9567 + 1085 = 10652, but MONEY decodes to 10653']);
    const { D: _d, ...withoutD } = SEND_SOLUTION;
    expect(grade(withoutD).issues).toEqual(['letters without a digit: D']);
    const badValue = grade({ ...SEND_SOLUTION, D: '7' });
    expect(badValue.issues[0]).toBe('D → "7" is not an integer 0–9');
    expect(grade({ ...SEND_SOLUTION, D: 12 }).kind).toBe('fail');
    expect(grade({ ...SEND_SOLUTION, '1': 3 }).issues).toEqual(["key '1' is not a letter"]);
    // extra letters are tolerated unless they reuse a digit (injectivity over the whole mapping)
    expect(grade({ ...SEND_SOLUTION, Z: 3 }).kind).toBe('pass');
    expect(grade({ ...SEND_SOLUTION, Z: 9 }).issues).toEqual(['repeated digit 9: used by S, Z']);
    expect(grade({ ...SEND_SOLUTION, Z: 9 }).kStar).toBe(-1);
  });

  it('formats and grades per-level hand-written wrong answers', () => {
    for (const level of LEVELS) {
      const instance = make(level, 9);
      const [a, b] = instance.data.letters;
      const swapped = { ...instance.answer, [a]: instance.answer[b], [b]: instance.answer[a] };
      // the solution is unique, so any swap of two letters' digits breaks the sum or a leading digit
      expect(cryptTask.grade(instance, mappingLine(swapped)).kind).toBe('fail');
      const dup = { ...instance.answer, [a]: instance.answer[b] };
      const outcome = cryptTask.grade(instance, mappingLine(dup));
      expect(outcome.kind).toBe('fail');
      expect(outcome.issues.some((issue) => issue.startsWith(`repeated digit ${instance.answer[b]}`))).toBe(true);
    }
  });

  it('never throws on garbage and always classifies it', () => {
    const instance = make(5, 1);
    assertGarbageClassified(cryptTask, instance, [
      'mapping = ',
      'mapping',
      '=',
      '{',
      '}',
      '"A": 1',
      ',',
      ':',
      '"',
      'null',
      '9',
      '```',
    ]);
  });

  it('simulate: retention 1 passes; with retention 0.95 the pass rate falls from L1 to L6', () => {
    const rate = (level: number, retention: number) =>
      simulatedPassRate(cryptTask, level, retention, { samples: 60, rngSeedBase: 5 });
    expect(rate(2, 1)).toBe(1);
    expect(rate(1, 0.95)).toBeGreaterThan(rate(6, 0.95));
  });

  it('budgets grow with the level; the prompt shows the equation', () => {
    const budgets = LEVELS.map((level) => cryptTask.maxOutputTokens(level, 'per-level'));
    for (let i = 1; i < budgets.length; i++) expect(budgets[i]).toBeGreaterThan(budgets[i - 1]);
    const instance = make(3, 2);
    expect(cryptTask.render(instance).user).toContain(`Puzzle: ${instance.data.equation}`);
  });
});
