import { APIConnectionError, APIError, APIUserAbortError } from 'openai';
import type { PyRandom } from '../../rng/index.js';
import { LimiterAbortError } from '../limiter.js';
import { onAbort } from './abort-fanout.js';
import { MalformedResponseError, ProviderFaultError } from './completion.js';
import { RequestTimeoutError } from './request.js';

/**
 * Our own retry loop (the SDK's maxRetries is 0, so 'no retries' means none): exponential backoff with
 * jitter, honouring Retry-After, for 408/409/429/5xx, connection errors, timeouts and malformed bodies.
 * Bounded by `maxAttempts` requests and `maxTotalMs` of wall time per trial. Defaults keep a trial under
 * the benchmark projects' 600 s testTimeout.
 */
export interface RetryPolicy {
  /** Requests per call, the first included. */
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /**
   * Wall-time budget of one trial (CEILINGBENCH_TRIAL_TIMEOUT_MS), its retries and backoffs included; time
   * queued in the limiter is not counted.
   */
  maxTotalMs: number;
  /**
   * Timeout of one HTTP request over the whole response, headers and body (CEILINGBENCH_REQUEST_TIMEOUT_MS): a
   * hanging or trickling request becomes a retryable timeout. Never more than what is left of `maxTotalMs`.
   */
  requestTimeoutMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 6,
  baseDelayMs: 1_000,
  maxDelayMs: 30_000,
  maxTotalMs: 540_000,
  requestTimeoutMs: 300_000,
};

export const RETRYABLE_STATUS = (status: number): boolean =>
  status === 408 || status === 409 || status === 429 || status >= 500;

export type Failure =
  | { kind: 'retryable'; reason: string; retryAfterMs?: number }
  /** `stopsRun`: every further request to this endpoint would fail the same way (no quota, bad credentials). */
  | { kind: 'fatal'; reason: string; stopsRun?: boolean }
  | { kind: 'aborted'; reason: string };

type HeaderBag = { get(name: string): string | null } | undefined;

/**
 * A rate-limit reset duration as OpenAI-style providers send it in `x-ratelimit-reset-requests` /
 * `x-ratelimit-reset-tokens`: `"20s"`, `"1m30s"`, `"6m0s"`, `"250ms"`, `"1h2m"`, `"0.5s"`, or a bare number of
 * seconds. Undefined when it cannot be read.
 */
export function parseResetDuration(raw: string | null | undefined): number | undefined {
  if (raw == null) return undefined;
  const text = raw.trim();
  if (text === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(text)) return Number.parseFloat(text) * 1000;
  const unit: Record<string, number> = { h: 3_600_000, m: 60_000, s: 1_000, ms: 1 };
  let total = 0;
  let rest = text;
  while (rest !== '') {
    const match = /^(\d+(?:\.\d+)?)(ms|h|m|s)/.exec(rest);
    if (!match) return undefined;
    total += Number.parseFloat(match[1]) * unit[match[2]];
    rest = rest.slice(match[0].length);
  }
  return total;
}

/**
 * Retry-After in ms from `retry-after-ms` or `retry-after` (seconds or an HTTP date), else the longer of
 * `x-ratelimit-reset-requests` and `x-ratelimit-reset-tokens` (which limit was hit is not said); undefined
 * if none is present.
 */
export function retryAfterMs(headers: HeaderBag, nowMs: number = Date.now()): number | undefined {
  const ms = Number.parseFloat(headers?.get('retry-after-ms') ?? '');
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const raw = headers?.get('retry-after');
  if (raw) {
    const seconds = Number.parseFloat(raw);
    if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
    const date = Date.parse(raw);
    if (Number.isFinite(date)) return Math.max(0, date - nowMs);
  }
  const resets = [headers?.get('x-ratelimit-reset-requests'), headers?.get('x-ratelimit-reset-tokens')]
    .map(parseResetDuration)
    .filter((x): x is number => x !== undefined);
  return resets.length > 0 ? Math.max(...resets) : undefined;
}

