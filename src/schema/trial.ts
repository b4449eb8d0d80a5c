import { z } from 'zod';
import { trialOutcomeSchema } from '../tasks/outcome.js';

export const finishReasonSchema = z
  .enum(['stop', 'length', 'content_filter', 'tool_calls', 'function_call'])
  .nullable();

export const usageSchema = z.object({
  promptTokens: z.number().int().nonnegative(),
  completionTokens: z.number().int().nonnegative(),
  /** Reported by reasoning models only. */
  reasoningTokens: z.number().int().nonnegative().optional(),
});
export type Usage = z.infer<typeof usageSchema>;

/** One graded trial: the unit that crosses worker → reporter and lands in caches and reports. */
export const trialRecordSchema = z.object({
  task: z.string(),
  level: z.number(),
  /** Instance seed (CCB official: the release's seed). */
  seed: z.number().int(),
  /** Replicate index within the cell; part of the response-cache key. */
  trialIndex: z.number().int().nonnegative(),
  profile: z.string(),
  variant: z.string(),
  outcome: trialOutcomeSchema,
  finishReason: finishReasonSchema,
  usage: usageSchema.nullable(),
  /** Wall-clock latency of the answering call; a timing field, excluded from determinism checks. */
  latencyMs: z.number().nonnegative(),
  cacheHit: z.boolean(),
  /** Requests sent for this trial, retries included (0 for a cache hit). */
  attempts: z.number().int().nonnegative(),
});
export type TrialRecord = z.infer<typeof trialRecordSchema>;
