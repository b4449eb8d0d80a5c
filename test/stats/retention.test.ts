import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  bootstrapRetentionCI,
  type DepthCount,
  estimateRetention,
  fitRetention,
  fitRetentionReleaseGrid,
  geometricLogLik,
  horizon,
  profileLikelihoodCI,
} from '../../src/stats/index.js';

interface Cell {
  domain: string;
  model: string;
  counts: DepthCount[];
  table1Pd: number;
  table1AtLowerBound: boolean;
  publishedCi95: [number, number];
  releaseGridPd: number;
  exactMlePd: number;
}

const fixture = JSON.parse(readFileSync(new URL('../../fixtures/stats/ccb-table1.json', import.meta.url), 'utf8')) as {
  cells: Cell[];
};

describe('CCB Table 1: p_d from the per-depth counts of Tables 8–10', () => {
  it('has all 15 cells', () => expect(fixture.cells).toHaveLength(15));

  it.each(fixture.cells.map((c) => [c.domain, c.model, c] as const))('%s %s', (_domain, _model, cell) => {
    const fit = fitRetention(cell.counts);
    // Table 1 (3 decimals) within ±0.002, and the exact MLE of ccb.md §8 to its 6 decimals.
    expect(Math.abs(fit.pd - cell.table1Pd)).toBeLessThanOrEqual(0.002);
    expect(Math.abs(fit.pd - cell.exactMlePd)).toBeLessThanOrEqual(5e-7);
    expect(fit.atLowerBound).toBe(cell.table1AtLowerBound);
    expect(fit.depthsUsed).toBe(10);
    // The release's grid estimator reproduces the published 4-decimal value exactly.
    expect(fitRetentionReleaseGrid(cell.counts).toFixed(4)).toBe(cell.releaseGridPd.toFixed(4));
    // Each estimate (ours and the published one) lies inside our bootstrap and profile intervals.
    const ci = bootstrapRetentionCI(cell.counts, { seed: 20260 });
    const profile = profileLikelihoodCI(cell.counts);
    for (const [lo, hi] of [ci, profile]) {
      expect(lo).toBeLessThanOrEqual(fit.pd);
      expect(hi).toBeGreaterThanOrEqual(fit.pd);
      expect(lo).toBeLessThanOrEqual(cell.table1Pd);
      expect(hi).toBeGreaterThanOrEqual(cell.table1Pd);
    }
    // The release-style percentile interval stays close to the published one (unseeded there: ±0.01).
    const percentile = bootstrapRetentionCI(cell.counts, { seed: 20260, method: 'percentile' });
    expect(Math.abs(percentile[0] - cell.publishedCi95[0])).toBeLessThan(0.01);
    expect(Math.abs(percentile[1] - cell.publishedCi95[1])).toBeLessThan(0.01);
  });

  it('H_0.5 for Claude on D3 is ≈ 4.7 and observed accuracy first falls below 50% at N = 5', () => {
    const claude = fixture.cells.find((c) => c.domain === 'D3' && c.model === 'claude-3.7-sonnet')!;
    const estimate = estimateRetention(claude.counts, { seed: 1 });
    expect(estimate.horizon['0.5'].value).toBeCloseTo(4.708, 2);
    expect(estimate.firstDepthBelow['0.5']).toBe(5);
  });
});

