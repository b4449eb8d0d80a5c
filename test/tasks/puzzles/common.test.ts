import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  collapseOutcome,
  extractAssignedJson,
  failOutcome,
  gradeSolvable,
  listAnswer,
  objectAnswer,
  parseJsonList,
  parseJsonObject,
  passOutcome,
  readAnswer,
} from '../../../src/tasks/puzzles/common/index.js';
import { countedText } from '../../support/puzzle-counted-text.js';

/** Characters extractAssignedJson reads on `text`, and whether it found an answer. */
function scan(text: string): { reads: number; ok: boolean } {
  const counted = countedText(text);
  const ok = extractAssignedJson(counted.text, 'moves').ok;
  return { reads: counted.reads(), ok };
}

/**
 * The scan is linear: doubling the input at most doubles the characters read (plus a constant), and no input
 * is read more than `perChar` times over. A quadratic scan would read four times as much at twice the size.
 */
function expectLinearScan(make: (size: number) => string, size: number, perChar = 4): void {
  const small = scan(make(size));
  const large = scan(make(2 * size));
  expect(small.ok).toBe(false);
  expect(large.ok).toBe(false);
  expect(large.reads).toBeLessThanOrEqual(2 * small.reads + 64);
  expect(large.reads).toBeLessThanOrEqual(perChar * make(2 * size).length);
}

describe('extractAssignedJson', () => {
  it('takes the last assignment, ignoring drafts and identifiers that merely end in the name', () => {
    const text = 'draft: moves = [[1]]\nmy_moves = [[9]]\nFinal:\nmoves = [[2, "A", "C"]]\nDone.';
    expect(extractAssignedJson(text, 'moves')).toEqual({ ok: true, value: [[2, 'A', 'C']] });
  });

  it('accepts a colon, a fenced block and nested strings holding brackets', () => {
    expect(extractAssignedJson('coloring:\n```json\n{"1": 2, "x]": "}"}\n```', 'coloring')).toEqual({
      ok: true,
      value: { '1': 2, 'x]': '}' },
    });
  });

  it('reports a missing block, a non-JSON value and an unclosed (truncated) value', () => {
    const missing = extractAssignedJson('I think the answer is 7', 'moves');
    expect(missing.ok).toBe(false);
    if (!missing.ok) expect(missing.reason).toMatch(/no answer block/);
    const python = extractAssignedJson("moves = [['R', 0, 1]]", 'moves');
    expect(python.ok).toBe(false);
    if (!python.ok) expect(python.reason).toMatch(/not valid JSON/);
    const cut = extractAssignedJson('moves = [[1, "A", "C"], [2, "A"', 'moves');
    expect(cut.ok).toBe(false);
    if (!cut.ok) expect(cut.reason).toMatch(/never closed/);
    const prose = extractAssignedJson('moves = see above', 'moves');
    expect(prose.ok).toBe(false);
  });

  it('never throws, and reads adversarial input a bounded number of times per character', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 400 }), (text) => {
        const result = extractAssignedJson(text, 'moves');
        expect(typeof result.ok).toBe('boolean');
      }),
    );
    expectLinearScan((k) => `${'moves = '.repeat(k)}${'['.repeat(2.5 * k)}${'"\\'.repeat(k)}`, 4000);
    expectLinearScan((k) => '['.repeat(k), 40000);
    expectLinearScan((k) => `moves = ${'['.repeat(k)}`, 40000);
  });

  it('parseJsonList / parseJsonObject enforce the top-level shape', () => {
    expect(parseJsonList('moves = {"a": 1}', 'moves').ok).toBe(false);
    expect(parseJsonList('moves = []', 'moves')).toEqual({ ok: true, value: [] });
    expect(parseJsonObject('coloring = [1]', 'coloring').ok).toBe(false);
    expect(parseJsonObject('coloring = {"1": 1}', 'coloring')).toEqual({ ok: true, value: { '1': 1 } });
  });
});

