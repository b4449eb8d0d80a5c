import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PyRandom } from '../../../src/rng/index.js';
import { applyD1, D1_OPS, formatGrid, START_GRID } from '../../../src/tasks/ccb/d1/index.js';
import { applyD2, D2_OPS, formatRegisters, START_REGISTERS } from '../../../src/tasks/ccb/d2/index.js';
import type { D3Instance } from '../../../src/tasks/ccb/d3/index.js';
import type { CcbInstance } from '../../../src/tasks/ccb/index.js';
import { generateCell } from '../../../src/tasks/instances.js';
import { resolveTask } from '../../../src/tasks/registry.js';
import type { AnyTaskPlugin } from '../../../src/tasks/task.js';

// Erased plugin types, as the registry hands them out.
const d1Task: AnyTaskPlugin = resolveTask('d1');
const d2Task: AnyTaskPlugin = resolveTask('d2');
const d3Task: AnyTaskPlugin = resolveTask('d3');

const gen = (task: AnyTaskPlugin, seed: number, depth: number, profile = 'official', query = false): CcbInstance =>
  task.generate(new PyRandom(seed), depth, { seed, profile, ...(query ? { query } : {}) });

describe('official generator reproduces the ccb.md §10 test vectors', () => {
  it('D1 N=5 seed 50000 and N=10 seed 100000', () => {
    const a = gen(d1Task, 50000, 5);
    expect(a.data).toEqual({
      ops: ['REVERSE_GRID', 'ROTATE_90_CW', 'SHIFT_ROW_2_LEFT', 'REVERSE_GRID', 'SHIFT_COL_1_UP'],
    });
    expect(a.trace).toEqual([
      '[[9, 8, 7], [6, 5, 4], [3, 2, 1]]',
      '[[3, 6, 9], [2, 5, 8], [1, 4, 7]]',
      '[[3, 6, 9], [5, 8, 2], [1, 4, 7]]',
      '[[7, 4, 1], [2, 8, 5], [9, 6, 3]]',
      '[[2, 4, 1], [9, 8, 5], [7, 6, 3]]',
    ]);
    expect(a.answer).toBe('[[2, 4, 1], [9, 8, 5], [7, 6, 3]]');
    const b = gen(d1Task, 100000, 10);
    expect((b.data as { ops: string[] }).ops.join(', ')).toBe(
      'ROTATE_90_CW, REVERSE_GRID, SHIFT_COL_1_UP, ROTATE_90_CW, TRANSPOSE_GRID, REVERSE_GRID, TRANSPOSE_GRID, TRANSPOSE_GRID, FLIP_HORIZONTAL, SWAP_CORNERS',
    );
    expect(b.trace).toEqual([
      '[[7, 4, 1], [8, 5, 2], [9, 6, 3]]',
      '[[3, 6, 9], [2, 5, 8], [1, 4, 7]]',
      '[[2, 6, 9], [1, 5, 8], [3, 4, 7]]',
      '[[3, 1, 2], [4, 5, 6], [7, 8, 9]]',
      '[[3, 4, 7], [1, 5, 8], [2, 6, 9]]',
      '[[9, 6, 2], [8, 5, 1], [7, 4, 3]]',
      '[[9, 8, 7], [6, 5, 4], [2, 1, 3]]',
      '[[9, 6, 2], [8, 5, 1], [7, 4, 3]]',
      '[[2, 6, 9], [1, 5, 8], [3, 4, 7]]',
      '[[7, 6, 3], [1, 5, 8], [9, 4, 2]]',
    ]);
  });

  it('D2 N=5 seed 50000 and N=10 seed 100000', () => {
    const a = gen(d2Task, 50000, 5);
    expect((a.data as { ops: string[] }).ops.join(', ')).toBe(
      'SET_D_TO_A_PLUS_B, SHIFT_RIGHT, SHIFT_LEFT, SET_D_TO_A_PLUS_B, SET_C_TO_G_MINUS_E',
    );
    expect(a.trace).toEqual([
      '[A=1, B=2, C=3, D=3, E=5, F=6, G=7]',
      '[A=7, B=1, C=2, D=3, E=3, F=5, G=6]',
      '[A=1, B=2, C=3, D=3, E=5, F=6, G=7]',
      '[A=1, B=2, C=3, D=3, E=5, F=6, G=7]',
      '[A=1, B=2, C=2, D=3, E=5, F=6, G=7]',
    ]);
    const b = gen(d2Task, 100000, 10);
    expect((b.data as { ops: string[] }).ops.join(', ')).toBe(
      'SHIFT_RIGHT, SET_D_TO_A_PLUS_B, SHIFT_RIGHT, SET_D_TO_A_PLUS_B, SET_C_TO_G_MINUS_E, SWAP_A_G, SET_C_TO_G_MINUS_E, SET_D_TO_A_PLUS_B, SWAP_A_G, SHIFT_LEFT',
    );
    expect(b.trace).toEqual([
      '[A=7, B=1, C=2, D=3, E=4, F=5, G=6]',
      '[A=7, B=1, C=2, D=8, E=4, F=5, G=6]',
      '[A=6, B=7, C=1, D=2, E=8, F=4, G=5]',
      '[A=6, B=7, C=1, D=3, E=8, F=4, G=5]',
      '[A=6, B=7, C=7, D=3, E=8, F=4, G=5]',
      '[A=5, B=7, C=7, D=3, E=8, F=4, G=6]',
      '[A=5, B=7, C=8, D=3, E=8, F=4, G=6]',
      '[A=5, B=7, C=8, D=2, E=8, F=4, G=6]',
      '[A=6, B=7, C=8, D=2, E=8, F=4, G=5]',
      '[A=7, B=8, C=2, D=8, E=4, F=5, G=6]',
    ]);
  });

  it('D2 depth 5 skips seed 50009 (its chain repeats 50000) and matches the release answers', () => {
    const cell = generateCell<CcbInstance>(d2Task, 5, 40);
    const expectedSeeds = [
      ...Array.from({ length: 9 }, (_, i) => 50000 + i),
      ...Array.from({ length: 31 }, (_, i) => 50010 + i),
    ];
    expect(cell.map((i) => i.seed)).toEqual(expectedSeeds);
    expect(d2Task.instanceKey(gen(d2Task, 50009, 5))).toBe(d2Task.instanceKey(gen(d2Task, 50000, 5)));
    const fixture = JSON.parse(
      readFileSync(new URL('../../../fixtures/ccb/d2-official-depth5-head.json', import.meta.url), 'utf8'),
    ) as { instances: { seed: number; answer: string }[] };
    const bySeed = new Map(cell.map((i) => [i.seed, i.answer]));
    for (const { seed, answer } of fixture.instances) expect(bySeed.get(seed), `seed ${seed}`).toBe(answer);
    const seed50010 = cell.find((i) => i.seed === 50010) as CcbInstance<{ ops: string[] }>;
    expect(seed50010.data.ops.join(', ')).toBe(
      'SHIFT_RIGHT, SWAP_A_G, SWAP_A_G, SET_D_TO_A_PLUS_B, SET_C_TO_G_MINUS_E',
    );
    expect((cell.find((i) => i.seed === 50028) as CcbInstance<{ ops: string[] }>).data.ops).toEqual(
      Array(5).fill('SWAP_A_G'),
    );
  });

  it('D3 N=5 seeds 50000, 50001, 50027 and N=10 seed 100000', () => {
    const a = gen(d3Task, 50000, 5) as D3Instance;
    expect(a.data.events.map((e) => `${e.a}-${e.b} ${e.relation}`)).toEqual([
      'A-H ALLIANCE',
      'E-G RIVALRY',
      'D-G RIVALRY',
      'H-I ALLIANCE',
      'F-I RIVALRY',
    ]);
    expect(a.trace).toEqual([
      '[AH:F]',
      '[AH:F, EG:R]',
      '[AH:F, DE:F, DG:R, EG:R]',
      '[AH:F, AI:F, DE:F, DG:R, EG:R, HI:F]',
      '[AF:R, AH:F, AI:F, DE:F, DG:R, EG:R, FH:R, FI:R, HI:F]',
    ]);
    const b = gen(d3Task, 50001, 5) as D3Instance;
    expect(b.data.events.map((e) => e.forced)).toEqual([false, false, false, false, true]);
    expect(b.answer).toBe('[BD:R, BJ:R, CF:R, DJ:F, HI:F]');
    expect(gen(d3Task, 50027, 5).answer).toBe('[AB:R, AC:R, BC:F, DH:R]');
    const c = gen(d3Task, 100000, 10) as D3Instance;
    expect(c.data.events.map((e) => `${e.a}${e.b}${e.relation[0]}${e.forced ? '*' : ''}`).join(' ')).toBe(
      'BHA GIR GJR DHA CIA DJA AGR BIA* EFR BDA*',
    );
    expect(c.answer).toBe(
      '[AB:F, AC:F, AD:F, AG:R, AH:F, AI:F, AJ:F, BC:F, BD:F, BG:R, BH:F, BI:F, BJ:F, CD:F, CG:R, CH:F, CI:F, CJ:F, DG:R, DH:F, DI:F, DJ:F, EF:R, GH:R, GI:R, GJ:R, HI:F, HJ:F, IJ:F]',
    );
    expect(c.trace[5].split(', ')).toHaveLength(21);
    expect(c.trace[7]).toBe(c.trace[6]);
    expect(c.trace[9]).toBe(c.trace[8]);
    expect(d3Task.render(c).user.split('\n')[1]).toBe('Step 2: G and I form an RIVALRY.');
  });
});

