import { describe, expect, it } from 'vitest';
import { PyRandom } from '../../../src/rng/index.js';
import { applyPermutation, faceletIssues, SOLVED } from '../../../src/tasks/puzzles/rubik/cube.js';
import { canFollow, exactDistanceUpTo } from '../../../src/tasks/puzzles/rubik/distance.js';
import type { RubikInstance } from '../../../src/tasks/puzzles/rubik/generate.js';
import { rubikTask } from '../../../src/tasks/puzzles/rubik/index.js';
import { invertSequence, parseMoveToken, sequencePermutation } from '../../../src/tasks/puzzles/rubik/notation.js';
import { assertGarbageClassified, simulatedPassRate } from '../../support/puzzle-contract.js';

const LEVELS = [1, 2, 3, 4, 5, 6];
const SEEDS = [1, 2, 3];
const make = (level: number, seed: number): RubikInstance =>
  rubikTask.generate(new PyRandom(seed), level, { seed }) as RubikInstance;
const scrambled = (moves: string): string => applyPermutation(SOLVED, sequencePermutation(moves.split(' ')));
const answer = (tokens: string[]): string => `Let me think.\nmoves = ${JSON.stringify(tokens)}`;

/** puzzles.md §10.4 (ldez/cubejs spec plus single-face vectors). */
const VECTORS: [string, string][] = [
  ['U', 'UUUUUUUUUBBBRRRRRRRRRFFFFFFDDDDDDDDDFFFLLLLLLLLLBBBBBB'],
  ["U R F' L'", 'DURRUFRRRBRBDRBDRBFDDDFFDFFBLLBDBLDLFUUFLLFLLULRUBUUBU'],
  ["M' u2 z' S", 'LLRUFULLRDLDBLBDRDBBFUUDBBFRRLDBDRRLURUFRFULUBFFUDDBFF'],
  ['R', 'UUFUUFUUFRRRRRRRRRFFDFFDFFDDDBDDBDDBLLLLLLLLLUBBUBBUBB'],
  ['F', 'UUUUUULLLURRURRURRFFFFFFFFFRRRDDDDDDLLDLLDLLDBBBBBBBBB'],
  ['D', 'UUUUUUUUURRRRRRFFFFFFFFFLLLDDDDDDDDDLLLLLLBBBBBBBBBRRR'],
  ['L', 'BUUBUUBUURRRRRRRRRUFFUFFUFFFDDFDDFDDLLLLLLLLLBBDBBDBBD'],
  ['B', 'RRRUUUUUURRDRRDRRDFFFFFFFFFDDDDDDLLLULLULLULLBBBBBBBBB'],
  ["U'", 'UUUUUUUUUFFFRRRRRRLLLFFFFFFDDDDDDDDDBBBLLLLLLRRRBBBBBB'],
  ['R2', 'UUDUUDUUDRRRRRRRRRFFBFFBFFBDDUDDUDDULLLLLLLLLFBBFBBFBB'],
  ['U2 D2 F2 B2 L2 R2', 'UDUDUDUDURLRLRLRLRFBFBFBFBFDUDUDUDUDLRLRLRLRLBFBFBFBFB'],
  ["U R2 F B R B2 R U2 L B2 R U' D' R2 F R' L B2 U2 F2", 'UBULURUFURURFRBRDRFUFLFRFDFDFDLDRDBDLULBLFLDLBUBRBLBDB'],
  [
    "D2 F' U2 R2 B' L2 F' R2 U2 B2 D R' B D' L U F2 R D2 U' B'",
    'FRFBUFDLBDRDFRULURBBRDFLFBFDRULDBUDBUDLFLRBDLRURLBUUFL',
  ],
  [Array(6).fill("R U R' U'").join(' '), SOLVED],
];

