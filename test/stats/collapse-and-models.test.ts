import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  collapseThreshold,
  type DepthCount,
  fitAccelerating,
  fitLinear,
  fitRetention,
  logisticFit,
} from '../../src/stats/index.js';

describe('collapse threshold λ*', () => {
  const levels = (accuracies: number[], n = 20, knobs?: number[]) =>
    accuracies.map((a, i) => ({ level: i + 1, knob: knobs?.[i], correct: Math.round(a * n), n }));

  it('takes the upper level of the steepest drop', () => {
    const result = collapseThreshold(levels([1, 0.95, 0.9, 0.3, 0.1, 0]), { seed: 1 });
    expect(result.levelIndex).toBe(4);
    expect(result.steepestSlope).toBeCloseTo(-0.6, 12);
    expect(result.increasing).toBe(false);
    expect(result.ci95).not.toBeNull();
    const [lo, hi] = result.ci95!;
    expect(lo).toBeLessThanOrEqual(4);
    expect(hi).toBeGreaterThanOrEqual(4);
  });

  it('breaks ties at the earliest level and is undefined when flat', () => {
    expect(collapseThreshold(levels([1, 0.5, 0]), { seed: 1 }).levelIndex).toBe(2);
    const flat = collapseThreshold(levels([0, 0, 0]), { seed: 1 });
    expect(flat).toMatchObject({ levelIndex: null, knob: null, steepestSlope: null, ci95: null });
    expect(collapseThreshold(levels([0.5]), { seed: 1 }).levelIndex).toBeNull();
  });

  it('uses the raw knob with its own spacing', () => {
    // Index: drops 0.2, 0.4, 0.4 → earliest steepest, level 3. Knob 1, 2, 10, 11: slopes 0.2, 0.05, 0.4 → knob 11.
    const result = collapseThreshold(levels([1, 0.8, 0.4, 0], 20, [1, 2, 10, 11]), { seed: 1 });
    expect(result.levelIndex).toBe(3);
    expect(result.knob).toBe(11);
    expect(collapseThreshold(levels([1, 0.8, 0.4, 0], 20, [1, 3, 2, 4]), { seed: 1 }).knob).toBeNull();
  });

  it('flags a steepest rise', () => {
    const result = collapseThreshold(levels([0.2, 0.9, 0.8]), { seed: 1 });
    expect(result.levelIndex).toBe(2);
    expect(result.increasing).toBe(true);
  });

  it('logistic 50% point: recovers a known curve, refuses separated data', () => {
    // Expected counts of logit Acc = 3 − 1·level at n = 1000: 50% at level 3.
    const xs = [1, 2, 3, 4, 5];
    const n = xs.map(() => 1000);
    const correct = xs.map((x) => Math.round(1000 / (1 + Math.exp(-(3 - x)))));
    const fit = logisticFit(xs, correct, n);
    expect(fit.status).toBe('ok');
    expect(-(fit.intercept as number) / (fit.slope as number)).toBeCloseTo(3, 2);
    expect(collapseThreshold(levels([1, 1, 0, 0]), { seed: 1 }).logisticStatus).toBe('separated');
    expect(collapseThreshold(levels([1, 1, 0, 0]), { seed: 1 }).logistic50).toBeNull();
    expect(collapseThreshold(levels([0, 0]), { seed: 1 }).logisticStatus).toBe('degenerate');
  });

  it('is deterministic in the seed and drops n = 0 levels', () => {
    const data = levels([1, 0.9, 0.6, 0.5, 0.1]);
    expect(collapseThreshold(data, { seed: 5, resamples: 300 })).toEqual(
      collapseThreshold(data, { seed: 5, resamples: 300 }),
    );
    const withEmpty = [...data, { level: 9, correct: 0, n: 0 }];
    expect(collapseThreshold(withEmpty, { seed: 5 }).levelIndex).toBe(collapseThreshold(data, { seed: 5 }).levelIndex);
    expect(() => collapseThreshold([{ level: 1, correct: 3, n: 2 }], { seed: 1 })).toThrow(RangeError);
  });
});

describe('alternative decay models', () => {
  const design = (probability: (n: number) => number): DepthCount[] =>
    [5, 10, 15, 20, 25, 30, 35, 40, 45, 50].map((depth) => ({
      depth,
      correct: Math.round(4000 * probability(depth)),
      n: 4000,
    }));

  it('recovers the generating parameters on near-expected counts', () => {
    const accelerating = fitAccelerating(design((n) => 0.98 ** (n ** 1.3)));
    expect(accelerating.gamma).toBeCloseTo(1.3, 1);
    expect(accelerating.p).toBeCloseTo(0.98, 2);
    expect(fitLinear(design((n) => 1 - 0.015 * n)).lambda).toBeCloseTo(0.015, 4);
  });

  it('nests the geometric model: accelerating log-likelihood ≥ geometric, and AIC prefers the true form', () => {
    const geometricData = design((n) => 0.95 ** n);
    const geometric = fitRetention(geometricData);
    const accelerating = fitAccelerating(geometricData);
    expect(accelerating.logLik).toBeGreaterThanOrEqual(geometric.logLik - 1e-9);
    expect(accelerating.gamma).toBeCloseTo(1, 1);
    const linearData = design((n) => 1 - 0.018 * n);
    expect(fitLinear(linearData).aic).toBeLessThan(2 - 2 * fitRetention(linearData).logLik);
  });

  it('fits all 15 CCB cells without errors; accelerating never below geometric', () => {
    const fixture = JSON.parse(
      readFileSync(new URL('../../fixtures/stats/ccb-table1.json', import.meta.url), 'utf8'),
    ) as {
      cells: { counts: DepthCount[] }[];
    };
    for (const { counts } of fixture.cells) {
      const geometric = fitRetention(counts);
      const accelerating = fitAccelerating(counts);
      // Geometric is restricted to p ≥ 0.5; γ = 1 with free p is inside the accelerating family.
      expect(accelerating.logLik).toBeGreaterThanOrEqual(geometric.logLik - 1e-6);
      expect(Number.isFinite(fitLinear(counts).logLik)).toBe(true);
    }
  });

  it('edge cases: all correct and nothing correct', () => {
    const allCorrect = [{ depth: 5, correct: 10, n: 10 }];
    expect(fitLinear(allCorrect)).toMatchObject({ lambda: 0, logLik: 0 });
    expect(fitAccelerating(allCorrect)).toMatchObject({ p: 1, logLik: 0 });
    const none = [
      { depth: 5, correct: 0, n: 10 },
      { depth: 10, correct: 0, n: 10 },
    ];
    expect(fitLinear(none)).toMatchObject({ lambda: 0.2, logLik: 0 });
  });
});
