import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PyRandom } from '../../../src/rng/index.js';
import { COLORING_LEVELS, type ColoringInstance } from '../../../src/tasks/puzzles/coloring/generate.js';
import { findColouring, uniformGraph } from '../../../src/tasks/puzzles/coloring/graph.js';
import { coloringTask } from '../../../src/tasks/puzzles/coloring/index.js';

const instanceAt = (level: number, seed = 1): ColoringInstance =>
  coloringTask.generate(new PyRandom(seed), level, { seed });
const colouring = (map: Record<string, unknown>) => `coloring = ${JSON.stringify(map)}`;

describe('graph colouring generation (puzzles.md §7)', () => {
  it('planted instances follow the level table, are colourable and deterministic', () => {
    for (let level = 1; level <= 6; level++) {
      const [n, m, k] = COLORING_LEVELS[level - 1];
      for (const seed of [1, 2, 3, 4]) {
        const instance = instanceAt(level, seed);
        const { edges, classSizes } = instance.data;
        expect(edges).toHaveLength(m);
        expect(new Set(edges.map(([u, v]) => `${u}-${v}`)).size).toBe(m);
        for (const [u, v] of edges) expect(1 <= u && u < v && v <= n).toBe(true);
        expect(Math.max(...classSizes) - Math.min(...classSizes)).toBeLessThanOrEqual(1);
        expect(classSizes.reduce((a, b) => a + b, 0)).toBe(n);
        for (const [u, v] of edges) expect(instance.answer[u]).not.toBe(instance.answer[v]);
        expect(findColouring(n, edges, k)).not.toBeNull();
        expect(JSON.stringify(instanceAt(level, seed))).toBe(JSON.stringify(instance));
      }
      expect(coloringTask.instanceKey(instanceAt(level, 1))).not.toBe(coloringTask.instanceKey(instanceAt(level, 2)));
    }
  });

  it('the exact solver reproduces the uniform G(n, m) 3-colourability table within sampling error', () => {
    // puzzles.md §7, 100 samples per cell; here 200 per cell; tolerance 3 combined standard errors.
    const table: [number, number[]][] = [
      [10, [0.51, 0.22, 0.0, 0.01, 0.0]],
      [20, [0.78, 0.26, 0.12, 0.03, 0.0]],
      [30, [0.88, 0.4, 0.13, 0.0, 0.0]],
      [40, [0.93, 0.54, 0.08, 0.0, 0.0]],
    ];
    const ratios = [1.8, 2.1, 2.35, 2.6, 3.0];
    const samples = 200;
    for (const [n, row] of table) {
      ratios.forEach((ratio, j) => {
        let colourable = 0;
        for (let s = 0; s < samples; s++) {
          const edges = uniformGraph(new PyRandom(`${n}:${ratio}:${s}`), n, Math.round(ratio * n));
          if (findColouring(n, edges, 3) !== null) colourable++;
        }
        const p = Math.min(0.98, Math.max(0.02, row[j]));
        const tolerance = 3 * Math.sqrt(p * (1 - p) * (1 / 100 + 1 / samples));
        expect(Math.abs(colourable / samples - row[j]), `n=${n} m/n=${ratio}`).toBeLessThanOrEqual(tolerance);
      });
    }
  });
});

describe('graph colouring grading', () => {
  it('fails adjacent vertices with the same colour, reporting every conflict and the first edge', () => {
    const instance = instanceAt(1);
    const [u, v] = instance.data.edges[2];
    const bad = { ...instance.answer, [String(u)]: instance.answer[String(v)] };
    const outcome = coloringTask.grade(instance, colouring(bad));
    expect(outcome.kind).toBe('fail');
    expect(outcome.issues.join('\n')).toContain(`(${u}, ${v}) both ${instance.answer[String(v)]}`);
    expect(outcome.kStar).toBeGreaterThanOrEqual(1);
    expect(outcome.kStar).toBeLessThanOrEqual(3);
    const first = instance.data.edges[outcome.kStar - 1];
    expect(bad[String(first[0])]).toBe(bad[String(first[1])]);
  });

  it('collects missing, unknown, off-palette and too-many-colour issues (Algorithm 6)', () => {
    const instance = instanceAt(1);
    const { '1': _dropped, ...rest } = instance.answer;
    const outcome = coloringTask.grade(instance, colouring({ ...rest, '9': 1, '02': 1, '3': 4, '4': '2' }));
    expect(outcome.kind).toBe('fail');
    const text = outcome.issues.join('\n');
    expect(text).toMatch(/missing vertices: 1/);
    expect(text).toMatch(/unknown vertices: "02", "9"|unknown vertices: "9", "02"/);
    expect(text).toMatch(/colours outside the palette 1–3: 3 → 4, 4 → "2"/);
    expect(text).toMatch(/too many colours: 5 distinct colours used, at most 3 allowed/);
    const onlyExtra = coloringTask.grade(instance, colouring({ ...instance.answer, '99': 1 }));
    expect(onlyExtra).toMatchObject({ kind: 'fail', kStar: -1 });
  });

  it('accepts any proper colouring, not only the planted one', () => {
    const instance = instanceAt(2);
    const permuted = Object.fromEntries(Object.entries(instance.answer).map(([v, c]) => [v, (c % 3) + 1]));
    expect(coloringTask.grade(instance, colouring(permuted)).kind).toBe('pass');
  });

  it('collapses a colouring given as a list', () => {
    expect(coloringTask.grade(instanceAt(1), 'coloring = [1, 2, 3]').kind).toBe('collapse');
  });

  it('simulate is exact at retention 1 and its pass rate falls with the level', () => {
    const knobs = { retention: 1, recover: 0, capacity: 0 };
    for (let level = 1; level <= 6; level++) {
      const instance = instanceAt(level);
      expect(coloringTask.grade(instance, coloringTask.simulate(instance, new PyRandom(1), knobs)).kind).toBe('pass');
    }
    const rate = (level: number) => {
      let pass = 0;
      for (let seed = 0; seed < 300; seed++) {
        const instance = instanceAt(level, seed);
        const text = coloringTask.simulate(instance, new PyRandom(seed), { ...knobs, retention: 0.95 });
        if (coloringTask.grade(instance, text).kind === 'pass') pass++;
      }
      return pass;
    };
    expect(rate(1)).toBeGreaterThan(rate(3));
    expect(rate(3)).toBeGreaterThan(rate(6));
  });

  it('random garbage never throws and is always classified', () => {
    const instance = instanceAt(2);
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.json().map((j) => `coloring = ${j}`),
          fc
            .dictionary(fc.string({ maxLength: 3 }), fc.oneof(fc.integer({ min: -1, max: 5 }), fc.string()))
            .map(colouring),
        ),
        fc.constantFrom('stop', 'length', null),
        (text, finishReason) => {
          const outcome = coloringTask.grade(instance, text, { finishReason });
          expect(['pass', 'fail', 'collapse']).toContain(outcome.kind);
          if (outcome.kind !== 'pass') expect(outcome.issues.length).toBeGreaterThan(0);
        },
      ),
    );
  });
});
