import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PyRandom } from '../../../src/rng/index.js';
import { resolveTask } from '../../../src/tasks/index.js';
import {
  collapseOutcome,
  extractAssignedJson,
  failOutcome,
  gradeSolvable,
  parseJsonList,
  parseJsonObject,
  passOutcome,
} from '../../../src/tasks/puzzles/common/index.js';

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

  it('never throws and runs in linear time on adversarial input', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 400 }), (text) => {
        const result = extractAssignedJson(text, 'moves');
        expect(typeof result.ok).toBe('boolean');
      }),
    );
    const big = `${'moves = '.repeat(20000)}${'['.repeat(50000)}${'"\\'.repeat(20000)}`;
    const t0 = performance.now();
    expect(extractAssignedJson(big, 'moves').ok).toBe(false);
    expect(extractAssignedJson('['.repeat(200000), 'moves').ok).toBe(false);
    expect(performance.now() - t0).toBeLessThan(2000);
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
    gradeSolvable(
      text,
      { finishReason },
      (t) => parseJsonList(t, 'moves'),
      (moves) => (moves.length === 1 ? passOutcome() : failOutcome(['wrong length'], 2)),
      (moves) => moves.length === 0,
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
    const evil = 'moves:```'.repeat(50000);
    const t0 = performance.now();
    expect(extractAssignedJson(evil, 'moves').ok).toBe(false);
    expect(extractAssignedJson(`${'moves:   '.repeat(50000)}x`, 'moves').ok).toBe(false);
    expect(performance.now() - t0).toBeLessThan(2000);
  });
});

describe('registered puzzle plugins (hanoi, checkers, river, jug, coloring)', () => {
  const ids = ['hanoi', 'checkers', 'river', 'jug', 'coloring'];

  it('resolve through the registry with the puzzle contract metadata', () => {
    for (const id of ids) {
      const plugin = resolveTask(id);
      expect(plugin.id).toBe(id);
      expect(plugin.family).toBe('puzzle');
      expect(plugin.levels.kind).toBe('level');
      expect(plugin.levels.values).toEqual([1, 2, 3, 4, 5, 6]);
      expect(plugin.variants).toEqual(['standard']);
      expect(plugin.profiles).toEqual(['default']);
      const budgets = plugin.levels.values.map((level) => plugin.maxOutputTokens(level));
      expect(budgets).toEqual([...budgets].sort((a, b) => a - b));
      expect(() => plugin.generate(new PyRandom(1), 0, { seed: 1 })).toThrow(/level 0 is not defined/);
    }
  });

  it('reproduce the golden fixtures byte for byte (instance, prompt, canonical response)', () => {
    for (const id of ids) {
      const plugin = resolveTask(id);
      for (const level of [1, 3]) {
        const seed = level * 10000;
        const url = new URL(`../../../fixtures/puzzles/${id}/L${level}-seed${seed}.json`, import.meta.url);
        const instance = plugin.generate(new PyRandom(seed), level, { seed });
        const golden = {
          task: id,
          level,
          seed,
          instance,
          prompt: plugin.render(instance),
          canonical: plugin.canonicalResponse(instance),
        };
        expect(`${JSON.stringify(golden, null, 2)}\n`).toBe(readFileSync(url, 'utf8'));
        expect(plugin.grade(instance, golden.canonical, { finishReason: 'stop' }).kind).toBe('pass');
      }
    }
  });
});