describe('rubik facelet model (puzzles.md §10)', () => {
  it.each(VECTORS)('%s applied to the solved cube gives the §10.4 facelet string', (moves, expected) => {
    expect(scrambled(moves)).toBe(expected);
    expect(faceletIssues(expected)).toEqual([]);
  });

  it("solves Kociemba's README example and two javares.txt pairs", () => {
    const suffix: Record<string, string> = { '1': '', '2': '2', '3': "'" };
    const readme = 'L3 U1 B1 R2 F3 L1 F3 U2 L1 U3 B3 U2 B1 L2 F1 U2 R2 L2 B2'
      .split(' ')
      .map((t) => t[0] + suffix[t[1]]);
    const pairs: [string, string[]][] = [
      ['DUUBULDBFRBFRRULLLBRDFFFBLURDBFDFDRFRULBLUFDURRBLBDUDL', readme],
      [
        'BBURUDBFUFFFRRFUUFLULUFUDLRRDBBDBDBLUDDFLLRRBRLLLBRDDF',
        "B U' L' D' R' D' L2 D' L F' L' D F2 R2 U R2 B2 U2 L2 F2 D'".split(' '),
      ],
      [
        'DRURUFBBDBDFRRLUFDRULLFUURLLDFUDLRFRLBUDLBDLBRFFDBBFUB',
        "R L2 F B U' F' D F' U B2 L' U2 B2 U D' B2 U2 L2 D' R2 D2".split(' '),
      ],
    ];
    for (const [state, solution] of pairs) {
      expect(applyPermutation(state, sequencePermutation(solution))).toBe(SOLVED);
      expect(applyPermutation(SOLVED, sequencePermutation(invertSequence(solution)))).toBe(state);
    }
  });

  it('normalises WCA variants and rejects illegal tokens', () => {
    const same = (a: string, b: string) => expect(parseMoveToken(a)?.perm).toEqual(parseMoveToken(b)?.perm);
    same('R’', "R'");
    same('R′', "R'");
    same("R2'", 'R2');
    same("R'2", 'R2');
    same('r', 'Rw');
    expect(parseMoveToken("R'")?.token).toBe("R'");
    for (const bad of ['X', 'R3', 'R1', 'X3', 'RotateFaceRight', "R''", 'Rw3', '', 'w', 'RR']) {
      expect(parseMoveToken(bad)).toBeNull();
    }
    // lower case is a wide turn (SiGN), not a face turn: r ≠ R
    expect(parseMoveToken('r')?.perm).not.toEqual(parseMoveToken('R')?.perm);
  });

  it('computes exact distances by meet in the middle', () => {
    expect(exactDistanceUpTo(SOLVED, 8)).toBe(0);
    expect(exactDistanceUpTo(scrambled("R U R' U'"), 8)).toBe(4);
    expect(exactDistanceUpTo(scrambled('R L'), 8)).toBe(2);
    expect(exactDistanceUpTo(scrambled('R R'), 8)).toBe(1); // R R = R2
    expect(exactDistanceUpTo(scrambled("R U R' U' R U R' U'"), 3)).toBeNull();
    // a canonical length-6 scramble that is really 5 from solved (found by the generator's check)
    expect(exactDistanceUpTo(scrambled('L2 B2 L2 B2 R L2'), 8)).toBe(5);
    expect(exactDistanceUpTo(scrambled('U2 D2 F2 B2 L2 R2'), 8)).toBe(6);
  });
});

describe('rubik generator', () => {
  it('draws canonical scrambles whose exact optimal distance equals the level length', () => {
    const lengths = [1, 2, 3, 4, 6, 8];
    for (const level of LEVELS) {
      expect(rubikTask.levels.knob?.(level)).toBe(lengths[level - 1]);
      for (const seed of SEEDS) {
        const { data } = make(level, seed);
        expect(data.scramble).toHaveLength(lengths[level - 1]);
        expect(data.optimalDistance).toBe(lengths[level - 1]);
        expect(data.attempts).toBeGreaterThanOrEqual(1);
        const faces = data.scramble.map((t) => t[0] as 'U');
        for (let i = 0; i < faces.length; i++) expect(canFollow(i === 0 ? null : faces[i - 1], faces[i])).toBe(true);
        expect(data.state).toBe(scrambled(data.scramble.join(' ')));
        const length = lengths[level - 1];
        expect(exactDistanceUpTo(data.state, length - 1)).toBeNull();
        if (length <= 6) expect(exactDistanceUpTo(data.state, length)).toBe(length);
      }
    }
  });

  it('is deterministic per seed', () => {
    expect(JSON.stringify(make(6, 4))).toBe(JSON.stringify(make(6, 4)));
  });
});

