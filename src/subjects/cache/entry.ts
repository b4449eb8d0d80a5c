import { z } from 'zod';
import { finishReasonSchema, usageSchema } from '../../schema/trial.js';

export const CACHE_FORMAT = 'ceilingbench-cache/1';

export const budgetRecordSchema = z.object({
  requested: z.number().int().positive(),
  final: z.number().int().positive(),
  doublings: z.number().int().nonnegative(),
  ceilingReached: z.boolean(),
});

/** What the key was computed from, kept for people reading the cache and for `replay:`. Never secrets. */
export const cacheMetaSchema = z.object({
  /** Base URL without credentials, query or fragment. */
  endpoint: z.string(),
  model: z.string(),
  taskId: z.string(),
  level: z.number(),
  seed: z.number().int(),
  instanceProfile: z.string(),
  trialIndex: z.number().int().nonnegative(),
  /** sha256 of the task's prompt ({system, user}) before any provider transform. */
  promptSha256: z.string().regex(/^[0-9a-f]{64}$/),
  /** Request parameters other than the messages (temperature, seed, token budget, …). */
  params: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
});

export const cachedResponseSchema = z.object({
  text: z.string(),
  /** The provider's separate reasoning channel, kept so a cached trial records what it thought. */
  reasoning: z.string().optional(),
  /** The model's refusal text, when it declined. */
  refusal: z.string().optional(),
  /** The model that served (`response.model`). */
  servedModel: z.string().optional(),
  /** The upstream provider that served (OpenRouter's `provider`). */
  servedProvider: z.string().optional(),
  finishReason: finishReasonSchema,
  /** The provider's own finish reason when it differs from `finishReason`. */
  rawFinishReason: z.string().optional(),
  usage: usageSchema.nullable(),
  /** Latency of the original call (a timing field). */
  latencyMs: z.number().nonnegative(),
  /** Requests the original answer took. */
  attempts: z.number().int().nonnegative(),
  budget: budgetRecordSchema.optional(),
  /** The provider's batch that answered (`ceilingbench run --batch`); absent for a live answer. */
  batch: z.string().optional(),
});

export const cacheEntrySchema = z.object({
  format: z.literal(CACHE_FORMAT),
  key: z.string().regex(/^[0-9a-f]{64}$/),
  meta: cacheMetaSchema,
  response: cachedResponseSchema,
});

export type CacheMeta = z.infer<typeof cacheMetaSchema>;
export type CachedResponse = z.infer<typeof cachedResponseSchema>;
export type CacheEntry = z.infer<typeof cacheEntrySchema>;

type AnswerDetailFields = Pick<
  CachedResponse,
  'reasoning' | 'refusal' | 'servedModel' | 'servedProvider' | 'rawFinishReason'
>;

/**
 * The optional parts of an answer (reasoning channel, refusal, who served), copied only where present. One list,
 * so that the cache, a cache hit and a replay carry the same fields.
 */
export function answerDetails(from: AnswerDetailFields): AnswerDetailFields {
  const { reasoning, refusal, servedModel, servedProvider, rawFinishReason } = from;
  return {
    ...(rawFinishReason !== undefined ? { rawFinishReason } : {}),
    ...(reasoning !== undefined ? { reasoning } : {}),
    ...(refusal !== undefined ? { refusal } : {}),
    ...(servedModel !== undefined ? { servedModel } : {}),
    ...(servedProvider !== undefined ? { servedProvider } : {}),
  };
}
