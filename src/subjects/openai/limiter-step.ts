import { type CountedMessage, countChatTokens } from '../../spend/tokenizer.js';
import type { LeaseOutcome, RateLimiter } from '../limiter.js';
import { type AttemptResult, isRateLimited } from './retry.js';

/**
 * Tokens a request is charged at admission, as an OpenAI-style token limit charges it: its messages counted with the
 * model's tokenizer (src/spend/tokenizer.ts, the count `plan` uses), plus its whole output budget.
 */
export const requestTokenEstimate = (messages: readonly CountedMessage[], budget: number, model?: string): number =>
  countChatTokens(messages, model) + budget;

export interface LeaseOptions<T> {
  signal?: AbortSignal;
  /** Clock of the queue time (default performance.now). */
  now?: () => number;
  /** Told how long the request waited for its slot, once it has one. */
  onQueued?: (ms: number) => void;
  /** The tokens the request really used, to correct the estimate charged (undefined keeps it). */
  usedTokens?: (value: T) => number | undefined;
  /** What the request tells an adaptive concurrency limit (default, and when `body` throws: 'other'). */
  outcome?: (value: T) => LeaseOutcome;
}

/**
 * Runs `body` (one request) under a slot of the process-wide limiter: waits for the slot (rejecting with
 * LimiterAbortError if `signal` aborts first, before `body` runs), and frees it on every path once `body`
 * settles, charging the tokens it reports and telling the limiter how it went.
 */
export async function withLease<T>(
  limiter: RateLimiter,
  estimate: number,
  body: () => Promise<T>,
  options: LeaseOptions<T> = {},
): Promise<T> {
  const now = options.now ?? (() => performance.now());
  const queued = now();
  const lease = await limiter.acquire(estimate, options.signal);
  options.onQueued?.(now() - queued);
  let used: number | undefined;
  let outcome: LeaseOutcome = 'other';
  try {
    const value = await body();
    used = options.usedTokens?.(value);
    outcome = options.outcome?.(value) ?? 'other';
    return value;
  } finally {
    lease.release(used, outcome);
  }
}

/** What a subject's answer reports of its usage (an endpoint's completion, a function's answer). */
interface UsageCarrier {
  usage?: { promptTokens: number; completionTokens: number } | null;
}

/**
 * One attempt of a trial under a limiter slot, as every paid subject runs it: charged its messages and budget,
 * corrected by the tokens the answer used; an answer grows an adaptive limit, a sent request the provider
 * rate-limited steps it down, anything else says nothing about the rate (a request that failed otherwise still
 * used the endpoint's rate; one never sent — the endpoint gate closed while it waited, the run stopped — gives its
 * slot back). Aborted while waiting for the slot, the attempt failed unsent.
 *
 * Only a trial's first rate refusal teaches the limiter (`refused`, kept across the trial's attempts): a request
 * refused again after its backoff says more about the request than about the rate (an endpoint that refuses that
 * prompt whatever the pace, a size the limit never admits) — counted as a refusal, each of its retries would cut
 * the pace of every other trial. A rate limit's refusals fall on fresh requests too; those teach it.
 */
export async function attemptUnderLease<T extends UsageCarrier>(
  limiter: RateLimiter,
  request: { messages: readonly CountedMessage[]; budget: number; model?: string },
  send: () => Promise<AttemptResult<T>>,
  options: Pick<LeaseOptions<AttemptResult<T>>, 'signal' | 'now' | 'onQueued'> & { refused?: { before: boolean } },
): Promise<AttemptResult<T>> {
  const { refused, ...lease } = options;
  try {
    return await withLease(limiter, requestTokenEstimate(request.messages, request.budget, request.model), send, {
      ...lease,
      usedTokens: (result) => {
        const usage = result.kind === 'answered' ? result.value.usage : undefined;
        return usage ? usage.promptTokens + usage.completionTokens : undefined;
      },
      outcome: (result) => {
        if (result.kind === 'answered') return 'success';
        if (result.kind === 'resend') return 'other';
        if (result.kind !== 'failed' || !result.sent) return 'unsent';
        if (!isRateLimited(result.error)) return 'other';
        if (refused?.before) return 'refused';
        if (refused) refused.before = true;
        return 'rate-limited';
      },
    });
  } catch (error) {
    return { kind: 'failed', error, sent: false }; // aborted while waiting for the limiter
  }
}
