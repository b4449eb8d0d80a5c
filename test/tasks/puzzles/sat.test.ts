import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PyRandom } from '../../../src/rng/index.js';
import { resolveTask } from '../../../src/tasks/index.js';
import { puzzleTasks } from '../../../src/tasks/puzzles/index.js';
import {
  dpll,
  formatSatAnswer,
  Q_HIDDEN,
  type SatInstance,
  satTask,
  trueLiterals,
  validateSat,
} from '../../../src/tasks/puzzles/sat/index.js';
import { puzzleSelfCheck } from '../../support/puzzle-self-check.js';
import { expectGarbageClassified, simulatedPassRate } from './contract.js';

const LEVELS = [1, 2, 3, 4, 5, 6];
const SEEDS = [1, 2, 3, 4];
const make = (level: number, seed: number): SatInstance =>
  satTask.generate(new PyRandom(seed), level, { seed }) as SatInstance;
const answer = (values: boolean[]) => `Reasoning…\nassignment = ${formatSatAnswer(values)}`;

describe('sat generator', () => {
  it('follows the level table: n, m = round(4.26 n), 3 distinct variables per clause, no duplicate clauses', () => {
    const table: [number, number][] = [
      [5, 21],
      [8, 34],
      [12, 51],
      [16, 68],
      [20, 85],
      [30, 128],
    ];
    for (const level of LEVELS) {
      const [n, m] = table[level - 1];
      expect(m).toBe(Math.round(4.26 * n));
      for (const seed of SEEDS) {
        const { data } = make(level, seed);
        expect([data.n, data.m, data.clauses.length]).toEqual([n, m, m]);
        expect(data.clauseDraws).toBeGreaterThanOrEqual(m);
        const keys = new Set(data.clauses.map((c) => [...c].sort((a, b) => a - b).join(',')));
        expect(keys.size).toBe(m);
        for (const clause of data.clauses) {
          expect(new Set(clause.map(Math.abs)).size).toBe(3);
          for (const lit of clause) expect(Math.abs(lit)).toBeGreaterThanOrEqual(1);
          for (const lit of clause) expect(Math.abs(lit)).toBeLessThanOrEqual(n);
        }
      }
    }
  });

  it('plants a satisfying assignment, and the DPLL solver independently finds one', () => {
    for (const level of LEVELS) {
      for (const seed of SEEDS) {
        const { data } = make(level, seed);
        for (const clause of data.clauses) expect(trueLiterals(clause, data.planted)).toBeGreaterThan(0);
        const solved = dpll(data.n, data.clauses);
        expect(solved).not.toBeNull();
        const values = new Map((solved ?? []).map((v, i) => [i + 1, v] as [number, boolean]));
        expect(validateSat(data.clauses, { values }).kind).toBe('pass');
      }
    }
  });

  it('DPLL reports an unsatisfiable formula as null', () => {
    // all 8 sign patterns over x1, x2, x3: unsatisfiable
    const clauses = Array.from({ length: 8 }, (_, s) => [1, 2, 3].map((v, i) => ((s >> i) & 1 ? -v : v)));
    expect(dpll(3, clauses)).toBeNull();
    expect(dpll(3, clauses.slice(1))).not.toBeNull();
  });

  it('DPLL reproduces the small-n P(SAT) table of uniform random 3-SAT (puzzles.md §5) within sampling error', () => {
    const rng = new PyRandom(2024);
    const pSat = (n: number, alpha: number, trials: number) => {
      const variables = Array.from({ length: n }, (_, i) => i + 1);
      let sat = 0;
      for (let t = 0; t < trials; t++) {
        const clauses = Array.from({ length: Math.round(alpha * n) }, () =>
          rng.sample(variables, 3).map((v) => (rng.getrandbits(1) ? -v : v)),
        );
        if (dpll(n, clauses) !== null) sat++;
      }
      return sat / trials;
    };
    // reference values from 200 instances per cell; allow 3 standard errors of both estimates
    for (const [n, alpha, expected] of [
      [10, 4.26, 0.78],
      [20, 4.26, 0.69],
      [20, 5.0, 0.32],
      [20, 3.0, 1.0],
    ]) {
      const p = pSat(n, alpha, 300);
      const se = Math.sqrt((expected * (1 - expected)) / 200 + (expected * (1 - expected)) / 300);
      expect(Math.abs(p - expected)).toBeLessThanOrEqual(Math.max(3 * se, 0.02));
    }
  });

  it('q-hidden: q = (√5−1)/2 gives 3/2 true literals per clause, exactly and empirically', () => {
    const q = Q_HIDDEN;
    expect((3 * q + 6 * q ** 2 + 3 * q ** 3) / (3 * q + 3 * q ** 2 + q ** 3)).toBeCloseTo(1.5, 12);
    let total = 0;
    let clauses = 0;
    for (let seed = 0; seed < 60; seed++) {
      const { data } = make(6, 500 + seed);
      for (const clause of data.clauses) total += trueLiterals(clause, data.planted);
      clauses += data.clauses.length;
    }
    // 7680 clauses; the per-clause sd is ≈ 0.6, so the standard error is ≈ 0.007
    expect(Math.abs(total / clauses - 1.5)).toBeLessThan(0.03);
  });

  // Generation speed is measured in bench/ (BENCHMARKS.md), not asserted here.
  it('is deterministic per seed at L6', () => {
    expect(JSON.stringify(make(6, 9))).toBe(JSON.stringify(make(6, 9)));
    expect(satTask.instanceKey(make(6, 9))).not.toBe(satTask.instanceKey(make(6, 10)));
  });
});

