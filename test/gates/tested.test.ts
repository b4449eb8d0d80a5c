import { describe, expect, it } from 'vitest';
import { projectGatesSchema } from '../../src/config/schema.js';
import { checkRetentionTest } from '../../src/gates/checks.js';
import { evaluateGates } from '../../src/gates/threshold.js';
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
