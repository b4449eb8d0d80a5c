import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PyRandom } from '../../../src/rng/index.js';
import { RIVER_LEVELS, type RiverInstance } from '../../../src/tasks/puzzles/river/generate.js';
import { riverTask } from '../../../src/tasks/puzzles/river/index.js';
import { isSafe, solveRiver, tripNames } from '../../../src/tasks/puzzles/river/rules.js';
import { validateRiver } from '../../../src/tasks/puzzles/river/validate.js';

const instanceAt = (level: number, seed = 1): RiverInstance => riverTask.generate(new PyRandom(seed), level, { seed });
const grade = (level: number, text: string) => riverTask.grade(instanceAt(level), text, { finishReason: 'stop' });
const moves = (trips: string[][]) => `moves = ${JSON.stringify(trips)}`;

/** puzzles.md §4 minimum-crossing table: rows n = 1…10, columns k = 1…5; null = unsolvable, undefined = not computed. */
const TABLE: (number | null | undefined)[][] = [
  [null, 1, 1, 1, 1],
  [null, 5, 3, 1, 1],
  [null, 11, 5, 3, 3],
  [null, null, 9, 5, 3],
  [null, null, 11, 7, 5],
  [null, null, null, 9, 7],
  [null, null, null, 11, 7],
  [null, null, null, 13, 9],
  [null, null, null, 15, undefined],
  [null, null, null, 17, 13],
];

describe('river crossing facts (puzzles.md §4, §11)', () => {
  it('reproduces the minimum-crossing table, including its unsolvable cells', () => {
    for (let n = 1; n <= 10; n++) {
      for (let k = 1; k <= 5; k++) {
        const expected = TABLE[n - 1][k - 1];
        if (expected === undefined) continue;
        const solution = solveRiver(n, k);
        expect(solution.minCrossings, `n=${n} k=${k}`).toBe(expected);
        if (expected !== null)
          expect(
            validateRiver(
              n,
              k,
              solution.trips.map((t) => tripNames(t, n)),
            ).kind,
          ).toBe('pass');
      }
    }
  });

  it("Apple's two-pair example is valid and optimal", () => {
    const apple = [['A_2', 'a_2'], ['A_2'], ['A_1', 'A_2'], ['A_1'], ['A_1', 'a_1']];
    expect(validateRiver(2, 2, apple).kind).toBe('pass');
    expect(apple).toHaveLength(solveRiver(2, 2).minCrossings!);
  });

  it('follows the level table with solvable instances', () => {
    expect(RIVER_LEVELS).toEqual([
      [2, 2],
      [3, 2],
      [4, 3],
      [5, 3],
      [7, 4],
      [10, 4],
    ]);
    const minima = [5, 11, 9, 11, 11, 17];
    for (let level = 1; level <= 6; level++) {
      const instance = instanceAt(level);
      expect(instance.data.minCrossings).toBe(minima[level - 1]);
      expect(instance.answer).toHaveLength(minima[level - 1]);
      expect(instance.trace.at(-1)).toEqual([]);
    }
  });
});

