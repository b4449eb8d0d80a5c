import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fisherExact, mcnemarExact, mcnemarFromPairs, summarizeKStar, tfbcRate } from '../../src/stats/index.js';

describe('exact McNemar', () => {
  it.each([
    [0, 0, 1],
    [2, 0, 0.5],
    [3, 0, 0.25],
    [5, 1, 0.21875],
    [0, 6, 0.03125],
  ])('(b, c) = (%i, %i) → p = %f (ccb.md §6.4)', (b, c, p) => {
    expect(mcnemarExact(b, c).p).toBeCloseTo(p, 12);
  });

  it('paper Table 4 (0/0/0/20) gives p = 1.000', () => {
    const pairs = Array.from({ length: 20 }, () => [false, false] as [boolean, boolean]);
    const result = mcnemarFromPairs(pairs);
    expect(result.table).toEqual([
      [0, 0],
      [0, 20],
    ]);
    expect(result.b).toBe(0);
    expect(result.c).toBe(0);
    expect(result.p.toFixed(3)).toBe('1.000');
  });

  it('lays the table out as standard (rows) × variant (columns)', () => {
    const result = mcnemarFromPairs([
      [true, true],
      [true, false],
      [true, false],
      [false, true],
      [false, false],
    ]);
    expect(result.table).toEqual([
      [1, 2],
      [1, 1],
    ]);
    expect(result.b).toBe(2);
    expect(result.c).toBe(1);
    expect(result.p).toBeCloseTo(1, 12);
  });

  it('is symmetric in b and c and agrees with the direct binomial sum (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 60 }), fc.integer({ min: 0, max: 60 }), (b, c) => {
        expect(mcnemarExact(b, c).p).toBeCloseTo(mcnemarExact(c, b).p, 12);
        const m = b + c;
        if (m === 0) return;
        let tail = 0;
        let choose = 1;
        for (let k = 0; k <= Math.min(b, c); k++) {
          tail += choose / 2 ** m;
          choose = (choose * (m - k)) / (k + 1);
        }
        expect(mcnemarExact(b, c).p).toBeCloseTo(Math.min(1, 2 * tail), 10);
      }),
    );
  });

  it('rejects negative or fractional counts', () => {
    expect(() => mcnemarExact(-1, 2)).toThrow(RangeError);
    expect(() => mcnemarExact(1.5, 2)).toThrow(RangeError);
  });
});

describe('Fisher exact', () => {
  it('is 1 for identical rows and symmetric under transposition (property)', () => {
    expect(fisherExact(5, 5, 5, 5).p).toBeCloseTo(1, 12);
    fc.assert(
      fc.property(fc.nat(25), fc.nat(25), fc.nat(25), fc.nat(25), (a, b, c, d) => {
        expect(fisherExact(a, b, c, d).p).toBeCloseTo(fisherExact(a, c, b, d).p, 10);
        const p = fisherExact(a, b, c, d).p;
        expect(p).toBeGreaterThan(0);
        expect(p).toBeLessThanOrEqual(1);
      }),
    );
  });
});

describe('k* and TFBC', () => {
  it('summarises k* with buckets ≤ 3, 4–10, > 10 and ignores −1', () => {
    const summary = summarizeKStar([1, 2, 3, 4, 10, 11, 25, -1, -1, 3]);
    expect(summary.n).toBe(8);
    expect(summary.mean).toBeCloseTo((1 + 2 + 3 + 4 + 10 + 11 + 25 + 3) / 8, 12);
    expect(summary.median).toBe(3.5);
    expect([summary.early, summary.mid, summary.late]).toEqual([4, 2, 2]);
    expect(summary.shares).toEqual({ early: 0.5, mid: 0.25, late: 0.25 });
    expect(summary.histogram).toEqual({ '1': 1, '2': 1, '3': 2, '4': 1, '10': 1, '11': 1, '25': 1 });
  });

  it('handles an empty population and rejects k* = 0', () => {
    expect(summarizeKStar([-1])).toMatchObject({ n: 0, mean: null, median: null, early: 0, mid: 0, late: 0 });
    expect(() => summarizeKStar([0])).toThrow(/k\* must be/);
  });

  it('bucket counts always add up to n (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.constant(-1), fc.integer({ min: 1, max: 60 }))), (ks) => {
        const s = summarizeKStar(ks);
        expect(s.early + s.mid + s.late).toBe(s.n);
        expect(Object.values(s.histogram).reduce((x, y) => x + y, 0)).toBe(s.n);
      }),
    );
  });

  it('TFBC rate = TFBC / correct, null without correct answers', () => {
    expect(tfbcRate(3, 20)).toBe(0.15);
    expect(tfbcRate(0, 0)).toBeNull();
    expect(() => tfbcRate(3, 2)).toThrow(RangeError);
  });
});
