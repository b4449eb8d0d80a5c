import type { PairTable } from '../../src/leaderboard/pairing.js';
import type { PyRandom } from '../../src/rng/index.js';

/**
 * Simulated paired tables: two subjects answer the same `perDepth` instances at each depth, each right with
 * probability p^N independently given the instance (the candidate is side a). For notWorseThan's calibration in
 * test/leaderboard/not-worse-calibration.test.ts and bench/gate-calibration.ts.
 */
export function simulatedPairTables(
  rng: PyRandom,
  depths: readonly number[],
  perDepth: number,
  candidate: number,
  baseline: number,
): PairTable[] {
  return depths.map((level) => {
    const t: PairTable = { level, both: 0, aOnly: 0, bOnly: 0, neither: 0, dropped: 0 };
    for (let i = 0; i < perDepth; i++) {
      const a = rng.random() < candidate ** level;
      const b = rng.random() < baseline ** level;
      if (a && b) t.both++;
      else if (a) t.aOnly++;
      else if (b) t.bOnly++;
      else t.neither++;
    }
    return t;
  });
}