describe('river crossing grading', () => {
  it('fails an unsafe boat on the boat check, before the banks are looked at', () => {
    const outcome = grade(1, moves([['a_1', 'A_2']]));
    expect(outcome).toMatchObject({ kind: 'fail', kStar: 1 });
    expect(outcome.issues[0]).toMatch(/trip 1: unsafe boat: a_1 is with A_2 without A_1/);
    const later = grade(3, moves([['a_1', 'a_2'], ['a_1'], ['a_1', 'A_2']]));
    expect(later).toMatchObject({ kind: 'fail', kStar: 3 });
    expect(later.issues[0]).toMatch(/unsafe boat/);
  });

  it('measured: from a safe state an unsafe boat always leaves an unsafe bank (n ≤ 5, any capacity)', () => {
    // So the boat check decides the reported reason, never the verdict or kStar (contrary to the expectation in
    // puzzles.md §4 that a bank-only validator "accepts unsafe boats"): the actor's own agent must be on the
    // departure bank for that bank to have been safe, hence is absent from the arrival bank.
    let unsafeLoads = 0;
    for (let n = 1; n <= 5; n++) {
      const everyone = (1 << (2 * n)) - 1;
      for (let left = 0; left <= everyone; left++) {
        if (!isSafe(left, n) || !isSafe(everyone & ~left, n)) continue;
        for (const boatLeft of [true, false]) {
          const bank = boatLeft ? left : everyone & ~left;
          for (let load = bank; load > 0; load = (load - 1) & bank) {
            if (isSafe(load, n)) continue;
            unsafeLoads++;
            const after = boatLeft ? left & ~load : left | load;
            expect(isSafe(after, n) && isSafe(everyone & ~after, n)).toBe(false);
          }
        }
      }
    }
    expect(unsafeLoads).toBeGreaterThan(10000);
  });

  it('fails an unsafe bank, capacity, membership and unknown names with the matching issue', () => {
    // L1 (2 pairs, k = 2): A_1 alone leaves a_1 with A_2 on the left.
    const bank = grade(1, moves([['A_1']]));
    expect(bank).toMatchObject({ kind: 'fail', kStar: 1 });
    expect(bank.issues[0]).toMatch(/unsafe left bank: a_1 is with A_2 without A_1/);
    expect(grade(1, moves([['A_1', 'a_1', 'a_2']])).issues[0]).toMatch(/exceed the boat capacity 2/);
    expect(grade(1, moves([['a_1', 'a_2'], ['A_1']])).issues[0]).toMatch(/A_1 not on the right bank/);
    expect(grade(1, moves([[]])).issues[0]).toMatch(/cannot cross empty/);
    expect(grade(1, moves([['A_3']])).issues[0]).toMatch(/unknown person "A_3"/);
    expect(grade(1, moves([['a_1', 'a_1']])).issues[0]).toMatch(/listed twice/);
    expect(grade(1, 'moves = ["A_1"]')).toMatchObject({ kind: 'fail', kStar: 1 });
  });

  it('fails a safe sequence that leaves people behind', () => {
    const outcome = grade(1, moves([['a_1', 'a_2'], ['a_1']]));
    expect(outcome).toMatchObject({ kind: 'fail', kStar: 3 });
    expect(outcome.issues[0]).toMatch(/A_1, A_2, a_1 still on the left bank/);
  });

  it('simulate is exact at retention 1 and its pass rate falls with the level', () => {
    const knobs = { retention: 1, recover: 0, capacity: 0 };
    for (let level = 1; level <= 6; level++) {
      expect(grade(level, riverTask.simulate(instanceAt(level), new PyRandom(4), knobs)).kind).toBe('pass');
    }
    const rate = (level: number) => {
      const instance = instanceAt(level);
      let pass = 0;
      for (let seed = 0; seed < 300; seed++) {
        const text = riverTask.simulate(instance, new PyRandom(seed), { ...knobs, retention: 0.9 });
        if (riverTask.grade(instance, text).kind === 'pass') pass++;
      }
      return pass;
    };
    expect(rate(1)).toBeGreaterThan(rate(2));
    expect(rate(2)).toBeGreaterThan(rate(6));
  });

  it('random garbage never throws and is always classified', () => {
    const instance = instanceAt(2);
    const name = fc.tuple(fc.constantFrom('A', 'a', 'B'), fc.integer({ min: 0, max: 4 })).map(([r, i]) => `${r}_${i}`);
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.json().map((j) => `moves = ${j}`),
          fc.array(fc.array(name)).map((t) => moves(t)),
        ),
        fc.constantFrom('stop', 'length', null),
        (text, finishReason) => {
          const outcome = riverTask.grade(instance, text, { finishReason });
          expect(['pass', 'fail', 'collapse']).toContain(outcome.kind);
          if (outcome.kind !== 'pass') expect(outcome.issues.length).toBeGreaterThan(0);
        },
      ),
    );
  });
});
