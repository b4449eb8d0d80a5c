import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PyRandom } from '../../src/rng/index.js';
import { sampleBinomial } from '../../src/stats/binomial.js';
import {
  boundTestPower,
  type RateTest,
  rateCriticalCount,
  rateLogLikelihoodRatio,
  rateTestFailProbability,
  rateTestFails,
  simulateRateTest,
} from '../../src/stats/rate-test.js';

// maxTfbcRate as a test: the binomial likelihood ratio of threshold + margin against threshold, failing at
// Λ ≥ ln 1/α. Its false-alarm rate at the threshold is at most α for one look (exactly, by the binomial tail) and
// for repeated looks (Ville), on seeded simulated counts.

const TEST: RateTest = { threshold: 0.1, margin: 0.05, alpha: 0.05 };
const mcBound = (rate: number, runs: number) => rate + 2 * Math.sqrt((rate * (1 - rate)) / runs);

describe('rateLogLikelihoodRatio', () => {
  it('is x·ln(r1/r0) + (n − x)·ln((1 − r1)/(1 − r0)) (by hand)', () => {
    expect(rateLogLikelihoodRatio(3, 20, TEST)).toBeCloseTo(3 * Math.log(0.15 / 0.1) + 17 * Math.log(0.85 / 0.9), 12);
  });

  it('with threshold 0, one bad event is conclusive and none never fails', () => {
    const zero = { threshold: 0, margin: 0.05, alpha: 0.05 };
    expect(rateTestFails(1, 100, zero)).toBe(true);
    expect(rateTestFails(0, 100, zero)).toBe(false);
    expect(rateTestFailProbability(100, zero, 0)).toBe(0);
  });
});

describe('false-alarm rate at the threshold', () => {
  it('is at most alpha for every threshold, margin, alpha and n (exact binomial tail; property)', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 0.8, noNaN: true }),
        fc.double({ min: 0.01, max: 0.19, noNaN: true }),
        fc.constantFrom(0.01, 0.05, 0.1),
        fc.integer({ min: 0, max: 400 }),
        (threshold, margin, alpha, n) => {
          const test = { threshold, margin, alpha };
          expect(rateTestFailProbability(n, test, threshold)).toBeLessThanOrEqual(alpha + 1e-12);
          // and lower still for a model under the threshold
          expect(rateTestFailProbability(n, test, threshold / 2)).toBeLessThanOrEqual(alpha + 1e-12);
        },
      ),
    );
  });

  it('simulated one look on 200 events: ≤ alpha within Monte-Carlo error, and the exact power matches simulation', () => {
    const runs = 2000;
    const atThreshold = simulateRateTest(new PyRandom(451), 200, TEST, 0.1, runs);
    expect(atThreshold).toBeLessThanOrEqual(mcBound(TEST.alpha, runs));
    const power = rateTestFailProbability(200, TEST, 0.15);
    const simulated = simulateRateTest(new PyRandom(452), 200, TEST, 0.15, runs);
    expect(Math.abs(simulated - power)).toBeLessThan(4 * Math.sqrt((power * (1 - power)) / runs));
    expect(power).toBeGreaterThan(0.3);
  });

  it('with a look after every 10 events up to 300 (stopping at the first fail): ≤ alpha within Monte-Carlo error', () => {
    const rng = new PyRandom(453);
    const runs = 1000;
    let fails = 0;
    for (let run = 0; run < runs; run++) {
      let x = 0;
      for (let n = 10; n <= 300; n += 10) {
        x += sampleBinomial(rng, 10, TEST.threshold);
        if (rateTestFails(x, n, TEST)) {
          fails++;
          break;
        }
      }
    }
    expect(fails / runs).toBeLessThanOrEqual(mcBound(TEST.alpha, runs));
  });

  it('the critical count is the first that fails (Λ rises with x)', () => {
    const k = rateCriticalCount(200, TEST);
    expect(rateTestFails(k, 200, TEST)).toBe(true);
    expect(rateTestFails(k - 1, 200, TEST)).toBe(false);
  });
});

describe('boundTestPower', () => {
  it('is alpha at no shortfall and rises with the shortfall, falls with the standard error', () => {
    expect(boundTestPower(0.01, 0, 0.05)).toBeCloseTo(0.05, 10);
    expect(boundTestPower(0.01, 0.02, 0.05)).toBeGreaterThan(boundTestPower(0.01, 0.01, 0.05));
    expect(boundTestPower(0.02, 0.02, 0.05)).toBeLessThan(boundTestPower(0.01, 0.02, 0.05));
  });
});
