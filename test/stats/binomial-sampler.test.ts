import { describe, expect, it } from 'vitest';
import { PyRandom } from '../../src/rng/index.js';
import { binomialCdf, binomialLogPmf, sampleBinomial } from '../../src/stats/index.js';

/** Pearson χ² statistic of `draws` draws against Binomial(n, p), pooling cells with expectation < 5. */
function chiSquare(n: number, p: number, draws: number, seed: number): { statistic: number; cells: number } {
  const rng = new PyRandom(seed);
  const observed = new Array<number>(n + 1).fill(0);
  for (let i = 0; i < draws; i++) observed[sampleBinomial(rng, n, p)]++;
  let statistic = 0;
  let cells = 0;
  let pooledObserved = 0;
  let pooledExpected = 0;
  for (let k = 0; k <= n; k++) {
    pooledObserved += observed[k];
    pooledExpected += draws * Math.exp(binomialLogPmf(k, n, p));
    if (pooledExpected >= 5 || k === n) {
      statistic += (pooledObserved - pooledExpected) ** 2 / Math.max(pooledExpected, 1e-300);
      cells++;
      pooledObserved = 0;
      pooledExpected = 0;
    }
  }
  return { statistic, cells };
}

describe('sampleBinomial (exact inversion on PyRandom)', () => {
  // 99.9% χ² critical values are ≈ df + 3.1·√(2 df) + 5 for the df seen here; we use a looser bound
  // df + 5√(2 df) + 10 so the test only fails on a real distributional error.
  it.each([
    [40, 0.1681],
    [40, 0.5],
    [40, 0.9],
    [40, 0.99],
    [10, 0.03],
    [5000, 0.3],
  ])('matches Binomial(%i, %f) by χ²', (n, p) => {
    const { statistic, cells } = chiSquare(n, p, 20_000, 12345);
    const df = cells - 1;
    expect(statistic).toBeLessThan(df + 5 * Math.sqrt(2 * df) + 10);
  });

  it('has the right mean on the bisection branch (n·p beyond the inversion range)', () => {
    const rng = new PyRandom(9);
    const n = 100_000;
    const p = 0.3;
    let sum = 0;
    for (let i = 0; i < 400; i++) sum += sampleBinomial(rng, n, p);
    const mean = sum / 400;
    const sd = Math.sqrt((n * p * (1 - p)) / 400);
    expect(Math.abs(mean - n * p)).toBeLessThan(5 * sd);
  });

  it('inverts the CDF: the draw is the smallest k with F(k) ≥ U for the same uniform', () => {
    for (const [n, p] of [
      [40, 0.2],
      [30, 0.45],
    ]) {
      const a = new PyRandom(4);
      const b = new PyRandom(4);
      for (let i = 0; i < 200; i++) {
        const k = sampleBinomial(a, n, p);
        const u = b.random();
        expect(binomialCdf(k, n, p)).toBeGreaterThanOrEqual(u - 1e-12);
        if (k > 0) expect(binomialCdf(k - 1, n, p)).toBeLessThan(u + 1e-12);
      }
    }
  });

  it('handles the edges and is deterministic per seed', () => {
    const rng = new PyRandom(1);
    expect(sampleBinomial(rng, 0, 0.5)).toBe(0);
    expect(sampleBinomial(rng, 10, 0)).toBe(0);
    expect(sampleBinomial(rng, 10, 1)).toBe(10);
    const draw = (seed: number) => {
      const r = new PyRandom(seed);
      return Array.from({ length: 20 }, () => sampleBinomial(r, 40, 0.6));
    };
    expect(draw(5)).toEqual(draw(5));
    expect(draw(5)).not.toEqual(draw(6));
    expect(() => sampleBinomial(rng, -1, 0.5)).toThrow(RangeError);
    expect(() => sampleBinomial(rng, 4, 1.5)).toThrow(RangeError);
  });
});