describe('gradeSolvable', () => {
  const grade = (text: string, finishReason?: 'stop' | 'length') =>
    gradeSolvable(text, { finishReason }, listAnswer('moves'), (moves) =>
      moves.length === 1 ? passOutcome() : failOutcome(['wrong length'], 2),
    );

  it('collapses empty, truncated, unparseable and impossibility answers; validates the rest', () => {
    expect(grade('  ').kind).toBe('collapse');
    expect(grade('moves = [[1]]', 'length')).toEqual(
      collapseOutcome(['cut off by the token limit (finish_reason=length)']),
    );
    expect(grade('no idea').kind).toBe('collapse');
    expect(grade('This puzzle is impossible.').issues[0]).toMatch(/impossible/);
    expect(grade('There is no solution.\nmoves = []').kind).toBe('collapse');
    expect(grade('moves = []').kind).toBe('fail');
    expect(grade('moves = [[1]]').kind).toBe('pass');
    expect(grade('moves = [[1], [2]]')).toEqual(failOutcome(['wrong length'], 2));
  });
});

describe('extractAssignedJson robustness', () => {
  it('skips later prose assignments without a bracketed value', () => {
    expect(extractAssignedJson('moves = [[1, "A", "C"]]\nTotal moves: 1', 'moves')).toEqual({
      ok: true,
      value: [[1, 'A', 'C']],
    });
    const onlyProse = extractAssignedJson('Total moves: 7', 'moves');
    expect(onlyProse.ok).toBe(false);
    if (!onlyProse.ok) expect(onlyProse.reason).toMatch(/not followed by a JSON list/);
  });

  it('stays linear on many fence openers without newlines', () => {
    // Each candidate looks at most 20 characters past its fence for a newline: a larger, still constant, factor.
    expectLinearScan((k) => 'moves:```'.repeat(k), 5000, 8);
    expectLinearScan((k) => `${'moves:   '.repeat(k)}x`, 5000);
  });

  it('the read count sees a quadratic scan (a control for the linearity checks)', () => {
    const quadratic = (text: string): number => {
      const counted = countedText(text);
      for (let i = 0; i < counted.text.length; i++) counted.text.lastIndexOf('moves', counted.text.length);
      return counted.reads();
    };
    expect(quadratic('x'.repeat(2000))).toBeGreaterThan(3.5 * quadratic('x'.repeat(1000)));
  });
});

describe('answer formats', () => {
  it('list and object blocks parse their shape and know when they are empty', () => {
    expect(listAnswer('moves').parse('moves = [[1]]')).toEqual({ ok: true, value: [[1]] });
    expect(listAnswer('moves').isEmpty([])).toBe(true);
    expect(objectAnswer('coloring').parse('coloring = [1]').ok).toBe(false);
    expect(objectAnswer('coloring').isEmpty({})).toBe(true);
    expect(objectAnswer('coloring').isEmpty({ '1': 1 })).toBe(false);
  });

  it('readAnswer reads the raw block further, keeps block failures, and judges emptiness on the read answer', () => {
    const numbers = readAnswer(
      listAnswer('moves'),
      (entries) =>
        entries.every((entry) => typeof entry === 'number')
          ? { ok: true, value: entries.filter((entry) => entry !== 0) }
          : { ok: false, reason: 'not numbers' },
      (answer) => answer.length === 0,
    );
    expect(numbers.name).toBe('moves');
    expect(numbers.parse('moves = [0, 2]')).toEqual({ ok: true, value: [2] });
    expect(numbers.parse('moves = ["a"]')).toEqual({ ok: false, reason: 'not numbers' });
    expect(numbers.parse('no block').ok).toBe(false);
    const zeros = numbers.parse('moves = [0, 0]');
    expect(zeros.ok && numbers.isEmpty(zeros.value)).toBe(true);
  });
});