/** A 429 that waiting cannot fix: OpenAI's `insufficient_quota` (billing), in `code` or `type`. */
function isQuotaExhausted(error: APIError): boolean {
  const body = error.error as { code?: unknown; type?: unknown } | undefined;
  const codes = [error.code, error.type, body?.code, body?.type];
  return error.status === 429 && codes.some((c) => c === 'insufficient_quota');
}

/**
 * A request refused for its rate (a 429, or a 429 code in a 200 body), as opposed to no quota at all: the signal
 * an adaptive concurrency limit steps down on.
 */
export function isRateLimited(error: unknown): boolean {
  if (error instanceof APIError) return error.status === 429 && !isQuotaExhausted(error);
  return error instanceof ProviderFaultError && error.rateLimited;
}

/**
 * Classifies an error thrown by one chat-completion request. Retried: transport faults, timeouts, 408/409/
 * 429/5xx, truncated or non-JSON bodies, upstream faults reported in a 200. Not retried (they would fail the
 * same way): other 4xx, a deterministic error body in a 200, an event stream; and, stopping the run,
 * `insufficient_quota` and 401/403.
 */
export function classifyFailure(error: unknown, signal?: AbortSignal): Failure {
  if (signal?.aborted || error instanceof APIUserAbortError || error instanceof LimiterAbortError) {
    return { kind: 'aborted', reason: 'aborted by the caller' };
  }
  if (error instanceof APIConnectionError) return { kind: 'retryable', reason: `${error.name}: ${error.message}` };
  if (error instanceof RequestTimeoutError) return { kind: 'retryable', reason: `${error.name}: ${error.message}` };
  if (error instanceof APIError) {
    const status = error.status ?? 0;
    const reason = `HTTP ${status}: ${error.message}`.slice(0, 300);
    if (isQuotaExhausted(error)) {
      return { kind: 'fatal', reason: `no quota left (insufficient_quota): ${reason}`, stopsRun: true };
    }
    if (status === 401 || status === 403) {
      return { kind: 'fatal', reason: `the endpoint refused the credentials: ${reason}`, stopsRun: true };
    }
    if (RETRYABLE_STATUS(status)) return { kind: 'retryable', reason, retryAfterMs: retryAfterMs(error.headers) };
    return { kind: 'fatal', reason };
  }
  if (error instanceof ProviderFaultError) {
    return error.retryable ? { kind: 'retryable', reason: error.message } : { kind: 'fatal', reason: error.message };
  }
  // Bodies that are not JSON (SyntaxError), not a completion, or cut off mid-body (TypeError from fetch).
  if (error instanceof MalformedResponseError || error instanceof SyntaxError || error instanceof TypeError) {
    return { kind: 'retryable', reason: `${error.name}: ${error.message}`.slice(0, 300) };
  }
  return { kind: 'fatal', reason: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
}

/**
 * Delay before retry number `retry` (1-based): the server's Retry-After when given, else full-range
 * jitter in [½, 1] of base·2^(retry−1), capped at maxDelayMs. Jitter comes from a seeded PyRandom.
 */
export function backoffDelay(retry: number, policy: RetryPolicy, rng: PyRandom, retryAfter?: number): number {
  if (retryAfter !== undefined) return retryAfter;
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1));
  return ceiling * rng.uniform(0.5, 1);
}

/** Resolves true after `ms`, or false as soon as `signal` aborts (the trials in backoff share one listener). */
export function sleep(ms: number, signal?: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve(false);
    const timer = setTimeout(() => {
      undo?.();
      resolve(true);
    }, ms);
    const undo = signal
      ? onAbort(signal, () => {
          clearTimeout(timer);
          resolve(false);
        })
      : undefined;
  });
}

