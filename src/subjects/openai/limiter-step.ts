import type { LeaseOutcome, RateLimiter } from '../limiter.js';
import { estimateTokens } from '../usage-estimate.js';

/** Tokens a request is charged at admission: its messages by the chars/4 estimate, plus its whole output budget. */
export const requestTokenEstimate = (messages: readonly { content: string }[], budget: number): number =>
  messages.reduce((sum, m) => sum + estimateTokens(m.content), 0) + budget;

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
