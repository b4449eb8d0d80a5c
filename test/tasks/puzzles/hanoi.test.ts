import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PyRandom } from '../../../src/rng/index.js';
import { HANOI_DISKS, type HanoiInstance } from '../../../src/tasks/puzzles/hanoi/generate.js';
import { hanoiTask } from '../../../src/tasks/puzzles/hanoi/index.js';
import { solveHanoi } from '../../../src/tasks/puzzles/hanoi/rules.js';
import { validateHanoi } from '../../../src/tasks/puzzles/hanoi/validate.js';

const instanceAt = (level: number, seed = 1): HanoiInstance => hanoiTask.generate(new PyRandom(seed), level, { seed });
const grade = (level: number, text: string) => hanoiTask.grade(instanceAt(level), text, { finishReason: 'stop' });

describe('hanoi facts (puzzles.md §2, §11)', () => {
  it('the reference solution has 2^n − 1 moves and is legal for n = 1…10', () => {
    for (let n = 1; n <= 10; n++) {
      const moves = solveHanoi(n);
      expect(moves).toHaveLength(2 ** n - 1);
      expect(validateHanoi(n, moves).kind).toBe('pass');
    }
  });

  it('follows the level table and records the parameters', () => {
    expect(HANOI_DISKS).toEqual([3, 4, 5, 6, 8, 10]);
    for (let level = 1; level <= 6; level++) {
      const instance = instanceAt(level);
      expect(instance.data.minMoves).toBe(2 ** HANOI_DISKS[level - 1] - 1);
      expect(instance.answer).toHaveLength(instance.data.minMoves);
      expect(instance.trace).toHaveLength(instance.data.minMoves);
      expect(instance.trace.at(-1)).toEqual([
        [],
        [],
        Array.from({ length: HANOI_DISKS[level - 1] }, (_, i) => HANOI_DISKS[level - 1] - i),
      ]);
      expect(hanoiTask.levels.knob?.(level)).toBe(HANOI_DISKS[level - 1]);
    }
    expect(() => instanceAt(7)).toThrow(/level 7/);
  });
});

describe('hanoi grading', () => {
  it('a legal but non-minimal solution still passes', () => {
    const detour = [[1, 'A', 'B'], [1, 'B', 'A'], ...solveHanoi(3)];
    expect(grade(1, `moves = ${JSON.stringify(detour)}`).kind).toBe('pass');
  });

  it('fails illegal moves at the first offending move, with the reason', () => {
    // Disk 2 onto disk 1 at move 3.
    const larger = grade(1, 'moves = [[1, "A", "C"], [2, "A", "B"], [2, "B", "C"]]');
    expect(larger).toMatchObject({ kind: 'fail', kStar: 3 });
    expect(larger.issues[0]).toMatch(/disk 2 placed on smaller disk 1/);
    const notTop = grade(1, 'moves = [[2, "A", "C"]]');
    expect(notTop).toMatchObject({ kind: 'fail', kStar: 1 });
    expect(notTop.issues[0]).toMatch(/not on top of peg A \(the top disk is 1\)/);
    expect(grade(1, 'moves = [[1, "B", "C"]]').issues[0]).toMatch(/peg B is empty/);
    expect(grade(1, 'moves = [[1, "A", "A"]]').issues[0]).toMatch(/same peg/);
    expect(grade(1, 'moves = [[1, "A", "D"]]')).toMatchObject({ kind: 'fail', kStar: 1 });
    expect(grade(1, 'moves = [[1, "A", "C"], [2, "A"]]')).toMatchObject({ kind: 'fail', kStar: 2 });
  });

  it('fails a legal sequence that stops short of the goal (kStar = T + 1)', () => {
    const partial = solveHanoi(3).slice(0, 6);
    const outcome = grade(1, `moves = ${JSON.stringify(partial)}`);
    expect(outcome).toMatchObject({ kind: 'fail', kStar: 7 });
    expect(outcome.issues[0]).toMatch(/goal not reached after 6 moves/);
    expect(grade(1, 'moves = []')).toMatchObject({ kind: 'fail', kStar: 1 });
  });

  it('collapses on prose, Python-style lists and a non-list answer', () => {
    expect(grade(1, 'Move disk 1 from A to C, then ...').kind).toBe('collapse');
    expect(grade(1, "moves = [[1, 'A', 'C']]").kind).toBe('collapse');
    expect(grade(1, 'moves = {"1": "A"}').kind).toBe('collapse');
  });

  it('the prompt is complexity-invariant: only the disk count changes', () => {
    const strip = (level: number) => {
      const { system, user } = hanoiTask.render(instanceAt(level));
      return system + user.replaceAll(String(HANOI_DISKS[level - 1]), 'N');
    };
    for (let level = 2; level <= 6; level++) expect(strip(level)).toBe(strip(1));
    expect(hanoiTask.render(instanceAt(1)).user).toContain('moves = [[1, "A", "B"]');
  });

  it('simulate is deterministic, exact at retention 1 and loses accuracy with the level', () => {
    const knobs = { retention: 1, recover: 0, capacity: 0 };
    for (let level = 1; level <= 6; level++) {
      const text = hanoiTask.simulate(instanceAt(level), new PyRandom(5), knobs);
      expect(grade(level, text).kind).toBe('pass');
    }
    const passRate = (level: number) => {
      let pass = 0;
      for (let seed = 0; seed < 200; seed++) {
        const text = hanoiTask.simulate(instanceAt(level), new PyRandom(seed), { ...knobs, retention: 0.99 });
        if (grade(level, text).kind === 'pass') pass++;
      }
      return pass / 200;
    };
    const first = hanoiTask.simulate(instanceAt(3), new PyRandom(9), { ...knobs, retention: 0.9 });
    expect(hanoiTask.simulate(instanceAt(3), new PyRandom(9), { ...knobs, retention: 0.9 })).toBe(first);
    const rates = [1, 3, 5, 6].map(passRate);
    expect(rates[0]).toBeGreaterThan(rates[1]);
    expect(rates[1]).toBeGreaterThan(rates[2]);
    expect(rates[2]).toBeGreaterThan(rates[3]);
    expect(grade(3, first).kind).not.toBe('collapse');
  });

  it('budgets are the per-level table (≥ 4× the canonical answer plus room to reason)', () => {
    expect([1, 2, 3, 4, 5, 6].map((l) => hanoiTask.maxOutputTokens(l, 'per-level'))).toEqual([
      4096, 4096, 8192, 8192, 16384, 32768,
    ]);
  });

  it('random garbage never throws and is always classified', () => {
    const instance = instanceAt(2);
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.json().map((j) => `moves = ${j}`),
          fc
            .array(
              fc.tuple(
                fc.integer({ min: -1, max: 5 }),
                fc.constantFrom('A', 'B', 'C', 'D'),
                fc.constantFrom('A', 'B', 'C'),
              ),
            )
            .map((m) => `moves = ${JSON.stringify(m)}`),
        ),
        fc.constantFrom('stop', 'length', null),
        (text, finishReason) => {
          const outcome = hanoiTask.grade(instance, text, { finishReason });
          expect(['pass', 'fail', 'collapse']).toContain(outcome.kind);
          if (outcome.kind !== 'pass') expect(outcome.issues.length).toBeGreaterThan(0);
        },
      ),
    );
  });
});
