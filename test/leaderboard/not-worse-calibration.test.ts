import { describe, expect, it } from 'vitest';
import { pairedRetentionDraws } from '../../src/leaderboard/differences.js';
import { notWorseDecision } from '../../src/leaderboard/not-worse.js';
import { PyRandom } from '../../src/rng/index.js';
import { sampleBinomial } from '../../src/stats/binomial.js';
import { retentionDifferenceDraws } from '../../src/stats/retention-difference.js';
import { simulatedPairTables } from '../support/paired-tables.js';

// notWorseThan as a test: on seeded simulated trials of a candidate exactly `margin` worse than its baseline (the
// boundary the gate tolerates), the gate's own decision (notWorseDecision on the paired or the parametric bootstrap
// draws it reads) fails at most alpha of the time within Monte-Carlo error, and its stated power is about the fail
// rate of a candidate one more margin worse.

const DEPTHS = [5, 10, 15, 20, 25, 30, 35, 40, 45, 50];
const ALPHA = 0.05;
const MARGIN = 0.02;
const BASE = 0.9;
const RUNS = 400;
const RESAMPLES = 200;
// The bound (Δ̂ + z · the draws' deviation) is about exact at the boundary (bench/gate-calibration.ts: 0.046 ± 0.007
// paired at 2,000 draws), not conservative like the likelihood-ratio gates; the 200 draws used here for CPU (the
// gate's default is 2,000) estimate the deviation well enough. 2 s.e. here (0.072 at 400 runs): it catches a gate
// that fails the boundary half again as often as it states.
const mcBound = (rate: number, runs: number) => rate + 2 * Math.sqrt((rate * (1 - rate)) / runs);

function failRate(candidate: number, paired: boolean, seed: number): { rate: number; meanPower: number } {
  const rng = new PyRandom(seed);
  let fails = 0;
  let power = 0;
  for (let run = 0; run < RUNS; run++) {
    const { difference, draws } = paired
      ? pairedRetentionDraws(simulatedPairTables(rng, DEPTHS, 40, candidate, BASE), rng, RESAMPLES)
      : retentionDifferenceDraws(
          DEPTHS.map((depth) => ({ depth, correct: sampleBinomial(rng, 40, BASE ** depth), n: 40 })),
          DEPTHS.map((depth) => ({ depth, correct: sampleBinomial(rng, 40, candidate ** depth), n: 40 })),
          { rng, resamples: RESAMPLES },
        );
    const decision = notWorseDecision(difference, draws, MARGIN, ALPHA);
    if (decision.fail) fails++;
    power += decision.power;
  }
  return { rate: fails / RUNS, meanPower: power / RUNS };
}

describe.each([
  ['paired', true],
  ['unpaired', false],
])('notWorseThan on %s trials', (_, paired) => {
  it('fails a candidate exactly a margin worse at most alpha of the time (within Monte-Carlo error)', () => {
    const { rate } = failRate(BASE - MARGIN, paired, 4510);
    expect(rate).toBeLessThanOrEqual(mcBound(ALPHA, RUNS));
  });

  it('fails a candidate one more margin worse about as often as its stated power says', () => {
    const { rate, meanPower } = failRate(BASE - 2 * MARGIN, paired, 4511);
    expect(rate).toBeGreaterThan(2 * ALPHA);
    // the power is the bound's own normal approximation, with each run's own bootstrap deviation: close, not exact
    expect(Math.abs(rate - meanPower)).toBeLessThan(0.08);
  });
});
