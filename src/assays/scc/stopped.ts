import { ladderOutcome } from './ladder.js';
import type { SccTier } from './schema.js';

/**
 * The capacity fields of a ladder the spend ledger stopped: no CC was measured, so `cc` and `ccLower` are the
 * highest centre a completed tier passed (0 when none did) — a lower bound only, never above what the completed
 * tiers show — and `ccUpper` is null (bounds belong to a finished search; the failed tiers stay in `tiers`).
 * The result's `stopped` field is what tells consumers not to read `cc` as a measurement.
 */
export function stoppedCapacity(tiers: readonly SccTier[], stepFraction: number) {
  const lower = tiers.reduce((best, t) => (t.passed ? Math.max(best, t.center) : best), 0);
  const { errorBar } = ladderOutcome(lower, null, stepFraction);
  return { cc: lower, ccLower: lower, ccUpper: null, bounded: false, errorBar };
}
