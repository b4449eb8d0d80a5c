import { describe, expect, it } from 'vitest';
import { asymptoticWidth, runAdaptiveDesign, runAdaptiveSweep } from '../../src/assays/adaptive/index.js';
import { PyRandom } from '../../src/rng/index.js';
import { createSubject } from '../../src/subjects/index.js';
import { resolveTask } from '../../src/tasks/registry.js';

const GRID = [5, 10, 15, 20, 25, 30, 35, 40, 45, 50].map((depth) => ({ depth, n: 40 }));

describe('matching the grid instead of a fixed width', () => {
  it('stops once the interval is as narrow as the grid would be anywhere in it, with far fewer calls at p = 0.8', async () => {
    const rng = new PyRandom(5);
    const result = await runAdaptiveDesign({
      answer: async (depth) => rng.random() < 0.8 ** depth,
      maxDepth: 50,
      targetWidth: { matchDesign: GRID },
      seed: 0,
      maxTrials: 400,
    });
    expect(result.stopReason).toBe('width');
    expect(result.targetWidth).toBeLessThanOrEqual(asymptoticWidth(result.fit.pd, GRID));
    expect(result.profileCi95[1] - result.profileCi95[0]).toBeLessThanOrEqual(result.targetWidth);
    // conservative: the narrowest grid width over the interval (the bound at p = 0.8 is 0.32 of 400 calls)
    expect(result.calls).toBeLessThan(300);
  });

  it('has an infinite target at the bounds of p (no information there)', () => {
    expect(asymptoticWidth(1, GRID)).toBe(Number.POSITIVE_INFINITY);
    expect(asymptoticWidth(0.9, GRID)).toBeGreaterThan(0);
  });
});

describe('runAdaptiveSweep (what --design adaptive runs)', () => {
  it('summarises the visited depths as grid cells and fits them as the grid would', async () => {
    const subject = await createSubject('sim:retention?p=0.8');
    const { cells, fit, design } = await runAdaptiveSweep({ project: 'd2', task: resolveTask('d2') }, subject, {
      seed: 0,
      missing: 'paper',
      concurrency: 4,
      maxMissingFraction: 0.1,
      gridTrials: 40,
    });
    expect(cells.reduce((s, c) => s + c.n, 0)).toBe(design.calls);
    expect(fit.counts).toEqual(design.counts);
    expect(fit.pd).toBeCloseTo(design.fit.pd, 12);
    expect(fit.ci95).toEqual(design.ci95); // same counts, same seed, same BCa bootstrap
    expect(fit.nTrials).toBe(design.calls);
    expect(fit.ci95[0]).toBeLessThanOrEqual(0.8);
    expect(fit.ci95[1]).toBeGreaterThanOrEqual(0.8);
    expect(design.calls).toBeLessThan(400);
  });
});
