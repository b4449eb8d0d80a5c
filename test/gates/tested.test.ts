import { describe, expect, it } from 'vitest';
import { projectGatesSchema } from '../../src/config/schema.js';
import {
  checkCollapseNoEarlierThan,
  checkCountingCapacityAtLeast,
  checkRetentionTest,
} from '../../src/gates/checks.js';
import { evaluateGates } from '../../src/gates/threshold.js';
import { PyRandom } from '../../src/rng/index.js';
import { sampleBinomial } from '../../src/stats/binomial.js';
import { rateTestFailProbability } from '../../src/stats/rate-test.js';
import { fixtureReport } from '../report/html/support.js';
import { retentionFit } from '../support/records.js';

const DEPTHS = [5, 10, 15, 20, 25, 30, 35, 40, 45, 50];
/** A grid whose every cell holds `n` trials with the expected count of a model at p_d = p (rounded). */
const gridFit = (p: number, n: number) =>
  retentionFit({ counts: DEPTHS.map((depth) => ({ depth, correct: Math.round(n * p ** depth), n })), pd: p });

describe('minRetention with evidence "test": a gate with stated errors', () => {
  it('states the decision, the evidence, alpha and the power at the margin on the gate line and the result', () => {
    const [gate] = evaluateGates('d2', gridFit(0.85, 100), {
      minRetention: { value: 0.9, mode: 'hard', evidence: 'test', alpha: 0.05, margin: 0.02 },
    });
    expect(gate).toMatchObject({ passed: false, evidence: 'test', alpha: 0.05, margin: 0.02 });
    expect(gate.power).toBeGreaterThan(0.8);
    expect(gate.message).toMatch(
      /^gate d2\.minRetention FAILED \(hard\): d2 p_d = 0\.850 .*likelihood-ratio test of 0\.9 against 0\.880 finds a shortfall \(Λ [0-9.]+ ≥ 2\.996\) — alpha 0\.05, power [0-9.]+ at margin 0\.02/,
    );
  });

  it('passes a model that sits above the threshold, and says when its power at the margin is under 0.8', () => {
    const [gate] = evaluateGates('d2', gridFit(0.93, 5), {
      minRetention: { value: 0.9, mode: 'hard', evidence: 'test' },
    });
    // the defaults: alpha 0.05, margin 0.02
    expect(gate).toMatchObject({ passed: true, alpha: 0.05, margin: 0.02 });
    expect(gate.power).toBeLessThan(0.8);
    expect(gate.message).toMatch(/no evidence of a shortfall .* \(under 0\.8: a shortfall of the margin may pass/);
  });

  it('never passes on insufficient data', () => {
    const result = checkRetentionTest(retentionFit({ status: 'insufficient', pd: 0.999 }), 0.5, 0.05, 0.02);
    expect(result.pass).toBe(false);
    expect(result.power).toBeNull();
  });

  it('labels the point-estimate and CI-bound gates as having no error control', () => {
    const [point] = evaluateGates('d2', gridFit(0.93, 5), { minRetention: 0.9 });
    expect(point.message).toMatch(/point estimate 0\.930 is at least 0\.9 \(no error control\)$/);
    expect(point.evidence).toBeUndefined();
  });

  it('accepts alpha and margin in the configuration, rejecting values outside (0, 1)', () => {
    expect(projectGatesSchema.safeParse({ minRetention: { value: 0.9, evidence: 'test', alpha: 0.01 } }).success).toBe(
      true,
    );
    expect(projectGatesSchema.safeParse({ minRetention: { value: 0.9, evidence: 'test', alpha: 1.5 } }).success).toBe(
      false,
    );
  });

  it('states the power of the design that produced the record when the run gives it (the sequential design)', () => {
    const [gate] = evaluateGates(
      'd2',
      gridFit(0.85, 10),
      { minRetention: { value: 0.9, mode: 'hard', evidence: 'test' } },
      { designPower: { value: 0.87, of: "the sequential design's, 400 simulated runs" } },
    );
    expect(gate.power).toBe(0.87);
    expect(gate.message).toMatch(/power 0\.870 \(the sequential design's, 400 simulated runs\) at margin 0\.02$/);
  });

  it('tests minHorizon as p_d at least 0.5^(1/steps), keeping the horizon as its estimate', () => {
    // H_0.5 at least 8 steps is p_d at least 0.917; a model at 0.85 falls short
    const [gate] = evaluateGates('d2', gridFit(0.85, 100), {
      minHorizon: { value: 8, mode: 'hard', evidence: 'test' },
    });
    expect(gate).toMatchObject({ passed: false, evidence: 'test', alpha: 0.05, margin: 0.02, estimate: 13.8 });
    expect(gate.message).toMatch(/d2 H_0\.5 at least 8 is p_d at least 0\.917: .*likelihood-ratio test of 0\.917/);
  });
});

describe('the retention gates with evidence "test" on simulated grids of a model at the threshold', () => {
  const runs = 600;
  const bound = 0.05 + 2 * Math.sqrt((0.05 * 0.95) / runs);
  /** The share of `runs` seeded grids (40 per depth, the model at p) that the gate fails. */
  const failRate = (p: number, gates: Parameters<typeof evaluateGates>[2], seed: number) => {
    const rng = new PyRandom(seed);
    let fails = 0;
    for (let run = 0; run < runs; run++) {
      const counts = DEPTHS.map((depth) => ({ depth, correct: sampleBinomial(rng, 40, p ** depth), n: 40 }));
      const [gate] = evaluateGates('d2', retentionFit({ counts, pd: p }), gates);
      if (!gate.passed) fails++;
    }
    return fails / runs;
  };

  it('minRetention fails at most alpha of them (within Monte-Carlo error)', () => {
    const gates = { minRetention: { value: 0.9, mode: 'hard', evidence: 'test' } } as const;
    expect(failRate(0.9, gates, 4521)).toBeLessThanOrEqual(bound);
  });

  it('minHorizon (H_0.5 at least 8, p_d 0.917) fails at most alpha of them (within Monte-Carlo error)', () => {
    const gates = { minHorizon: { value: 8, mode: 'hard', evidence: 'test' } } as const;
    expect(failRate(0.5 ** (1 / 8), gates, 4522)).toBeLessThanOrEqual(bound);
  });
});

describe('maxTfbcRate with evidence "test"', () => {
  /** A fit with `tfbc` of `correct` correct answers carrying a divergent trace. */
  const tfbcFit = (tfbc: number, correct: number) =>
    retentionFit({ tfbc, correct, tfbcRate: correct === 0 ? null : tfbc / correct });
  const gates = { maxTfbcRate: { value: 0.1, mode: 'hard', evidence: 'test', alpha: 0.05, margin: 0.05 } } as const;

  it('states the decision, alpha and the exact power at the margin; fails a clear excess', () => {
    const [gate] = evaluateGates('d2', tfbcFit(40, 200), gates);
    expect(gate).toMatchObject({ gate: 'maxTfbcRate', passed: false, evidence: 'test', alpha: 0.05, margin: 0.05 });
    // the exact binomial chance that 200 correct answers fail a model at 0.15
    expect(gate.power).toBeCloseTo(
      rateTestFailProbability(200, { threshold: 0.1, margin: 0.05, alpha: 0.05 }, 0.15),
      12,
    );
    expect(gate.message).toMatch(
      /TFBC rate = 0\.200 \(40\/200 correct answers with a divergent trace\): likelihood-ratio test of 0\.1 against 0\.150 finds an excess \(Λ [0-9.]+ ≥ 2\.996\) — alpha 0\.05, power 0\.375 at margin 0\.05 \(under 0\.8/,
    );
  });

  it('passes a rate a little over the threshold on little evidence (the point gate fails it), saying the power is low', () => {
    const [gate] = evaluateGates('d2', tfbcFit(3, 20), gates);
    expect(gate.passed).toBe(true);
    expect(gate.power).toBeLessThan(0.8);
    expect(gate.message).toMatch(/no evidence of an excess .*\(under 0\.8: an excess of the margin may pass/);
    const [point] = evaluateGates('d2', tfbcFit(3, 20), { maxTfbcRate: 0.1 });
    expect(point.passed).toBe(false);
    expect(point.message).toMatch(/\(no error control\)(;|$)/);
  });

  it('fails a model at the threshold at most alpha of the time on simulated fits (within Monte-Carlo error)', () => {
    const rng = new PyRandom(4520);
    const runs = 1000;
    let fails = 0;
    for (let run = 0; run < runs; run++) {
      const [gate] = evaluateGates('d2', tfbcFit(sampleBinomial(rng, 150, 0.1), 150), gates);
      if (!gate.passed) fails++;
    }
    expect(fails / runs).toBeLessThanOrEqual(0.05 + 2 * Math.sqrt((0.05 * 0.95) / runs));
  });

  it('never passes on insufficient data', () => {
    const [gate] = evaluateGates('d2', retentionFit({ status: 'insufficient' }), gates);
    expect(gate.passed).toBe(false);
  });
});

describe('gates without a test: λ* and the counting capacity', () => {
  it('say "no error control" on their lines', () => {
    expect(checkCollapseNoEarlierThan(fixtureReport().collapse[0], 1).message).toMatch(/\(no error control\)(;|$)/);
    expect(checkCountingCapacityAtLeast({ cc: 96, ccLower: 88, ccUpper: 104, bounded: true }, 64).message).toMatch(
      /\(no error control\)$/,
    );
  });

  it("refuse evidence 'test' in the configuration, naming why and the fix", () => {
    for (const gate of ['collapseNoEarlierThan', 'minCountingCapacity']) {
      const parsed = projectGatesSchema.safeParse({ [gate]: { value: 3, evidence: 'test' } });
      expect(parsed.success).toBe(false);
      expect(parsed.error?.issues[0]).toMatchObject({ path: [gate, 'evidence'] });
      expect(JSON.stringify(parsed.error?.issues[0])).toMatch(/no likelihood-ratio test/);
    }
  });

  it('refuse a margin that leaves no alternative in range', () => {
    expect(projectGatesSchema.safeParse({ maxTfbcRate: { value: 0.99, evidence: 'test', margin: 0.02 } }).success).toBe(
      false,
    );
    expect(
      projectGatesSchema.safeParse({ minRetention: { value: 0.01, evidence: 'test', margin: 0.02 } }).success,
    ).toBe(false);
  });
});
