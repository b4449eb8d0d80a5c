import { describe, expect, it } from 'vitest';
import { checkCountingCapacityAtLeast, checkRetentionAtLeast, evaluateGates } from '../../src/vitest/index.js';
import { retentionFit } from '../support/records.js';

describe('threshold checks and gates', () => {
  it('compares the point estimate or the CI lower bound and prints the estimate with its CI', () => {
    const fit = retentionFit();
    expect(checkRetentionAtLeast(fit, 0.95).pass).toBe(true);
    const lower = checkRetentionAtLeast(fit, 0.95, 'lower');
    expect(lower.pass).toBe(false);
    expect(lower.message).toBe(
      'd2 p_d = 0.951 [0.944, 0.957] (95% CI): CI lower bound 0.944 is below 0.95 (no error control)',
    );
  });

  it('never passes a gate on insufficient data', () => {
    const result = checkRetentionAtLeast(retentionFit({ status: 'insufficient', pd: 0.999 }), 0.5);
    expect(result.pass).toBe(false);
    expect(result.message).toMatch(/insufficient data/);
  });

  it('evaluates only the gates that apply, hard by default, advisory on request', () => {
    const gates = evaluateGates('d2', retentionFit(), {
      minRetention: 0.99,
      maxTfbcRate: { value: 0.01, mode: 'advisory', evidence: 'point' },
      minCountingCapacity: 64,
    });
    expect(gates.map((g) => [g.gate, g.mode, g.passed])).toEqual([
      ['minRetention', 'hard', false],
      ['maxTfbcRate', 'advisory', false],
    ]);
    expect(gates[0].message).toBe(
      'gate d2.minRetention FAILED (hard): d2 p_d = 0.951 [0.944, 0.957] (95% CI): point estimate 0.951 is below 0.99 (no error control)',
    );
  });

  it('checks counting capacity against the ladder result, failing a skipped run', () => {
    expect(checkCountingCapacityAtLeast({ cc: 96, ccLower: 88, ccUpper: 104, bounded: true }, 64).pass).toBe(true);
    expect(
      checkCountingCapacityAtLeast({ cc: 0, ccLower: 0, ccUpper: 32, bounded: false, skipped: true }, 1).pass,
    ).toBe(false);
  });
});
