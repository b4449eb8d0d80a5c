import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PyRandom } from '../../../src/rng/index.js';
import { JUG_LEVELS, type JugInstance } from '../../../src/tasks/puzzles/jug/generate.js';
import { jugTask } from '../../../src/tasks/puzzles/jug/index.js';
import { isJugSolvable, jugTrace, solveJug } from '../../../src/tasks/puzzles/jug/rules.js';
import { validateJug } from '../../../src/tasks/puzzles/jug/validate.js';

const instanceAt = (level: number, seed = 1): JugInstance => jugTask.generate(new PyRandom(seed), level, { seed });
const grade = (level: number, text: string) => jugTask.grade(instanceAt(level), text, { finishReason: 'stop' });
const steps = (...ops: string[]) => `moves = ${JSON.stringify(ops.map((op) => [op]))}`;

/** puzzles.md §8 BFS minimum steps by example (cA, cB, g). */
const BFS_TABLE: [number, [number, number, number][]][] = [
  [2, [[4, 5, 1]]],
  [4, [[4, 5, 3]]],
  [
    6,
    [
      [3, 5, 4],
      [4, 5, 2],
    ],
  ],
  [
    8,
    [
      [4, 7, 2],
      [4, 9, 6],
    ],
  ],
  [
    10,
    [
      [4, 9, 2],
      [7, 11, 6],
      [8, 5, 4],
    ],
  ],
  [
    12,
    [
      [4, 11, 2],
      [4, 13, 6],
    ],
  ],
  [
    14,
    [
      [4, 13, 2],
      [4, 15, 6],
    ],
  ],
  [
    16,
    [
      [4, 15, 2],
      [4, 17, 6],
    ],
  ],
  [18, [[4, 17, 2]]],
  [
    20,
    [
      [4, 19, 2],
      [4, 21, 6],
    ],
  ],
  [
    24,
    [
      [4, 23, 2],
      [5, 21, 8],
    ],
  ],
  [
    28,
    [
      [5, 24, 12],
      [7, 23, 8],
    ],
  ],
  [30, [[7, 24, 12]]],
  [36, [[13, 25, 19]]],
  [
    46,
    [
      [24, 25, 12],
      [23, 25, 24],
    ],
  ],
];

describe('water jug facts (puzzles.md §8, §11)', () => {
  it('reproduces the BFS minimum table and the solvability rule', () => {
    for (const [min, instances] of BFS_TABLE) {
      for (const [a, b, g] of instances) {
        const ops = solveJug(a, b, g);
        expect(ops?.length, `(${a}, ${b}, ${g})`).toBe(min);
        expect(
          validateJug(
            a,
            b,
            g,
            ops!.map((op) => [op]),
          ).kind,
        ).toBe('pass');
      }
    }
    expect(solveJug(2, 6, 5)).toBeNull();
    expect(isJugSolvable(2, 6, 5)).toBe(false);
    for (let a = 1; a <= 12; a++) {
      for (let b = 1; b <= 12; b++) {
        for (let g = 1; g <= 12; g++) expect(solveJug(a, b, g) !== null).toBe(isJugSolvable(a, b, g));
      }
    }
  });

  it('(3, 5, 4) is solved by the paper sequence, which is the BFS minimum', () => {
    const ops = solveJug(3, 5, 4)!;
    expect(jugTrace(ops, 3, 5)).toEqual([
      [0, 5],
      [3, 2],
      [0, 2],
      [2, 0],
      [2, 5],
      [3, 4],
    ]);
  });

  it('follows the level table', () => {
    expect(JUG_LEVELS).toEqual([
      [4, 5, 3],
      [3, 5, 4],
      [4, 9, 6],
      [4, 13, 6],
      [4, 17, 6],
      [5, 21, 8],
    ]);
    const minima = [4, 6, 8, 12, 16, 24];
    for (let level = 1; level <= 6; level++) expect(instanceAt(level).data.minSteps).toBe(minima[level - 1]);
  });
});

describe('water jug grading', () => {
  it('fails malformed steps and unknown operators at their index (Algorithm 7)', () => {
    expect(grade(2, 'moves = [["Fill B"], ["Fill A", "Empty B"]]')).toMatchObject({ kind: 'fail', kStar: 2 });
    expect(grade(2, 'moves = ["Fill B"]').issues[0]).toMatch(/step 1: not a one-element list/);
    const unknown = grade(2, steps('Fill B', 'pour B to A'));
    expect(unknown).toMatchObject({ kind: 'fail', kStar: 2 });
    expect(unknown.issues[0]).toMatch(/unknown operator "pour B to A"/);
    expect(grade(2, steps('Fill jug 2')).issues[0]).toMatch(/unknown operator/);
  });

  it('fails an overflowing pour that leaves the goal unreached, naming the overflow', () => {
    // (3, 5, 4): the model believes pouring a full B into a full A still moves water.
    const outcome = grade(2, steps('Fill B', 'Pour B to A', 'Pour B to A', 'Empty A'));
    expect(outcome).toMatchObject({ kind: 'fail', kStar: 5 });
    expect(outcome.issues[0]).toMatch(/goal not reached after 4 steps: \(A, B\) = \(0, 2\), target 4/);
    expect(outcome.issues[1]).toMatch(/step 3: Pour B to A into a full jug A \(overflow\) moves no water/);
    const underflow = grade(2, steps('Pour A to B', 'Fill B'));
    expect(underflow.issues[1]).toMatch(/step 1: Pour A to B from an empty jug A \(underflow\)/);
  });

  it('fails a sequence that reaches the goal and keeps going; passes a longer valid one', () => {
    const canonical = instanceAt(2).answer;
    const overshoot = grade(2, steps(...canonical, 'Empty B'));
    expect(overshoot).toMatchObject({ kind: 'fail', kStar: 7 });
    expect(overshoot.issues[0]).toMatch(/4 was reached after step 6/);
    expect(grade(2, steps('Fill A', 'Empty A', ...canonical)).kind).toBe('pass');
  });

  it('simulate is exact at retention 1 and its pass rate falls with the level', () => {
    const knobs = { retention: 1, recover: 0, capacity: 0 };
    for (let level = 1; level <= 6; level++) {
      expect(grade(level, jugTask.simulate(instanceAt(level), new PyRandom(2), knobs)).kind).toBe('pass');
    }
    const rate = (level: number) => {
      const instance = instanceAt(level);
      let pass = 0;
      for (let seed = 0; seed < 300; seed++) {
        if (
          jugTask.grade(instance, jugTask.simulate(instance, new PyRandom(seed), { ...knobs, retention: 0.93 }))
            .kind === 'pass'
        )
          pass++;
      }
      return pass;
    };
    expect(rate(1)).toBeGreaterThan(rate(3));
    expect(rate(3)).toBeGreaterThan(rate(6));
  });

  it('random garbage never throws and is always classified', () => {
    const instance = instanceAt(3);
    const op = fc.constantFrom('Fill A', 'Fill B', 'Empty A', 'Empty B', 'Pour A to B', 'Pour B to A', 'Fill C', '');
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.json().map((j) => `moves = ${j}`),
          fc.array(op).map((ops) => steps(...ops)),
        ),
        fc.constantFrom('stop', 'length', null),
        (text, finishReason) => {
          const outcome = jugTask.grade(instance, text, { finishReason });
          expect(['pass', 'fail', 'collapse']).toContain(outcome.kind);
          if (outcome.kind !== 'pass') expect(outcome.issues.length).toBeGreaterThan(0);
        },
      ),
    );
  });
});
