import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  callsFractionBound,
  geometricDepths,
  mostInformativeDepth,
  runAdaptiveDesign,
  taskAnswerer,
  trialInformation,
} from '../../src/assays/adaptive/index.js';
import { PyRandom } from '../../src/rng/index.js';
import { createSubject } from '../../src/subjects/index.js';
import { resolveTask } from '../../src/tasks/registry.js';

/** Bernoulli(p^N) answers from one seeded stream, in call order (the design's call order is deterministic). */
function bernoulli(p: number, seed: number) {
  const rng = new PyRandom(seed);
  const asked: Array<[number, number]> = [];
  return {
    asked,
    answer: async (depth: number, trialIndex: number) => {
      asked.push([depth, trialIndex]);
      return rng.random() < p ** depth;
    },
  };
}

const GRID = [5, 10, 15, 20, 25, 30, 35, 40, 45, 50].map((depth) => ({ depth, n: 40 }));

describe('Fisher information of one trial', () => {
  it('equals (dq/dp)² / (q(1 − q)) by a numerical derivative', () => {
    fc.assert(
      fc.property(fc.double({ min: 0.05, max: 0.995, noNaN: true }), fc.integer({ min: 1, max: 80 }), (p, depth) => {
        const h = 1e-6;
        const dq = ((p + h) ** depth - (p - h) ** depth) / (2 * h);
        const q = p ** depth;
        const expected = (dq * dq) / (q * (1 - q));
        expect(trialInformation(p, depth)).toBeCloseTo(expected, Math.max(0, 6 - Math.ceil(Math.log10(expected + 1))));
      }),
    );
  });

  it('picks the brute-force argmax depth, the deepest at p̂ = 1', () => {
    fc.assert(
      fc.property(fc.double({ min: 0.01, max: 0.999, noNaN: true }), fc.integer({ min: 1, max: 60 }), (p, maxDepth) => {
        const best = mostInformativeDepth(p, maxDepth);
        for (let d = 1; d <= maxDepth; d++)
          expect(trialInformation(p, best)).toBeGreaterThanOrEqual(trialInformation(p, d));
      }),
    );
    expect(mostInformativeDepth(1, 50)).toBe(50);
    expect(mostInformativeDepth(0.7, 50)).toBe(4); // N* ≈ 1.59 / −ln p ≈ 4.5
    expect(mostInformativeDepth(0.99, 50)).toBe(50);
  });

  it('bounds the calls fraction of the 40 × 10 grid (1 at the grid itself, below 1 elsewhere)', () => {
    expect(callsFractionBound(0.7, [{ depth: 4, n: 10 }], 50)).toBeCloseTo(1, 12);
    const at = (p: number) => callsFractionBound(p, GRID, 50);
    expect(at(0.7)).toBeLessThan(0.25);
    expect(at(0.95)).toBeGreaterThan(0.75); // the grid is already near-optimal there
    for (const p of [0.7, 0.8, 0.9, 0.95, 0.99]) expect(at(p)).toBeLessThanOrEqual(1);
  });

  it('spaces pilot depths geometrically, ends included', () => {
    expect(geometricDepths(1, 50, 5)).toEqual([1, 3, 7, 19, 50]);
    expect(geometricDepths(5, 5, 3)).toEqual([5]);
  });
});

