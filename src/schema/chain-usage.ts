import { z } from 'zod';
import { count } from './common.js';
import { usageSchema } from './trial.js';

/** Answered calls of one kind (sent in this run, or from the response cache) and their usage summed. */
const answeredCallsSchema = z.object({
  /** Calls that answered. */
  calls: count,
  /** Their usage summed; null when one of them reported none (meaningless when `calls` is 0). */
  usage: usageSchema.nullable(),
});

/**
 * What one assay trial (SCC, or a secondary assay's) used over every call it made: SCC's budget rule asks again
 * at a doubled output budget while an answer is cut, and each call is its own request, billed on its own. Kept
 * on the trial record next to the final call's tokens (which the paper's analyses use); ceilingbench.json's
 * `spend` prices it. Absent in records written before ceilingbench kept it.
 */
export const chainUsageSchema = z.object({
  /** Calls to the subject: 1 + the doublings; a failing call, or one the spend ledger refused, included. */
  calls: count,
  /** Requests sent, retries included: 0 when every call was answered from the response cache. */
  attempts: count,
  /** The calls answered by requests sent in this run. */
  paid: answeredCallsSchema,
  /** The calls answered from ceilingbench's response cache: nothing sent, nothing paid in this run. */
  fromCache: answeredCallsSchema,
  /** How the chain ended: an answer, a failed call (missing data), or a call the spend ledger refused to send. */
  end: z.enum(['answer', 'error', 'not-sent']),
  /**
   * Usage of the chain's responses that carried usage but no answer (a 200 with empty `choices`, `finish_reason:
   * "error"`), over every call; billed in this run. Absent when there were none.
   */
  billedNoAnswer: usageSchema.optional(),
});
export type ChainUsage = z.infer<typeof chainUsageSchema>;
