import type { PlanAmount, PlanRange } from '../schema/plan.js';
import type { Price } from '../schema/spend.js';
import { costOf } from './price.js';

/** Requests and tokens of some trials, before pricing. */
export interface Tokens {
  calls: PlanRange;
  promptTokens: PlanRange;
  outputTokens: PlanRange;
}

export const fixed = (value: number): PlanRange => ({ low: value, expected: value, high: value });
export const ZERO: PlanRange = fixed(0);
export const NO_TOKENS: Tokens = { calls: ZERO, promptTokens: ZERO, outputTokens: ZERO };

export function addRange(a: PlanRange, b: PlanRange): PlanRange {
  return {
    low: a.low + b.low,
    expected: a.expected === null || b.expected === null ? null : a.expected + b.expected,
    high: a.high + b.high,
  };
}

export const addTokens = (a: Tokens, b: Tokens): Tokens => ({
  calls: addRange(a.calls, b.calls),
  promptTokens: addRange(a.promptTokens, b.promptTokens),
  outputTokens: addRange(a.outputTokens, b.outputTokens),
});

export const sumTokens = (items: readonly Tokens[]): Tokens => items.reduce(addTokens, NO_TOKENS);

/** USD of a prompt and an output token count (no provider prompt caching assumed: an estimate must not count on it). */
const usd = (prompt: number, completion: number, price: Price): number =>
  costOf({ prompt, cachedPrompt: 0, completion, reasoning: 0 }, price);

/** The amount priced: each bound at its own tokens (prices are not negative, so the order of the bounds holds). */
export function priced(tokens: Tokens, price: Price | null): PlanAmount {
  const { promptTokens: p, outputTokens: o } = tokens;
  return {
    ...tokens,
    costUsd:
      price === null
        ? null
        : {
            low: usd(p.low, o.low, price),
            expected: p.expected === null || o.expected === null ? null : usd(p.expected, o.expected, price),
            high: usd(p.high, o.high, price),
          },
  };
}

export function addAmount(a: PlanAmount, b: PlanAmount): PlanAmount {
  return {
    calls: addRange(a.calls, b.calls),
    promptTokens: addRange(a.promptTokens, b.promptTokens),
    outputTokens: addRange(a.outputTokens, b.outputTokens),
    costUsd: a.costUsd === null || b.costUsd === null ? null : addRange(a.costUsd, b.costUsd),
  };
}

export const sumAmounts = (items: readonly PlanAmount[], price: Price | null): PlanAmount =>
  items.reduce(addAmount, priced(NO_TOKENS, price));
