import { describe, expect, it } from 'vitest';
import { cappedLognormalMean, serverLatencies } from '../../scripts/perf/latency.js';

describe('the throughput limit’s latency model (scripts/perf/latency.ts)', () => {
  it('gives the exact capped-lognormal mean that a long seeded sample of the server’s draws converges to', () => {
    for (const sigma of [0.5, 1.5]) {
      const draws = serverLatencies(200_000, 200, sigma, 3);
      const mean = draws.reduce((a, b) => a + b, 0) / draws.length;
      expect(mean / cappedLognormalMean(200, sigma)).toBeGreaterThan(0.99);
      expect(mean / cappedLognormalMean(200, sigma)).toBeLessThan(1.01);
    }
  });

  it('caps at 10× the median, has the median it is given, and is deterministic in its seed', () => {
    const draws = serverLatencies(20_001, 50, 1.5, 7);
    expect(Math.max(...draws)).toBe(500);
    const sorted = [...draws].sort((a, b) => a - b);
    expect(sorted[10_000] / 50).toBeGreaterThan(0.95);
    expect(sorted[10_000] / 50).toBeLessThan(1.05);
    expect(serverLatencies(5, 50, 1.5, 7)).toEqual(draws.slice(0, 5));
  });

  it('reduces to median·e^{σ²/2} when the cap is unreachable', () => {
    expect(cappedLognormalMean(200, 0.1)).toBeCloseTo(200 * Math.exp(0.005), 9);
  });
});
