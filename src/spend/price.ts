import type { Price, Prices } from '../schema/spend.js';
import type { TrialRecord, Usage } from '../schema/trial.js';

const PER_MILLION = 1_000_000;

/**
 * The price of a subject: the table's entry for its spec (`openai:gpt-4o-mini`), else for its model name
 * (`gpt-4o-mini`), else none (tokens only, never an invented dollar figure).
 */
export function priceFor(prices: Prices, subject: { spec: string; model?: string | null }): Price | null {
  return prices[subject.spec] ?? (subject.model ? prices[subject.model] : undefined) ?? null;
}

/** The batch API's discount where the price table gives no `batch` price: half of every token price. */
export const DEFAULT_BATCH_DISCOUNT = 0.5;

/** The price of a batched request: the table's `batch` entry, else half of each token price (DEFAULT_BATCH_DISCOUNT). */
export function batchPrice(price: Price): Price {
  if (price.batch) return { ...price.batch };
  const half = (usd: number | undefined) => (usd === undefined ? undefined : usd * (1 - DEFAULT_BATCH_DISCOUNT));
  return {
    input: half(price.input) as number,
    output: half(price.output) as number,
    ...(price.cachedInput !== undefined ? { cachedInput: half(price.cachedInput) } : {}),
    ...(price.reasoning !== undefined ? { reasoning: half(price.reasoning) } : {}),
  };
}

/**
 * The token counts a bill is made of. Reasoning tokens are part of `completion` (our convention, see
 * src/subjects/openai/completion.ts `readUsage`); a record whose reasoning is above its completion (written before
 * the provider's excluded reasoning was added to it) is billed both: every reasoning token at the reasoning
 * price, never capped.
 */
export interface BilledTokens {
  prompt: number;
  /** Of `prompt`: served from the provider's prompt cache. */
  cachedPrompt: number;
  completion: number;
  /** Of `completion`: reasoning. */
  reasoning: number;
}

export function billedTokens(usage: Usage): BilledTokens {
  const reasoning = usage.reasoningTokens ?? 0;
  return {
    prompt: usage.promptTokens,
    cachedPrompt: Math.min(usage.cachedPromptTokens ?? 0, usage.promptTokens),
    completion: reasoning > usage.completionTokens ? usage.completionTokens + reasoning : usage.completionTokens,
    reasoning,
  };
}

/** USD for these tokens at this price (per million tokens). */
export function costOf(tokens: BilledTokens, price: Price): number {
  const cached = tokens.cachedPrompt;
  const reasoning = tokens.reasoning;
  return (
    ((tokens.prompt - cached) * price.input +
      cached * (price.cachedInput ?? price.input) +
      (tokens.completion - reasoning) * price.output +
      reasoning * (price.reasoning ?? price.output)) /
    PER_MILLION
  );
}

/** The billed tokens of the trials that reported usage (billedTokens). */
export function sumBilled(trials: ReadonlyArray<Pick<TrialRecord, 'usage'>>): BilledTokens {
  const sum: BilledTokens = { prompt: 0, cachedPrompt: 0, completion: 0, reasoning: 0 };
  for (const t of trials) {
    if (t.usage === null) continue;
    const b = billedTokens(t.usage);
    sum.prompt += b.prompt;
    sum.cachedPrompt += b.cachedPrompt;
    sum.completion += b.completion;
    sum.reasoning += b.reasoning;
  }
  return sum;
}
