import { z } from 'zod';
import { count } from './common.js';

/**
 * Why an SCC ladder ended before its counting capacity was determined: the run's spend ledger refused one of its
 * calls (a spending limit was reached, or the run was interrupted; `reason` says which). Absent on a result that
 * finished. A stopped result measures no CC: its `cc`/`ccLower` are the highest tier passed before the stop, a
 * lower bound only, `ccUpper` is null, and every consumer (gate, board, summaries) treats it as unevaluated. A
 * rerun with a larger limit replays the answered trials from the response cache and carries on.
 */
export const sccStopSchema = z.object({
  by: z.literal('budget'),
  /** The ledger's refusal, e.g. `not sent: the spending limit --max-calls 40 was reached`. */
  reason: z.string(),
  /** Tiers that reached a verdict before the stop. */
  tiers: count,
});
export type SccStop = z.infer<typeof sccStopSchema>;

/** What a stopped ladder shows instead of a CC (gate messages, summaries, JUnit, boards). */
export const sccStopText = (stop: Pick<SccStop, 'reason' | 'tiers'>): string =>
  `stopped after ${stop.tiers} tier${stop.tiers === 1 ? '' : 's'} (${stop.reason}); ` +
  'no CC measured — rerun with a larger limit to resume from the response cache';