describe('fitRetention edge cases', () => {
  const design = (correct: number[], n = 40): DepthCount[] =>
    correct.map((c, i) => ({ depth: 5 * (i + 1), correct: c, n }));

  it('all correct → p_d = 1, log-likelihood 0', () => {
    const fit = fitRetention(design([40, 40, 40]));
    expect(fit).toEqual({ pd: 1, atLowerBound: false, logLik: 0, depthsUsed: 3 });
    expect(bootstrapRetentionCI(design([40, 40, 40]), { seed: 1 })).toEqual([1, 1]);
    expect(profileLikelihoodCI(design([40, 40, 40]))[1]).toBe(1);
    expect(profileLikelihoodCI(design([40, 40, 40]))[0]).toBeLessThan(1);
    expect(horizon(1, 0.5)).toBe(Number.POSITIVE_INFINITY);
  });

  it('nothing correct → p_d = 0.5 at the lower bound', () => {
    const fit = fitRetention(design([0, 0, 0, 0]));
    expect(fit.pd).toBe(0.5);
    expect(fit.atLowerBound).toBe(true);
    expect(fit.logLik).toBeCloseTo(
      40 * (Math.log1p(-(0.5 ** 5)) + Math.log1p(-(0.5 ** 10)) + Math.log1p(-(0.5 ** 15)) + Math.log1p(-(0.5 ** 20))),
      12,
    );
  });

  it('no data at all → 0.5 at the lower bound with no depths used', () => {
    expect(fitRetention([])).toEqual({ pd: 0.5, atLowerBound: true, logLik: 0, depthsUsed: 0 });
    expect(fitRetention([{ depth: 5, correct: 0, n: 0 }]).depthsUsed).toBe(0);
  });

  it('skips n = 0 depths and accepts unequal n', () => {
    const withEmpty = fitRetention([
      { depth: 5, correct: 30, n: 40 },
      { depth: 10, correct: 0, n: 0 },
      { depth: 20, correct: 3, n: 12 },
    ]);
    const without = fitRetention([
      { depth: 5, correct: 30, n: 40 },
      { depth: 20, correct: 3, n: 12 },
    ]);
    expect(withEmpty).toEqual(without);
    expect(withEmpty.depthsUsed).toBe(2);
    // The MLE solves the score equation Σ N (c − n q)/(1 − q) = 0 with q = p^N.
    const p = withEmpty.pd;
    const score = (5 * (30 - 40 * p ** 5)) / (1 - p ** 5) + (20 * (3 - 12 * p ** 20)) / (1 - p ** 20);
    expect(Math.abs(score)).toBeLessThan(1e-6);
  });

  it('a single depth gives the closed form p = (c/n)^(1/N)', () => {
    expect(fitRetention([{ depth: 10, correct: 20, n: 40 }]).pd).toBeCloseTo(0.5 ** 0.1, 12);
  });

  it('merges duplicate depths and rejects malformed counts', () => {
    expect(
      fitRetention([
        { depth: 5, correct: 3, n: 4 },
        { depth: 5, correct: 27, n: 36 },
      ]).pd,
    ).toBeCloseTo(0.75 ** 0.2, 12);
    expect(() => fitRetention([{ depth: 5, correct: 41, n: 40 }])).toThrow(/correct=41/);
    expect(() => fitRetention([{ depth: 0, correct: 1, n: 4 }])).toThrow(/depth=0/);
    expect(() => fitRetention([{ depth: 5, correct: 1.5, n: 4 }])).toThrow(RangeError);
  });

  it('is the maximiser of the log-likelihood on [0.5, 1] (property)', () => {
    const counts = fc.array(
      fc.record({
        depth: fc.integer({ min: 1, max: 60 }),
        n: fc.integer({ min: 0, max: 50 }),
        share: fc.double({ min: 0, max: 1, noNaN: true }),
      }),
      { minLength: 1, maxLength: 8 },
    );
    fc.assert(
      fc.property(counts, (raw) => {
        const data = raw.map(({ depth, n, share }) => ({ depth, n, correct: Math.round(share * n) }));
        const fit = fitRetention(data);
        expect(fit.pd).toBeGreaterThanOrEqual(0.5);
        expect(fit.pd).toBeLessThanOrEqual(1);
        const used = data.filter((d) => d.n > 0);
        if (used.length === 0) return;
        for (let i = 0; i <= 200; i++) {
          const p = 0.5 + (0.5 * i) / 200;
          expect(geometricLogLik(used, p)).toBeLessThanOrEqual(fit.logLik + 1e-9);
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe('bootstrap and horizon', () => {
  const counts: DepthCount[] = [5, 10, 15, 20].map((depth) => ({
    depth,
    correct: Math.round(40 * 0.9 ** depth),
    n: 40,
  }));

  it('is deterministic in the seed and depends on it', () => {
    const a = bootstrapRetentionCI(counts, { seed: 7 });
    expect(bootstrapRetentionCI(counts, { seed: 7 })).toEqual(a);
    expect(bootstrapRetentionCI(counts, { seed: 8 })).not.toEqual(a);
  });

  it('narrows as the level drops', () => {
    const wide = bootstrapRetentionCI(counts, { seed: 7, level: 0.99 });
    const narrow = bootstrapRetentionCI(counts, { seed: 7, level: 0.8 });
    expect(wide[0]).toBeLessThanOrEqual(narrow[0]);
    expect(wide[1]).toBeGreaterThanOrEqual(narrow[1]);
  });

  it('horizon H_s = ln s / ln p_d (ccb.md §6.4 vectors)', () => {
    expect(horizon(0.8631, 0.5)).toBeCloseTo(4.708, 3);
    expect(horizon(0.9871, 0.5)).toBeCloseTo(53.39, 2);
    expect(horizon(0.5, 0.5)).toBe(1);
    expect(() => horizon(0.9, 1)).toThrow(RangeError);
  });

  it('estimateRetention maps the interval through the horizon and reports the alternatives', () => {
    const estimate = estimateRetention(counts, { seed: 3, resamples: 500 });
    expect(estimate.horizon['0.9'].ci95).toEqual([horizon(estimate.ci95[0], 0.9), horizon(estimate.ci95[1], 0.9)]);
    expect(estimate.nTrials).toBe(160);
    expect(estimate.aic).toBeCloseTo(2 - 2 * estimate.logLik, 12);
    expect(estimate.bic).toBeCloseTo(Math.log(160) - 2 * estimate.logLik, 12);
    expect(estimate.depths.map((d) => d.depth)).toEqual([5, 10, 15, 20]);
    expect(['geometric', 'accelerating', 'linear']).toContain(estimate.alternatives.preferredByAic);
  });
});