/** Time as the retry loop sees it; injectable, so that tests count backoffs instead of measuring them. */
export interface RetryClock {
  now(): number;
  /** Resolves true after `ms`, or false as soon as `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<boolean>;
}

export const systemRetryClock: RetryClock = { now: () => performance.now(), sleep };

/** What one attempt of the loop did. */
export type AttemptResult<T> =
  | { kind: 'answered'; value: T }
  /** The request failed; `sent` is false when it never left (e.g. aborted while waiting for the limiter). */
  | { kind: 'failed'; error: unknown; sent: boolean }
  /** The provider rejected a default we can adapt to (see `adaptToRejection`): sent, and sent again at once, not a retry. */
  | { kind: 'resend' }
  /** Nothing was sent and nothing will be (the run was stopped meanwhile). */
  | { kind: 'halted'; error: string; stopsRun?: boolean }
  /** Nothing was sent: the trial's time budget is spent. */
  | { kind: 'out-of-time' }
  /** Nothing was sent and nothing will be: the run's spend ledger refused the trial (budget-step.ts). */
  | { kind: 'not-sent'; reason: string };

/** What an attempt may ask of the loop. */
export interface AttemptContext {
  /** Milliseconds left of the trial's time budget. */
  remainingMs(): number;
  /** Time that does not count against the budget (waiting for the limiter is not the provider's time). */
  pause(ms: number): void;
}

export interface RetryLoopOptions {
  policy: RetryPolicy;
  /** Seeded jitter of this trial's backoffs; called on the first retry only (a string seed costs ~0.3 ms). */
  rng: () => PyRandom;
  signal?: AbortSignal;
  clock?: RetryClock;
  /** Start of the trial's time budget (default: now). */
  startedAt?: number;
  /** A failure after which every further request would fail the same way: returns the message to report. */
  stopRun(reason: string): string;
}

export type RetryOutcome<T> =
  | { ok: true; value: T; attempts: number }
  | { ok: false; error: string; attempts: number; stopsRun?: boolean; notSent?: boolean };

/**
 * The retry loop of one request: up to `maxAttempts` attempts, retrying only what `classifyFailure` calls
 * retryable, after `backoffDelay` (the server's Retry-After when given), never past the trial's time budget.
 * `attempts` counts the requests that were sent, resends included.
 */
export async function retryLoop<T>(
  attempt: (context: AttemptContext) => Promise<AttemptResult<T>>,
  options: RetryLoopOptions,
): Promise<RetryOutcome<T>> {
  const { policy, signal } = options;
  const clock = options.clock ?? systemRetryClock;
  let deadline = (options.startedAt ?? clock.now()) + policy.maxTotalMs;
  const context: AttemptContext = {
    remainingMs: () => deadline - clock.now(),
    pause: (ms) => {
      deadline += ms;
    },
  };
  let attempts = 0;
  let lastReason = 'no request sent';
  for (let n = 1; n <= policy.maxAttempts; n++) {
    const result = await attempt(context);
    if (result.kind === 'answered') return { ok: true, value: result.value, attempts: attempts + 1 };
    if (result.kind === 'halted') {
      return { ok: false, error: result.error, attempts, ...(result.stopsRun ? { stopsRun: true } : {}) };
    }
    if (result.kind === 'not-sent') return { ok: false, error: result.reason, attempts, notSent: true };
    if (result.kind === 'out-of-time') {
      return { ok: false, error: `${lastReason}; trial time budget exhausted`, attempts };
    }
    if (result.kind === 'resend') {
      attempts++;
      n--; // not a retry: a different request
      continue;
    }
    if (result.sent) attempts++;
    const failure = classifyFailure(result.error, signal);
    if (failure.kind === 'fatal' && failure.stopsRun) {
      return { ok: false, error: options.stopRun(failure.reason), attempts, stopsRun: true };
    }
    if (failure.kind !== 'retryable') return { ok: false, error: failure.reason, attempts };
    lastReason = failure.reason;
    if (n === policy.maxAttempts) break;
    const delay = backoffDelay(n, policy, options.rng(), failure.retryAfterMs);
    if (clock.now() + delay > deadline) {
      return {
        ok: false,
        error: `${lastReason}; next retry (in ${Math.round(delay)} ms) exceeds the time budget`,
        attempts,
      };
    }
    if (!(await clock.sleep(delay, signal))) return { ok: false, error: 'aborted by the caller', attempts };
  }
  return { ok: false, error: `${lastReason} (gave up after ${attempts} attempts)`, attempts };
}