describe('whole official sets (ccb.md §2, §4, §5)', () => {
  const depths = [5, 10, 15, 20, 25, 30, 35, 40, 45, 50];
  it('every cell uses seeds depth*10000 … +39, except D2 depth 5', () => {
    for (const task of [d1Task, d2Task, d3Task]) {
      for (const depth of depths) {
        if (task.id === 'd2' && depth === 5) continue;
        const seeds = generateCell<CcbInstance>(task, depth, 40).map((i) => i.seed);
        expect(seeds, `${task.id} N=${depth}`).toEqual(Array.from({ length: 40 }, (_, a) => depth * 10000 + a));
      }
    }
  });

  it('D2: 340/400 answers repeat a digit, 383/400 traces hold a repeated digit somewhere', () => {
    const all = depths.flatMap((d) => generateCell<CcbInstance>(d2Task, d, 40));
    const repeats = (s: string) => {
      const values = s.match(/\d/g) ?? [];
      return new Set(values).size < values.length;
    };
    expect(all.filter((i) => repeats(i.answer))).toHaveLength(340);
    expect(all.filter((i) => i.trace.some(repeats))).toHaveLength(383);
  });

  it('D3 saturation table: mean answer pairs, fully connected instances, forced events', () => {
    const table: [number, number, number, number][] = [
      [5, 9.2, 0, 15],
      [10, 31.0, 4, 97],
      [15, 41.9, 28, 254],
      [20, 43.58, 35, 445],
      [25, 44.55, 38, 642],
      [30, 44.55, 38, 842],
      [35, 45.0, 40, 1040],
      [40, 45.0, 40, 1240],
      [45, 45.0, 40, 1440],
      [50, 45.0, 40, 1640],
    ];
    for (const [depth, meanPairs, full, forced] of table) {
      const cell = generateCell<D3Instance>(d3Task, depth, 40);
      const pairs = cell.map((i) => i.answer.split(', ').length);
      expect(pairs.reduce((a, b) => a + b, 0) / 40, `N=${depth}`).toBeCloseTo(meanPairs, 2);
      expect(pairs.filter((p) => p === 45)).toHaveLength(full);
      expect(cell.flatMap((i) => i.data.events).filter((e) => e.forced)).toHaveLength(forced);
    }
  });
});