describe('rubik grading', () => {
  it('collapses the ways a model declares a cube unsolvable', () => {
    for (const level of LEVELS) {
      for (const seed of SEEDS) {
        const instance = make(level, seed);
        expect(rubikTask.grade(instance, 'This cube state is impossible to solve.').kind).toBe('collapse');
        expect(rubikTask.grade(instance, 'No solution exists.\nmoves = []').kind).toBe('collapse');
      }
    }
  });

  it('fails wrong facelets: a wrong turn direction leaves the cube unsolved', () => {
    for (const level of LEVELS) {
      const instance = make(level, 11);
      const moves = [...instance.answer];
      const last = moves[moves.length - 1];
      moves[moves.length - 1] = last.endsWith('2') ? last[0] : last.endsWith("'") ? last[0] : `${last}'`;
      const outcome = rubikTask.grade(instance, answer(moves));
      expect(outcome.kind).toBe('fail');
      expect(outcome.issues[0]).toMatch(/not solved after \d+ moves: \d+ facelets differ/);
      expect(rubikTask.grade(instance, 'moves = []').kind).toBe('fail');
    }
  });

  it('fails illegal tokens, listing each, with kStar at the first', () => {
    const instance = make(3, 2);
    const moves = [...instance.answer];
    const outcome = rubikTask.grade(instance, answer([moves[0], 'R3', moves[1], 'X', 7 as unknown as string]));
    expect(outcome.kind).toBe('fail');
    expect(outcome.kStar).toBe(2);
    expect(outcome.issues).toEqual([
      "move 2: 'R3' is not a legal move token",
      "move 4: 'X' is not a legal move token",
      'move 5: 7 (not a string) is not a legal move token',
    ]);
  });

  it('accepts notation variants: one string, typographic primes, 2-prime, redundant but solving sequences', () => {
    const instance = make(4, 5);
    const tokens = instance.answer.map((t) => t.replace("'", '’'));
    expect(rubikTask.grade(instance, `moves = ["${tokens.join(' ')}"]`).kind).toBe('pass');
    const halfPrime = instance.answer.map((t) => (t.endsWith('2') ? `${t}'` : t));
    expect(rubikTask.grade(instance, answer(halfPrime)).kind).toBe('pass');
    expect(rubikTask.grade(instance, answer(['U', "U'", ...instance.answer, 'R2', 'R2'])).kind).toBe('pass');
    // a whole-cube rotation after solving still counts as solved (centres move with it)
    expect(rubikTask.grade(instance, answer([...instance.answer, 'x', 'y2'])).kind).toBe('pass');
    expect(rubikTask.grade(instance, `moves = "${instance.answer.join(' ')}"`).kind).toBe('collapse');
  });

  it('never throws on garbage and always classifies it', () => {
    const instance = make(5, 1);
    assertGarbageClassified(rubikTask, instance, [
      'moves = ',
      'moves',
      '=',
      '[',
      ']',
      '"R"',
      '"U\'"',
      ',',
      '"',
      'null',
      '```',
      '{',
      '}',
    ]);
  });

  it('simulate: retention 1 passes; with retention 0.9 the pass rate falls from L1 to L6', () => {
    const rate = (level: number, retention: number) =>
      simulatedPassRate(rubikTask, level, retention, { samples: 60, rngSeedBase: 77 });
    expect(rate(6, 1)).toBe(1);
    expect(rate(1, 0.9)).toBeGreaterThan(rate(6, 0.9));
  });

  it('budgets grow with the level', () => {
    const budgets = LEVELS.map((level) => rubikTask.maxOutputTokens(level, 'per-level'));
    for (let i = 1; i < budgets.length; i++) expect(budgets[i]).toBeGreaterThan(budgets[i - 1]);
  });
});
