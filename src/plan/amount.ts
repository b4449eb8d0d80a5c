import type { PlanAmount, PlanRange, PlanTotals } from '../schema/plan.js';
import type { Price } from '../schema/spend.js';
import { costOf } from '../spend/price.js';

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

/** A sum of counts; null when one of them is unknown (a ladder's trials). */
export const sumCounts = (values: readonly (number | null)[]): number | null =>
  values.some((v) => v === null) ? null : values.reduce<number>((a, b) => a + (b ?? 0), 0);

/** One subject's totals in a run; `bills`: it sends requests to a provider (an openai: subject). */
export interface SubjectTotals {
  bills: boolean;
  totals: PlanTotals;
}

/**
 * A run's totals: the sum of its subjects'. Its cost is what the subjects that bill cost; a subject that bills and
 * has no price leaves it unknown (null), never a partial sum read as the whole; one that sends nothing bills nothing
 * and adds no cost, even when a price names its model (a replay). Without a subject that bills, the cost is the
 * subjects' own (a single replay's at its model's price, as a plan of it alone says), null when none is priced.
 */
export function runTotals(parts: readonly SubjectTotals[]): PlanTotals {
  const amounts = parts.map((p) => p.totals.amount);
  const billing = parts.some((p) => p.bills) ? parts.filter((p) => p.bills) : parts;
  const costs = billing.flatMap((p) => (p.totals.amount.costUsd === null ? [] : [p.totals.amount.costUsd]));
  const unknown = costs.length === 0 || billing.some((p) => p.bills && p.totals.amount.costUsd === null);
  return {
    trials: sumCounts(parts.map((p) => p.totals.trials)),
    cached: sumCounts(parts.map((p) => p.totals.cached)),
    amount: {
      calls: amounts.map((a) => a.calls).reduce(addRange, ZERO),
      promptTokens: amounts.map((a) => a.promptTokens).reduce(addRange, ZERO),
      outputTokens: amounts.map((a) => a.outputTokens).reduce(addRange, ZERO),
      costUsd: unknown ? null : costs.reduce(addRange, ZERO),
    },
    complete: parts.every((p) => p.totals.complete),
  };
}