describe('operation semantics on the start state (ccb.md tables)', () => {
  it('D1: the seven operations, in release order', () => {
    expect(D1_OPS).toEqual([
      'ROTATE_90_CW',
      'SHIFT_ROW_2_LEFT',
      'SWAP_CORNERS',
      'REVERSE_GRID',
      'FLIP_HORIZONTAL',
      'TRANSPOSE_GRID',
      'SHIFT_COL_1_UP',
    ]);
    const expected = [
      '[[7, 4, 1], [8, 5, 2], [9, 6, 3]]',
      '[[1, 2, 3], [5, 6, 4], [7, 8, 9]]',
      '[[9, 2, 7], [4, 5, 6], [3, 8, 1]]',
      '[[9, 8, 7], [6, 5, 4], [3, 2, 1]]',
      '[[3, 2, 1], [6, 5, 4], [9, 8, 7]]',
      '[[1, 4, 7], [2, 5, 8], [3, 6, 9]]',
      '[[4, 2, 3], [7, 5, 6], [1, 8, 9]]',
    ];
    expect(D1_OPS.map((op) => formatGrid(applyD1(op, START_GRID)))).toEqual(expected);
    expect(
      formatGrid(
        applyD1(
          'FLIP_HORIZONTAL',
          applyD1('TRANSPOSE_GRID', [
            [5, 1, 9],
            [2, 8, 4],
            [7, 3, 6],
          ]),
        ),
      ),
    ).toBe(
      formatGrid(
        applyD1('ROTATE_90_CW', [
          [5, 1, 9],
          [2, 8, 4],
          [7, 3, 6],
        ]),
      ),
    );
  });

  it('D2: the five operations, in release order, including the G-E edge case', () => {
    expect(D2_OPS).toEqual(['SHIFT_RIGHT', 'SHIFT_LEFT', 'SWAP_A_G', 'SET_D_TO_A_PLUS_B', 'SET_C_TO_G_MINUS_E']);
    expect(D2_OPS.map((op) => formatRegisters(applyD2(op, START_REGISTERS)))).toEqual([
      '[A=7, B=1, C=2, D=3, E=4, F=5, G=6]',
      '[A=2, B=3, C=4, D=5, E=6, F=7, G=1]',
      '[A=7, B=2, C=3, D=4, E=5, F=6, G=1]',
      '[A=1, B=2, C=3, D=3, E=5, F=6, G=7]',
      '[A=1, B=2, C=2, D=4, E=5, F=6, G=7]',
    ]);
    expect(applyD2('SET_C_TO_G_MINUS_E', [1, 2, 3, 4, 6, 6, 2])[2]).toBe(6);
  });
});

