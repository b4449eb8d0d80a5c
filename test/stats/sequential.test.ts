import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PyRandom } from '../../src/rng/index.js';
import {
  boundaries,
  fixedTestFailProbability,
  type RetentionTest,
  retentionLogLikelihoodRatio,
  retentionTestCall,
  sequentialCharacteristics,
} from '../../src/stats/sequential.js';

const CCB_DEPTHS = [5, 10, 15, 20, 25, 30, 35, 40, 45, 50];
const TEST: RetentionTest = { threshold: 0.9, margin: 0.02, alpha: 0.05 };

describe('retentionLogLikelihoodRatio', () => {
  it('is the difference of the geometric log-likelihoods at p1 and p0 (by hand, one depth)', () => {
    // 3 right, 1 wrong at N = 2: 3·2·ln(0.8/0.9) + ln((1 − 0.64)/(1 − 0.81))
    const expected = 6 * Math.log(0.8 / 0.9) + Math.log(0.36 / 0.19);
    expect(retentionLogLikelihoodRatio([{ depth: 2, correct: 3, n: 4 }], 0.9, 0.8)).toBeCloseTo(expected, 12);
  });

  it('rises with every wrong answer and falls with every right one (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 60 }),
        fc.integer({ min: 0, max: 30 }),
        fc.integer({ min: 1, max: 30 }),
        (depth, correct, extra) => {
          const n = correct + extra;
          const base = retentionLogLikelihoodRatio([{ depth, correct, n }], 0.9, 0.85);
          const oneWrong = retentionLogLikelihoodRatio([{ depth, correct, n: n + 1 }], 0.9, 0.85);
          const oneRight = retentionLogLikelihoodRatio([{ depth, correct: correct + 1, n: n + 1 }], 0.9, 0.85);
          expect(oneWrong).toBeGreaterThan(base);
          expect(oneRight).toBeLessThan(base);
        },
      ),
    );
  });
});

describe('retentionTestCall', () => {
  it('fails at ln(1/alpha), passes early at ln(beta/(1 − alpha)), and passes undecided only at the maximum', () => {
    const b = boundaries(TEST);
    expect(b.fail).toBeCloseTo(Math.log(20), 12);
    expect(b.pass).toBeCloseTo(Math.log(0.2 / 0.95), 12);
    const none = [{ depth: 5, correct: 0, n: 0 }];
    expect(retentionTestCall(none, TEST, false).call).toBe('continue');
    expect(retentionTestCall(none, TEST, true)).toMatchObject({ call: 'pass', atMaximum: true });
    // every trial wrong at depth 5: strong evidence of a shortfall
    expect(retentionTestCall([{ depth: 5, correct: 0, n: 100 }], TEST, false).call).toBe('fail');
    // every trial right: strong evidence the model meets the threshold
    expect(retentionTestCall([{ depth: 50, correct: 200, n: 200 }], TEST, false)).toMatchObject({
      call: 'pass',
      atMaximum: false,
    });
  });

  it('rejects a margin that leaves no alternative, and an alpha outside (0, 1)', () => {
    expect(() => retentionTestCall([], { ...TEST, margin: 0.95 }, true)).toThrow(RangeError);
    expect(() => retentionTestCall([], { ...TEST, alpha: 0 }, true)).toThrow(RangeError);
  });
});

describe('the sequential test’s operating characteristics (seeded Monte Carlo)', () => {
  const design = { depths: CCB_DEPTHS, batch: 10, maxPerCell: 400 };

  it('fails a model exactly at the threshold at most alpha of the time (within 3 standard errors)', () => {
    const oc = sequentialCharacteristics(new PyRandom(7), 0.9, design, TEST, 400);
    expect(oc.failRate).toBeLessThanOrEqual(TEST.alpha + 3 * Math.sqrt((0.05 * 0.95) / 400));
  });

  it('catches a model one margin short most of the time, and one far above for few calls', () => {
    const short = sequentialCharacteristics(new PyRandom(8), 0.88, design, TEST, 200);
    expect(short.failRate).toBeGreaterThan(0.7);
    const far = sequentialCharacteristics(new PyRandom(9), 0.96, design, TEST, 200);
    expect(far.failRate).toBe(0);
    expect(far.meanCalls).toBeLessThan(far.maxCalls / 4);
  });

  it('is reproducible: the same seed gives the same figures', () => {
    const a = sequentialCharacteristics(new PyRandom(3), 0.89, design, TEST, 50);
    const b = sequentialCharacteristics(new PyRandom(3), 0.89, design, TEST, 50);
    expect(a).toEqual(b);
  });
});

describe('fixedTestFailProbability', () => {
  const grid = (n: number) => CCB_DEPTHS.map((depth) => ({ depth, n }));

  it('grows with the trials and with the shortfall, and stays below alpha at the threshold', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 300 }), (n) => {
        const atThreshold = fixedTestFailProbability(grid(n), TEST, 0.9);
        expect(atThreshold).toBeLessThanOrEqual(TEST.alpha);
        // (the normal tail below 1e-9 carries no meaning: compared with that tolerance)
        expect(fixedTestFailProbability(grid(n + 10), TEST, 0.88)).toBeGreaterThanOrEqual(
          fixedTestFailProbability(grid(n), TEST, 0.88) - 1e-9,
        );
        // the normal approximation's far tail is not monotone in the shortfall: compared where it has weight
        const near = fixedTestFailProbability(grid(n), TEST, 0.88);
        if (near > 1e-3) expect(fixedTestFailProbability(grid(n), TEST, 0.86)).toBeGreaterThanOrEqual(near);
      }),
    );
  });
});
