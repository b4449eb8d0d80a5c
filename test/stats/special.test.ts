import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  betaQuantile,
  binomialCdf,
  binomialLogPmf,
  clopperPearson,
  erfc,
  fisherExact,
  logGamma,
  normalCdf,
  normalQuantile,
  regularizedBeta,
  wilson,
} from '../../src/stats/index.js';

interface Reference {
  logGamma: [number, number][];
  regularizedBeta: [number, number, number, number][];
  betaQuantile: [number, number, number, number][];
  normalQuantile: [number, number][];
  erfc: [number, number][];
  binomialCdf: [number, number, number, number][];
  fisherExact: [number, number, number, number, number][];
  wilson: [number, number, number, [number, number]][];
}

const ref = JSON.parse(
  readFileSync(new URL('../../fixtures/stats/special-functions.json', import.meta.url), 'utf8'),
) as Reference;

const close = (actual: number, expected: number, relative: number) =>
  expect(Math.abs(actual - expected)).toBeLessThanOrEqual(relative * Math.max(1, Math.abs(expected)));

describe('special functions against SciPy reference values', () => {
  it('logGamma', () => {
    for (const [x, expected] of ref.logGamma) close(logGamma(x), expected, 1e-13);
  });
  it('regularized incomplete beta', () => {
    for (const [x, a, b, expected] of ref.regularizedBeta) {
      expect(Math.abs(regularizedBeta(x, a, b) - expected)).toBeLessThan(5e-12);
    }
  });
  it('beta quantile', () => {
    for (const [p, a, b, expected] of ref.betaQuantile)
      expect(Math.abs(betaQuantile(p, a, b) - expected)).toBeLessThan(1e-12);
  });
  it('normal quantile', () => {
    for (const [p, expected] of ref.normalQuantile) close(normalQuantile(p), expected, 1e-14);
  });
  it('erfc and the normal CDF', () => {
    for (const [x, expected] of ref.erfc) expect(Math.abs(erfc(x) - expected)).toBeLessThanOrEqual(1e-12 * expected); // relative
    for (const [p] of ref.normalQuantile.filter(([q]) => q > 1e-20)) close(normalCdf(normalQuantile(p)), p, 1e-12);
  });
  it('binomial CDF', () => {
    for (const [k, n, p, expected] of ref.binomialCdf)
      expect(Math.abs(binomialCdf(k, n, p) - expected)).toBeLessThan(5e-13);
  });
  it('binomial CDF equals the summed pmf (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 60 }),
        fc.integer({ min: 0, max: 60 }),
        fc.double({ min: 0.01, max: 0.99, noNaN: true }),
        (n, k0, p) => {
          const k = Math.min(k0, n);
          let sum = 0;
          for (let i = 0; i <= k; i++) sum += Math.exp(binomialLogPmf(i, n, p));
          expect(Math.abs(binomialCdf(k, n, p) - sum)).toBeLessThan(1e-12);
        },
      ),
    );
  });
  it('Fisher exact two-sided p', () => {
    for (const [a, b, c, d, expected] of ref.fisherExact) close(fisherExact(a, b, c, d).p, expected, 1e-10);
  });
});

describe('per-depth intervals', () => {
  // ccb.md §6.4 vectors (6 decimals).
  const vectors: [number, number, [number, number]][] = [
    [0, 40, [0, 0.088097]],
    [1, 40, [0.000633, 0.131586]],
    [13, 40, [0.185729, 0.491295]],
    [26, 40, [0.483156, 0.793718]],
    [39, 40, [0.868414, 0.999367]],
    [40, 40, [0.911903, 1]],
    [88, 400, [0.180356, 0.263843]],
    [5, 395, [0.004123, 0.029291]],
  ];
  it.each(vectors)('Clopper–Pearson (%i, %i)', (k, n, [lo, hi]) => {
    const [l, h] = clopperPearson(k, n);
    expect(Math.abs(l - lo)).toBeLessThanOrEqual(5e-7);
    expect(Math.abs(h - hi)).toBeLessThanOrEqual(5e-7);
  });
  it('Clopper–Pearson half-widths reproduce the ± column of paper Tables 8–10', () => {
    // e.g. 57.5 ± 16.0, 2.5 ± 6.5, 0.0 ± 4.4, 97.5 ± 6.5 (half of hi − lo, in percent, one decimal).
    const half = (k: number) => {
      const [lo, hi] = clopperPearson(k, 40);
      return Math.round(((hi - lo) / 2) * 1000) / 10;
    };
    expect([half(23), half(1), half(0), half(39), half(26)]).toEqual([16.0, 6.5, 4.4, 6.5, 15.5]);
  });
  it('Clopper–Pearson edge cases', () => {
    expect(clopperPearson(0, 0)).toEqual([0, 0]);
    expect(() => clopperPearson(5, 4)).toThrow(RangeError);
  });
  it('Wilson', () => {
    for (const [k, n, alpha, [lo, hi]] of ref.wilson) {
      const [l, h] = wilson(k, n, alpha);
      expect(Math.abs(l - lo)).toBeLessThan(1e-12);
      expect(Math.abs(h - hi)).toBeLessThan(1e-12);
    }
  });
  it('Clopper–Pearson and Wilson contain the point estimate (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 500 }), fc.integer({ min: 0, max: 500 }), (n, k0) => {
        const k = Math.min(k0, n);
        const [lo, hi] = clopperPearson(k, n);
        expect(lo).toBeLessThanOrEqual(k / n);
        expect(hi).toBeGreaterThanOrEqual(k / n);
        const [wl, wh] = wilson(k, n);
        expect(wl).toBeLessThanOrEqual(k / n);
        expect(wh).toBeGreaterThanOrEqual(k / n);
      }),
    );
  });
});
