import { z } from 'zod';
import { count } from './common.js';

/**
 * What a subject's tokens cost, in USD per million tokens (the way providers publish prices). No price is ever
 * looked up over the network or invented: a run without one reports tokens only.
 * - `cachedInput`: prompt tokens the provider served from its prompt cache (default: `input`);
 * - `reasoning`: reasoning tokens (default: `output`). Providers count reasoning inside the completion tokens, so
 *   the completion's other tokens are billed at `output` and its reasoning tokens at `reasoning`.
 */
const tokenPriceSchema = z
  .object({
    input: z.number().nonnegative(),
    cachedInput: z.number().nonnegative().optional(),
    output: z.number().nonnegative(),
    reasoning: z.number().nonnegative().optional(),
  })
  .strict();

/**
 * `batch`: the price of requests sent through the provider's batch API (`run --batch`, `plan --batch`); default half
 * of every token price above, the 50% discount of OpenAI, Azure OpenAI, Groq, Mistral, Together and Gemini
 * (docs/providers.md); give it where a provider's discount differs.
 */
export const priceSchema = tokenPriceSchema.extend({ batch: tokenPriceSchema.optional() }).strict();
export type Price = z.infer<typeof priceSchema>;

/**
 * The price table: keyed by a subject spec (`openai:gpt-4o-mini`) or a model name (`gpt-4o-mini`); the spec
 * wins when both are given.
 */
export const pricesSchema = z.record(z.string().min(1), priceSchema);
export type Prices = z.infer<typeof pricesSchema>;

/**
 * A hard spending limit for one run: when one is reached no new request is sent; the trials not sent are
 * outcome `budget` (missing data) and the run exits with EXIT.budget. Cached answers never count.
 */
export const spendLimitsSchema = z
  .object({
    /** USD, at the price table's prices (a subject without a price cannot be limited by cost: a config error). */
    maxCost: z.number().positive().optional(),
    /** Prompt + completion tokens as the provider reports them. */
    maxTokens: z.number().int().positive().optional(),
    /** Requests sent, retries included. */
    maxCalls: z.number().int().positive().optional(),
  })
  .strict();
export type SpendLimits = z.infer<typeof spendLimitsSchema>;

/** What stopped a run before every trial was sent: a spending limit, or an interrupt (SIGINT/SIGTERM). */
export const SPEND_STOPS = ['maxCost', 'maxTokens', 'maxCalls', 'interrupt'] as const;
export type SpendStop = (typeof SPEND_STOPS)[number];

/** Calls, tokens and USD of one run; `costUsd` is null when a subject of the run has no price. */
export const spendAmountSchema = z.object({
  calls: count,
  tokens: count,
  costUsd: z.number().nonnegative().nullable(),
});
export type SpendAmount = z.infer<typeof spendAmountSchema>;

/**
 * The spending limit of a run as the report states it: the limits, what was spent (requests actually sent; cache
 * hits cost nothing), what stopped the run, how many trials were never sent, and by how much the trials already
 * in flight when the limit was reached went past it — never more than `overshootBound` (trials in flight × the
 * per-trial cap).
 */
export const spendLimitReportSchema = z.object({
  limits: spendLimitsSchema,
  spent: spendAmountSchema,
  stoppedBy: z.enum(SPEND_STOPS).nullable(),
  /** Trials the limit kept from being sent (outcome `budget`). */
  notSent: count,
  overshoot: spendAmountSchema,
  overshootBound: spendAmountSchema,
});
export type SpendLimitReport = z.infer<typeof spendLimitReportSchema>;
