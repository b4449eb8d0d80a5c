import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PyRandom } from '../../../src/rng/index.js';
import { CHECKERS_PER_COLOUR, type CheckersInstance } from '../../../src/tasks/puzzles/checkers/generate.js';
import { checkersTask } from '../../../src/tasks/puzzles/checkers/index.js';
import { countSolutions, solveCheckers } from '../../../src/tasks/puzzles/checkers/rules.js';
import { validateCheckers } from '../../../src/tasks/puzzles/checkers/validate.js';

const instanceAt = (level: number, seed = 1): CheckersInstance =>
  checkersTask.generate(new PyRandom(seed), level, { seed });
const grade = (level: number, text: string) => checkersTask.grade(instanceAt(level), text, { finishReason: 'stop' });

describe('checker jumping facts (puzzles.md §3, §11)', () => {
  it('n(n+2) moves and exactly two solutions, all optimal, for n = 1…8 (paper and Apple jump rules)', () => {
    for (let n = 1; n <= 8; n++) {
      const expected = { count: 2, minLength: n * (n + 2), maxLength: n * (n + 2) };
      expect(countSolutions(n)).toEqual(expected);
      expect(countSolutions(n, true)).toEqual(expected);
      expect(validateCheckers(n, solveCheckers(n)).kind).toBe('pass');
    }
  });

  it('the two solutions of n = 1 are the paper example and its mirror', () => {
    expect(solveCheckers(1)).toEqual([
      ['R', 0, 1],
      ['B', 2, 0],
      ['R', 1, 2],
    ]);
    expect(
      validateCheckers(1, [
        ['B', 2, 1],
        ['R', 0, 2],
        ['B', 1, 0],
      ]).kind,
    ).toBe('pass');
  });

  it('follows the level table', () => {
    expect(CHECKERS_PER_COLOUR).toEqual([1, 2, 3, 4, 5, 6]);
    for (let level = 1; level <= 6; level++) {
      const { data, answer, trace } = instanceAt(level);
      expect(data.minMoves).toBe(data.checkersPerColour * (data.checkersPerColour + 2));
      expect(answer).toHaveLength(data.minMoves);
      expect(trace.at(-1)).toBe(data.goalBoard);
    }
  });
});

describe('checker jumping grading', () => {
  it('fails a backwards move (forward-only rule) at its index', () => {
    // R 0→1 then R 1→0 back into the empty cell.
    const outcome = grade(1, 'moves = [["R", 0, 1], ["R", 1, 0]]');
    expect(outcome).toMatchObject({ kind: 'fail', kStar: 2 });
    expect(outcome.issues[0]).toMatch(/R moves backwards/);
  });

  it('fails the other Algorithm 2 checks with matching reasons', () => {
    expect(grade(2, 'moves = [["R", 1, 5]]').issues[0]).toMatch(/out of bounds/);
    expect(grade(2, 'moves = [["B", 1, 2]]').issues[0]).toMatch(/cell 1 holds R, not B/);
    expect(grade(2, 'moves = [["R", 0, 1]]').issues[0]).toMatch(/destination cell 1 is not empty/);
    // R 1→2 and R 0→1 leave _RRBB; B 3→1 targets an occupied cell.
    expect(grade(2, 'moves = [["R", 1, 2], ["R", 0, 1], ["B", 3, 1]]')).toMatchObject({ kind: 'fail', kStar: 3 });
    expect(grade(3, 'moves = [["R", 2, 3], ["R", 3, 2]]').kStar).toBe(2);
    expect(grade(3, 'moves = [["B", 4, 3], ["B", 5, 4], ["R", 2, 5]]').issues[0]).toMatch(/move of 3 cells/);
    expect(grade(1, 'moves = [["R", 0, 1], ["R", 1, 2], ["B", 2, 0]]').issues[0]).toMatch(/destination cell 2/);
    expect(grade(1, 'moves = [["X", 0, 1]]')).toMatchObject({ kind: 'fail', kStar: 1 });
  });

  it('accepts a jump over a checker of the same colour as a move (paper rule), which then dead-ends', () => {
    // n = 2: RR_BB, red 0 jumps over red 1 into cell 2 → _RRBB, from which no forward move reaches the goal.
    const outcome = grade(2, 'moves = [["R", 0, 2]]');
    expect(outcome).toMatchObject({ kind: 'fail', kStar: 2 });
    expect(outcome.issues[0]).toMatch(/goal not reached after 1 moves: board _RRBB/);
  });

  // Algorithm 2's "jump over an empty cell" check can never fire: the board has exactly one empty cell and the
  // destination must be it, so the jumped cell is always occupied. The check is kept for fidelity to the paper.

  it('fails a legal dead end (goal not reached)', () => {
    // n = 2: R 1→2, R 0→1 leaves both reds stuck behind the blues.
    const outcome = grade(2, 'moves = [["R", 1, 2], ["R", 0, 1]]');
    expect(outcome).toMatchObject({ kind: 'fail', kStar: 3 });
    expect(outcome.issues[0]).toMatch(/goal not reached after 2 moves: board _RRBB/);
  });

  it('simulate is exact at retention 1 and its pass rate falls with the level', () => {
    const knobs = { retention: 1, recover: 0, capacity: 0 };
    for (let level = 1; level <= 6; level++) {
      expect(grade(level, checkersTask.simulate(instanceAt(level), new PyRandom(3), knobs)).kind).toBe('pass');
    }
    const rate = (level: number) => {
      let pass = 0;
      for (let seed = 0; seed < 300; seed++) {
        const text = checkersTask.simulate(instanceAt(level), new PyRandom(seed), { ...knobs, retention: 0.95 });
        if (grade(level, text).kind === 'pass') pass++;
      }
      return pass;
    };
    expect(rate(1)).toBeGreaterThan(rate(3));
    expect(rate(3)).toBeGreaterThan(rate(6));
  });

  it('random garbage never throws and is always classified', () => {
    const instance = instanceAt(3);
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.json().map((j) => `moves = ${j}`),
          fc
            .array(
              fc.tuple(
                fc.constantFrom('R', 'B', 'G'),
                fc.integer({ min: -2, max: 9 }),
                fc.integer({ min: -2, max: 9 }),
              ),
            )
            .map((m) => `moves = ${JSON.stringify(m)}`),
        ),
        fc.constantFrom('stop', 'length', null),
        (text, finishReason) => {
          const outcome = checkersTask.grade(instance, text, { finishReason });
          expect(['pass', 'fail', 'collapse']).toContain(outcome.kind);
          if (outcome.kind !== 'pass') expect(outcome.issues.length).toBeGreaterThan(0);
        },
      ),
    );
  });
});
