import { describe, expect, it } from 'vitest';
import { PyRandom } from '../../../src/rng/index.js';
import { dpll } from '../../../src/tasks/puzzles/sat/dpll.js';
import { Q_HIDDEN, type SatInstance, trueLiterals } from '../../../src/tasks/puzzles/sat/generate.js';
import { satTask } from '../../../src/tasks/puzzles/sat/index.js';
import { writeAssignment } from '../../../src/tasks/puzzles/sat/render.js';
import { validateSat } from '../../../src/tasks/puzzles/sat/validate.js';
import { assertGarbageClassified, simulatedPassRate } from '../../support/puzzle-contract.js';

const LEVELS = [1, 2, 3, 4, 5, 6];
const SEEDS = [1, 2, 3, 4];
const make = (level: number, seed: number): SatInstance =>
  satTask.generate(new PyRandom(seed), level, { seed }) as SatInstance;
const answer = (values: boolean[]) =>
  `Reasoning…\nassignment = ${writeAssignment(Object.fromEntries(values.map((v, i) => [String(i + 1), v])))}`;

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
  it('collapses the ways a model declares a formula unsatisfiable', () => {
    for (const level of LEVELS) {
      for (const seed of SEEDS) {
        const instance = make(level, seed);
        const impossible = satTask.grade(instance, 'After checking, this formula is unsatisfiable.');
        expect(impossible.kind).toBe('collapse');
        expect(impossible.issues[0]).toMatch(/impossible/);
        expect(satTask.grade(instance, 'The formula is UNSAT.\nassignment = UNSAT').kind).toBe('collapse');
        expect(satTask.grade(instance, 'No solution exists.\nassignment = {}').kind).toBe('collapse');
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

  it('fails a missing variable and a non-boolean value (every literal read must have a boolean value)', () => {
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
    assertGarbageClassified(satTask, instance, [
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
      simulatedPassRate(satTask, level, retention, { samples: 60, rngSeedBase: 1000 });
    expect(rate(3, 1)).toBe(1);
    expect(rate(1, 0.97)).toBeGreaterThan(rate(6, 0.97));
  });

  it('budgets grow with the level', () => {
    const budgets = LEVELS.map((level) => satTask.maxOutputTokens(level, 'per-level'));
    for (let i = 1; i < budgets.length; i++) expect(budgets[i]).toBeGreaterThan(budgets[i - 1]);
    expect(satTask.render(make(6, 1)).user).toContain('assignment = {"1": true');
  });
});
