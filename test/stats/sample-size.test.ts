import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PyRandom } from '../../src/rng/index.js';
import { sampleBinomial } from '../../src/stats/binomial.js';
import { profileLikelihoodCI } from '../../src/stats/retention.js';
import {
  rateTrials,
  retentionInformation,
  retentionTrialsPerCell,
  twoRateTrials,
} from '../../src/stats/sample-size.js';

describe('retentionTrialsPerCell', () => {
  it('at one depth N = 1 is the textbook Wald formula for a proportion', () => {
    // p^1 is a proportion: I(p) = 1 / (p(1 − p)), n = ((1.960 + 0.842) / δ)² · p(1 − p)
    expect(retentionInformation(0.9, [1])).toBeCloseTo(1 / (0.9 * 0.1), 10);
    expect(retentionTrialsPerCell(0.9, 0.05, [1])).toBe(Math.ceil(((1.959964 + 0.841621) / 0.05) ** 2 * 0.09));
  });

  it('needs about four times the trials for half the difference, and fewer with more depths', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0.6, max: 0.99, noNaN: true }),
        fc.double({ min: 0.005, max: 0.05, noNaN: true }),
        (p, d) => {
          const wide = retentionTrialsPerCell(p, d, [5, 10, 15]) ?? Number.NaN;
          const narrow = retentionTrialsPerCell(p, d / 2, [5, 10, 15]) ?? Number.NaN;
          // n ∝ 1/δ² before rounding up: ⌈4x⌉ lies in [4⌈x⌉ − 3, 4⌈x⌉]
          expect(narrow).toBeGreaterThanOrEqual(4 * wide - 3);
          expect(narrow).toBeLessThanOrEqual(4 * wide);
          expect(retentionTrialsPerCell(p, d, [5, 10, 15, 20]) ?? 0).toBeLessThanOrEqual(wide);
        },
      ),
    );
  });

  it('says nothing it cannot: no depth, p outside (0, 1), no difference', () => {
    expect(retentionTrialsPerCell(0.9, 0.02, [])).toBeNull();
    expect(retentionTrialsPerCell(1, 0.02, [5])).toBeNull();
    expect(retentionTrialsPerCell(0.9, 0, [5])).toBeNull();
    expect(rateTrials(0.5, 0)).toBeNull();
  });

  it('has the power it claims: a fit at that many trials per cell tells p0 − δ from p0 about 80% of the time', () => {
    // simulated sweeps at the true p_d = p0 − δ on d2's default depths; "decided" = the 95% profile interval
    // excludes p0. The formula is a large-sample approximation: the measured power must be near 0.8.
    const depths = [5, 10, 15, 20, 25];
    const p0 = 0.9;
    const delta = 0.02;
    const n = retentionTrialsPerCell(p0, delta, depths) ?? 0;
    expect(n).toBeGreaterThan(10);
    const rng = new PyRandom(20260412);
    const runs = 400;
    let decided = 0;
    for (let r = 0; r < runs; r++) {
      const counts = depths.map((depth) => ({ depth, n, correct: sampleBinomial(rng, n, (p0 - delta) ** depth) }));
      const [, upper] = profileLikelihoodCI(counts);
      if (upper < p0) decided++;
    }
    // measured: n = 64 trials per cell, power 0.7575 (303 of 400); the profile interval is a little conservative
    expect(decided / runs).toBeGreaterThan(0.72);
    expect(decided / runs).toBeLessThan(0.88);
  });
});

describe('rateTrials', () => {
  it('is the two-variance binomial formula, planned for the alternative nearer 1/2', () => {
    const z = 1.959964 + 0;
    const expected = Math.ceil(((z * Math.sqrt(0.25) + 0.841621 * Math.sqrt(0.4 * 0.6)) / 0.1) ** 2);
    expect(rateTrials(0.5, 0.1)).toBe(expected);
    // 0.1 + 0.05 is nearer 1/2 than 0.05
    expect(rateTrials(0.1, 0.05)).toBe(
      Math.ceil(((1.959964 * Math.sqrt(0.09) + 0.841621 * Math.sqrt(0.15 * 0.85)) / 0.05) ** 2),
    );
  });
});

describe('twoRateTrials', () => {
  it('is the two-sample binomial formula at 1/2: about 385 per level for a step of 0.1', () => {
    const n = ((1.959964 * Math.sqrt(0.5) + 0.841621 * Math.sqrt(0.55 * 0.45 + 0.45 * 0.55)) / 0.1) ** 2;
    expect(twoRateTrials(0.1)).toBe(Math.ceil(n));
    expect(twoRateTrials(0.1)).toBeGreaterThan(380);
    expect(twoRateTrials(1.5)).toBeNull();
  });
});