describe('sat grading', () => {
  it('is registered among the puzzle tasks', () => {
    expect(puzzleTasks.map((t) => t.id)).toContain('sat');
  });

  it('honours the shared puzzle self-check on every level', () => {
    for (const level of LEVELS) {
      for (const seed of SEEDS) {
        expect(puzzleSelfCheck(satTask, level, seed, { halfAnswerWithoutLimitCollapses: true })).toEqual([]);
      }
    }
  });

  it('grades the canonical response pass; empty, impossible and truncated answers collapse', () => {
    for (const level of LEVELS) {
      for (const seed of SEEDS) {
        const instance = make(level, seed);
        const canonical = satTask.canonicalResponse(instance);
        expect(satTask.grade(instance, canonical).kind).toBe('pass');
        expect(satTask.parse(canonical).ok).toBe(true);
        expect(satTask.grade(instance, '').kind).toBe('collapse');
        expect(satTask.grade(instance, '   \n').kind).toBe('collapse');
        const impossible = satTask.grade(instance, 'After checking, this formula is unsatisfiable.');
        expect(impossible.kind).toBe('collapse');
        expect(impossible.issues[0]).toMatch(/impossible/);
        expect(satTask.grade(instance, 'The formula is UNSAT.\nassignment = UNSAT').kind).toBe('collapse');
        expect(satTask.grade(instance, 'No solution exists.\nassignment = {}').kind).toBe('collapse');
        const half = canonical.slice(0, Math.floor(canonical.length / 2));
        expect(satTask.grade(instance, half, { finishReason: 'length' }).kind).toBe('collapse');
        expect(satTask.grade(instance, canonical, { finishReason: 'length' }).kind).toBe('collapse');
        expect(satTask.grade(instance, half).kind).toBe('collapse');
      }
    }
  });

  it('fails an assignment that falsifies a clause, naming the clause; kStar is the first failing clause', () => {
    for (const level of LEVELS) {
      const instance = make(level, 7);
      const values = [...instance.data.planted];
      for (const lit of instance.data.clauses[0]) values[Math.abs(lit) - 1] = lit < 0;
      const outcome = satTask.grade(instance, answer(values));
      expect(outcome.kind).toBe('fail');
      expect(outcome.kStar).toBe(1);
      expect(outcome.issues[0]).toMatch(/^clause 1 .*unsatisfied/);
      // every clause the assignment falsifies is listed
      const falsified = instance.data.clauses.filter((c) => trueLiterals(c, values) === 0).length;
      expect(outcome.issues).toHaveLength(falsified);
    }
  });

  it('fails a missing variable and a non-boolean value (Algorithm 4 completeness)', () => {
    const instance = make(3, 2);
    const clause = instance.data.clauses[4];
    const variable = Math.abs(clause[0]);
    const entries = instance.data.planted.map((v, i) => [String(i + 1), v as unknown]);
    const without = Object.fromEntries(entries.filter(([k]) => k !== String(variable)));
    const missing = satTask.grade(instance, `assignment = ${JSON.stringify(without)}`);
    expect(missing.kind).toBe('fail');
    expect(missing.issues.join('\n')).toMatch(new RegExp(`variable ${variable} is not assigned`));
    const wrongType = Object.fromEntries(entries.map(([k, v]) => [k, k === String(variable) ? 'yes' : v]));
    const typed = satTask.grade(instance, `assignment = ${JSON.stringify(wrongType)}`);
    expect(typed.kind).toBe('fail');
    expect(typed.issues.join('\n')).toMatch(new RegExp(`variable ${variable} has a non-boolean value`));
  });

  it('accepts "x1" keys, a code fence and extra keys; rejects a non-object as malformed', () => {
    const instance = make(1, 3);
    const xKeys = Object.fromEntries(instance.data.planted.map((v, i) => [`x${i + 1}`, v]));
    const text = `assignment =\n\`\`\`json\n${JSON.stringify({ ...xKeys, note: 'ok', 99: true })}\n\`\`\``;
    expect(satTask.grade(instance, text).kind).toBe('pass');
    const array = satTask.grade(instance, 'assignment = [true, false]');
    expect(array.kind).toBe('collapse');
    expect(array.issues[0]).toMatch(/malformed/);
    expect(satTask.grade(instance, 'true false true').kind).toBe('collapse');
  });

  it('fails an empty assignment that claims nothing, listing every clause', () => {
    const instance = make(1, 1);
    const outcome = satTask.grade(instance, 'assignment = {}');
    expect(outcome.kind).toBe('fail');
    expect(outcome.issues).toHaveLength(instance.data.m);
  });

  it('grades only the last answer block', () => {
    const instance = make(2, 5);
    const flipped = instance.data.planted.map((v) => !v);
    expect(satTask.grade(instance, `${answer(flipped)}\nWait, correcting: ${answer(instance.data.planted)}`).kind).toBe(
      'pass',
    );
  });

  it('never throws on garbage and always classifies it', () => {
    const instance = make(4, 1);
    expectGarbageClassified(satTask, instance, [
      'assignment = ',
      'assignment',
      '=',
      '{',
      '}',
      '"1": true',
      ',',
      '[',
      'null',
      'x3',
      ':',
      '```',
    ]);
  });

  it('simulate: retention 1 passes; with retention 0.97 the pass rate falls from L1 to L6', () => {
    const rate = (level: number, retention: number) =>
      simulatedPassRate(satTask, make, level, retention, { samples: 60, rngSeedBase: 1000 });
    expect(rate(3, 1)).toBe(1);
    expect(rate(1, 0.97)).toBeGreaterThan(rate(6, 0.97));
  });

  it('budgets grow with the level', () => {
    const budgets = LEVELS.map((level) => satTask.maxOutputTokens(level));
    for (let i = 1; i < budgets.length; i++) expect(budgets[i]).toBeGreaterThan(budgets[i - 1]);
    expect(satTask.render(make(6, 1)).user).toContain('assignment = {"1": true');
  });
});

describe('sat golden fixtures', () => {
  it('reproduces fixtures/puzzles/sat byte for byte (instance, prompt, canonical response)', () => {
    const plugin = resolveTask('sat');
    expect(() => plugin.generate(new PyRandom(1), 0, { seed: 1 })).toThrow(/level 0 is not defined/);
    for (const level of [1, 3, 6]) {
      const seed = level * 10000;
      const url = new URL(`../../../fixtures/puzzles/sat/L${level}-seed${seed}.json`, import.meta.url);
      const instance = plugin.generate(new PyRandom(seed), level, { seed });
      const golden = {
        task: 'sat',
        level,
        seed,
        instance,
        prompt: plugin.render(instance),
        canonical: plugin.canonicalResponse(instance),
      };
      expect(`${JSON.stringify(golden, null, 2)}\n`).toBe(readFileSync(url, 'utf8'));
      expect(plugin.grade(instance, golden.canonical, { finishReason: 'stop' }).kind).toBe('pass');
    }
  });
});
