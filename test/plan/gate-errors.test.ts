import { describe, expect, it } from 'vitest';
import { formatGateErrors, retentionGateErrors } from '../../src/plan/gate-errors.js';

const DEPTHS = [5, 10, 15, 20, 25, 30, 35, 40, 45, 50];
const TEST = { threshold: 0.9, margin: 0.02, alpha: 0.05 };

describe('retentionGateErrors: what plan states per design', () => {
  const rows = retentionGateErrors(DEPTHS, 40, TEST, { batch: 2, maxPerCell: 160 });
  const [point, test, sequential] = rows;

  it('gives the point gate its coin-flip false-alarm rate at the threshold', () => {
    expect(point.falseAlarm).toBeCloseTo(0.5, 10);
    expect(point.callsAtThreshold).toBe(400);
  });

  it('holds the tests at alpha at the threshold, and the sequential one within its Monte-Carlo error', () => {
    expect(test.falseAlarm).toBeLessThanOrEqual(0.05);
    expect(sequential.falseAlarm).toBeLessThanOrEqual(0.05 + 3 * Math.sqrt((0.05 * 0.95) / 400));
    expect(sequential.maxCalls).toBe(1600);
    expect(sequential.power).toBeGreaterThan(test.power);
  });

  it('states tokens as calls × tokens per call (expected), and the most calls × the most tokens per call', () => {
    const perCall = { expected: 300, high: 1200 };
    const priced = retentionGateErrors(DEPTHS, 40, TEST, { batch: 2, maxPerCell: 160 }, perCall);
    for (const [i, row] of priced.entries()) {
      expect(row.callsAtThreshold).toBe(rows[i].callsAtThreshold);
      expect(row.tokens).toEqual({
        atThreshold: row.callsAtThreshold * 300,
        atMargin: row.callsAtMargin * 300,
        max: row.maxCalls * 1200,
      });
    }
    expect(formatGateErrors(priced)[0]).toMatch(/; tokens 120k \/ 120k expected, 480k at most$/);
    expect(rows[0].tokens).toBeNull();
    expect(formatGateErrors(rows)[0]).toMatch(/; tokens: no estimate/);
  });

  it('is deterministic (seeded) and prints one line per design', () => {
    expect(retentionGateErrors(DEPTHS, 40, TEST, { batch: 2, maxPerCell: 160 })).toEqual(rows);
    const lines = formatGateErrors(rows);
    expect(lines).toHaveLength(3);
    expect(lines[2]).toMatch(/^ {2}sequential \(alpha 0\.05, 2 per depth a look, at most 160\): false alarm/);
  });
});