describe('runAdaptiveDesign', () => {
  it('pilots, then allocates at the most informative depth, until the interval is narrow enough', async () => {
    const sim = bernoulli(0.8, 11);
    const result = await runAdaptiveDesign({
      answer: sim.answer,
      maxDepth: 50,
      targetWidth: 0.06,
      seed: 1,
      maxTrials: 400,
    });
    expect(result.stopReason).toBe('width');
    expect(result.profileCi95[1] - result.profileCi95[0]).toBeLessThanOrEqual(0.06);
    expect(result.calls).toBe(sim.asked.length);
    expect(result.steps.slice(0, 5).map((s) => s.depth)).toEqual([1, 3, 7, 19, 50]);
    const allocated = result.steps.filter((s) => s.phase === 'allocate').map((s) => s.depth);
    for (const depth of allocated.slice(-3))
      expect(Math.abs(depth - mostInformativeDepth(0.8, 50))).toBeLessThanOrEqual(2);
    // trial indices run 0, 1, 2, … at each depth
    const perDepth = new Map<number, number[]>();
    for (const [d, i] of sim.asked) perDepth.set(d, [...(perDepth.get(d) ?? []), i]);
    for (const indices of perDepth.values()) expect(indices).toEqual(indices.map((_, k) => k));
    expect(result.ci95[0]).toBeLessThanOrEqual(result.fit.pd);
    expect(result.ci95[1]).toBeGreaterThanOrEqual(result.fit.pd);
  });

  it('is deterministic and respects maxTrials', async () => {
    const run = () =>
      runAdaptiveDesign({
        answer: bernoulli(0.95, 3).answer,
        maxDepth: 50,
        targetWidth: 0.001,
        seed: 2,
        maxTrials: 77,
      });
    const [a, b] = [await run(), await run()];
    expect(a).toEqual(b);
    expect(a.calls).toBe(77);
    expect(a.stopReason).toBe('maxTrials');
  });

  it('leaves missing answers out of every denominator but counts them as calls', async () => {
    let call = 0;
    const answer = async () => (call++ % 3 === 0 ? null : true);
    const result = await runAdaptiveDesign({ answer, maxDepth: 10, targetWidth: 0.01, seed: 0, maxTrials: 30 });
    expect(result.calls).toBe(30);
    expect(result.missing).toBe(10);
    expect(result.counts.reduce((s, c) => s + c.n, 0)).toBe(20);
    expect(result.fit.pd).toBe(1); // no failure ever: every later batch went to the deepest depth
    expect(result.steps.filter((s) => s.phase === 'allocate').every((s) => s.depth === 10)).toBe(true);
  });

  it('rejects bad options with a message naming the option', async () => {
    const answer = async () => true;
    await expect(runAdaptiveDesign({ answer, maxDepth: 0, targetWidth: 0.1, seed: 0, maxTrials: 10 })).rejects.toThrow(
      /maxDepth/,
    );
    await expect(runAdaptiveDesign({ answer, maxDepth: 5, targetWidth: 2, seed: 0, maxTrials: 10 })).rejects.toThrow(
      /targetWidth/,
    );
    await expect(
      runAdaptiveDesign({ answer, maxDepth: 5, targetWidth: 0.1, seed: 0, maxTrials: 10, pilot: { depths: [9] } }),
    ).rejects.toThrow(/pilot depth 9/);
  });

  it('covers the true p_d in most of 60 seeded replications (the 200-replication study is bench/adaptive-suite.ts)', async () => {
    for (const p of [0.7, 0.95]) {
      let covered = 0;
      for (let r = 0; r < 60; r++) {
        const result = await runAdaptiveDesign({
          answer: bernoulli(p, 1000 + r).answer,
          maxDepth: 50,
          targetWidth: 0.04,
          seed: r,
          maxTrials: 400,
          resamples: 500,
        });
        if (result.ci95[0] <= p && p <= result.ci95[1]) covered++;
      }
      expect(covered).toBeGreaterThanOrEqual(51); // 85%: a gross failure, not a coverage estimate
    }
  });
});

describe('end to end on the d2 task and the sim:retention subject', () => {
  it('recovers p_d = 0.9 through real instances, prompts, sim answers and the grader', async () => {
    const subject = await createSubject('sim:retention?p=0.9');
    const { answer, records } = taskAnswerer(resolveTask('d2'), subject);
    const result = await runAdaptiveDesign({ answer, maxDepth: 50, targetWidth: 0.04, seed: 0, maxTrials: 400 });
    expect(result.stopReason).toBe('width');
    expect(records).toHaveLength(result.calls);
    expect(result.ci95[0]).toBeLessThanOrEqual(0.9);
    expect(result.ci95[1]).toBeGreaterThanOrEqual(0.9);
    expect(new Set(records.map((r) => `${r.level}|${r.seed}|${r.trialIndex}`)).size).toBe(records.length);
  });
});
