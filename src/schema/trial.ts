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
  /** Prompt tokens the provider served from its prompt cache (`prompt_tokens_details.cached_tokens`), when reported. */
  cachedPromptTokens: z.number().int().nonnegative().optional(),
  /** What the request cost in USD, when the provider reports it (OpenRouter's `usage.cost`). */
  costUsd: z.number().nonnegative().optional(),
});
export type Usage = z.infer<typeof usageSchema>;

/** The reasoning a response carried, set aside before grading (src/tasks/response.ts). Its text stays in the cache. */
export const reasoningRecordSchema = z.object({
  /** Characters of reasoning (the provider's field plus inline blocks); tokens are in `usage.reasoningTokens`. */
  chars: z.number().int().nonnegative(),
  sources: z.array(z.enum(['provider', 'inline'])),
  /** The output ended inside an unclosed reasoning block, so there was no final answer to grade. */
  unclosed: z.boolean(),
});
export type ReasoningRecord = z.infer<typeof reasoningRecordSchema>;

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
  /** The provider's own finish reason when it differs from `finishReason` (Mistral's `model_length`, an unknown word). */
  rawFinishReason: z.string().optional(),
  usage: usageSchema.nullable(),
  /**
   * Usage of this trial's responses that brought no answer but were billed (a 200 with empty `choices`,
   * `finish_reason: "error"`), summed over its attempts; absent when there were none. A failed trial keeps
   * `usage` null (no answer) and what it paid here.
   */
  billedNoAnswer: usageSchema.optional(),
  /**
   * What this trial's rejected requests taught the subject about its endpoint, once per endpoint and model in a
   * process (docs/providers.md): `max_completion_tokens`/`max_tokens`, `no temperature`, `stream only`,
   * `no stream_options`. Later trials are sent the adapted request without saying it again.
   */
  adapted: z.array(z.string()).optional(),
  /** Present when the response carried reasoning (never graded). */
  reasoning: reasoningRecordSchema.optional(),
  /** The model declined (`message.refusal`): graded as the answer it gave (none), and shown as a refusal. */
  refusal: z.object({ text: z.string() }).optional(),
  /** The model that served (`response.model`), when the provider said; it may differ from the one asked for. */
  servedModel: z.string().optional(),
  /** The upstream provider that served (OpenRouter's top-level `provider`), when a router said. */
  servedProvider: z.string().optional(),
  /** The provider's batch that answered this trial (`ceilingbench run --batch`); absent for a live answer. */
  batch: z.string().optional(),
  /** Wall-clock latency of the answering call; a timing field, excluded from determinism checks. */
  latencyMs: z.number().nonnegative(),
  cacheHit: z.boolean(),
  /**
   * The response cache held an entry under this trial's key that belonged to another request (why: the field that
   * differs); it was not served, the trial was asked again. Absent otherwise.
   */
  cacheMismatch: z.string().optional(),
  /** Requests sent for this trial, retries included (0 for a cache hit). */
  attempts: z.number().int().nonnegative(),
  /**
   * The run was interrupted (Ctrl-C, SIGTERM) before this trial was answered: `in-flight`, it had started and its
   * request was aborted; `not-sent`, it never started. Its outcome is `budget` (missing data). Absent otherwise.
   */
  interrupted: z.enum(['in-flight', 'not-sent']).optional(),
});
export type TrialRecord = z.infer<typeof trialRecordSchema>;
