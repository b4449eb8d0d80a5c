import { describe, expect, it } from 'vitest';
import { generateCell, resolveTask } from '../../src/tasks/index.js';
import { retentionFit } from '../support/records.js';

describe('custom matchers', () => {
  const d1 = resolveTask('d1');
  const [instance] = generateCell(d1, 5, 1);

  it('toBeValidTrajectory passes the canonical response and names the first divergent step otherwise', () => {
    expect(d1.canonicalResponse(instance)).toBeValidTrajectory(instance);
    const corrupted = d1
      .canonicalResponse(instance)
      .replace(instance.trace[2] as string, '[[1, 1, 1], [2, 2, 2], [3, 3, 3]]');
    expect(() => expect(corrupted).toBeValidTrajectory(instance)).toThrow(/first divergent step k\* = 3/);
    expect(corrupted).not.toBeValidTrajectory(instance);
  });

  it('retention, horizon and TFBC matchers print the estimate with its CI', () => {
    const fit = retentionFit();
    expect(fit).toHaveRetentionAtLeast(0.95);
    expect(() => expect(fit).toHaveRetentionAtLeast(0.95, { evidence: 'lower' })).toThrow(
      'd2 p_d = 0.951 [0.944, 0.957] (95% CI): CI lower bound 0.944 is below 0.95 (no error control)',
    );
    expect(fit).toHaveHorizonAtLeast(13);
    expect(() => expect(fit).toHaveHorizonAtLeast(20)).toThrow(/H_0.5 = 13.800 steps \[12.000, 15.800\]/);
    expect(fit).toHaveTfbcRateAtMost(0.1);
    expect(fit).not.toHaveTfbcRateAtMost(0.01);
  });

  it('toHaveCountingCapacityAtLeast takes a ladder result (async)', async () => {
    await expect({ cc: 96, ccLower: 88, ccUpper: 104, bounded: true }).toHaveCountingCapacityAtLeast(64);
    await expect(
      expect({ cc: 40, ccLower: 32, ccUpper: 48, bounded: true }).toHaveCountingCapacityAtLeast(64),
    ).rejects.toThrow(/counting capacity = 40 \(ladder bounds 32–48\) is below 64/);
  });
});