describe('paper profile vectors (ccb.md §7)', () => {
  it('D2 seeds 50000, 50001 (N=5) and 100000 (N=10); the depth-5 cell still skips 50009', () => {
    const a = gen(d2Task, 50000, 5, 'paper');
    expect((a.data as { ops: string[] }).ops.join(', ')).toBe(
      'SHIFT_LEFT, SHIFT_RIGHT, SHIFT_RIGHT, SET_D_TO_A_PLUS_B, SET_C_TO_G_MINUS_E',
    );
    expect(a.trace).toEqual([
      '[A=2, B=3, C=4, D=5, E=6, F=7, G=1]',
      '[A=1, B=2, C=3, D=4, E=5, F=6, G=7]',
      '[A=7, B=1, C=2, D=3, E=4, F=5, G=6]',
      '[A=7, B=1, C=2, D=8, E=4, F=5, G=6]',
      '[A=7, B=1, C=2, D=8, E=4, F=5, G=6]',
    ]);
    const b = gen(d2Task, 50001, 5, 'paper');
    expect((b.data as { ops: string[] }).ops.join(', ')).toBe(
      'SHIFT_LEFT, SHIFT_LEFT, SHIFT_LEFT, SHIFT_RIGHT, SWAP_A_G',
    );
    expect(b.answer).toBe('[A=2, B=4, C=5, D=6, E=7, F=1, G=3]');
    const c = gen(d2Task, 100000, 10, 'paper');
    expect((c.data as { ops: string[] }).ops.join(', ')).toBe(
      'SHIFT_RIGHT, SET_D_TO_A_PLUS_B, SHIFT_RIGHT, SET_D_TO_A_PLUS_B, SWAP_A_G, SET_D_TO_A_PLUS_B, SWAP_A_G, SHIFT_LEFT, SET_D_TO_A_PLUS_B, SET_C_TO_G_MINUS_E',
    );
    expect(c.answer).toBe('[A=7, B=1, C=2, D=8, E=4, F=5, G=6]');
    const seeds = generateCell<CcbInstance>(d2Task, 5, 40, { profile: 'paper' }).map((i) => i.seed);
    expect(seeds).not.toContain(50009);
    expect(seeds).toHaveLength(40);
    expect(seeds[39]).toBe(50040);
  });

  it('D3 query pair: seed 50000 N=5 → (C, E) neutral; seed 100000 N=10 → AH:F; events unchanged', () => {
    const a = gen(d3Task, 50000, 5, 'paper', true) as D3Instance;
    expect(a.data.query).toEqual({ a: 'C', b: 'E', relation: 'N' });
    expect(a.answer).toBe('CE:N');
    expect(a.trace).toEqual(gen(d3Task, 50000, 5).trace);
    const b = gen(d3Task, 100000, 10, 'paper', true) as D3Instance;
    expect(b.answer).toBe('AH:F');
    expect(d3Task.render(b).user).toContain('QUERY: What does A believe about H?');
    const stateMode = gen(d3Task, 100000, 10, 'paper') as D3Instance;
    expect(stateMode.data.query?.relation).toBe('F');
    expect(stateMode.answer).toBe(stateMode.trace[9]);
    expect(() => gen(d3Task, 100000, 10, 'official', true)).toThrow(/paper/);
  });
});

describe('release data (ccb_official copy) for D3 depth 5', () => {
  it('events, relation wording and answers match', () => {
    const fixture = JSON.parse(
      readFileSync(new URL('../../../fixtures/ccb/d3-official-depth5-head.json', import.meta.url), 'utf8'),
    ) as { instances: { seed: number; events: string; answer: string }[] };
    const cell = new Map(generateCell<D3Instance>(d3Task, 5, 40).map((i) => [i.seed, i]));
    for (const { seed, events, answer } of fixture.instances) {
      const instance = cell.get(seed) as D3Instance;
      expect(instance, `seed ${seed}`).toBeDefined();
      const prompt = events
        .split(', ')
        .map((e, i) => `Step ${i + 1}: ${e[0]} and ${e[1]} form an ${e[3] === 'A' ? 'ALLIANCE' : 'RIVALRY'}.`)
        .join('\n');
      expect(d3Task.render(instance).user, `seed ${seed}`).toBe(prompt);
      expect(instance.answer, `seed ${seed}`).toBe(answer);
    }
  });
});
