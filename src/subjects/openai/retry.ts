import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import type { PyRandom } from '../../rng/index.js';
import { LimiterAbortError } from '../limiter.js';
import { onAbort } from './abort-fanout.js';
import { MalformedResponseError, ProviderFaultError } from './completion.js';
import type { GateVerdict } from './endpoint-gate.js';
import { providerErrorOf } from './error-body.js';
import { RequestTimeoutError } from './request.js';

/**
 * Our own retry loop (the SDK's maxRetries is 0, so 'no retries' means none), for 408/409/429/5xx, connection
 * errors, timeouts and malformed bodies. A fault of the endpoint as a whole (429, 502/503/504, a refused
 * connection) is waited out at the endpoint gate with the endpoint's other trials (endpoint-gate.ts: the
 * provider's wait honoured, one probe, retried by time within `retryMaxMs`); a fault of one request by the
 * trial's own exponential backoff with jitter. Bounded by `maxAttempts` counted requests and `maxTotalMs` of
 * wall time per trial. Defaults keep a trial under the benchmark projects' 600 s testTimeout.
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
  /**
   * Time budget of one outage of the endpoint (CEILINGBENCH_RETRY_MAX_MS, default DEFAULT_RETRY_MAX_MS): its
   * endpoint-wide faults are retried that long; a longer wait stops the run (endpoint-gate.ts).
   */
  retryMaxMs?: number;
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

/**
 * Where a retryable fault lies: with the endpoint as a whole (a 429, a 502/503/504/529, a refused connection:
 * every trial would meet it, so the endpoint gate holds the wait for all of them, endpoint-gate.ts), or with this
 * one request (a 500, a timeout, a cut or malformed body: retried by the trial's own backoff).
 */
export type FaultScope = 'endpoint' | 'request';

export type Failure =
  | { kind: 'retryable'; reason: string; retryAfterMs?: number; scope: FaultScope }
  /**
   * `stopsRun`: every further request to this endpoint would fail the same way (no quota, bad credentials, no
   * such model, a wrong base URL); `hint` says what to fix.
   */
  | { kind: 'fatal'; reason: string; stopsRun?: boolean; hint?: string }
  | { kind: 'aborted'; reason: string };

/** Statuses whose fault is the endpoint's as a whole (529: Anthropic's "overloaded"). */
const ENDPOINT_STATUS = new Set([429, 502, 503, 504, 529]);

export const BASE_URL_HINT = 'check OPENAI_BASE_URL: it usually ends in /v1';

/** What to do after the gate stopped the run. */
export const WAIT_HINT = 'rerun later (or raise CEILINGBENCH_RETRY_MAX_MS)';

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
  const body = providerErrorOf(error);
  const codes = [error.code, error.type, body.code, body.type];
  return error.status === 429 && codes.some((c) => c === 'insufficient_quota');
}

/**
 * A 429 for a request larger than the whole per-minute limit (OpenAI: "Request too large for gpt-4o … on tokens
 * per min (TPM): Limit 30000, Requested 45000"): no wait lets it through.
 */
const isTooLarge = (error: APIError): boolean => error.status === 429 && /request too large/i.test(error.message);

/** The longest of the waits the answer asks for: its headers' and its body's (Google's RetryInfo.retryDelay). */
function askedWaitMs(error: APIError): number | undefined {
  const waits = [retryAfterMs(error.headers), providerErrorOf(error).retryDelayMs].filter(
    (x): x is number => x !== undefined && Number.isFinite(x),
  );
  return waits.length > 0 ? Math.max(...waits) : undefined;
}

/** A 404: the model is not served there, or (any other 404 of a chat completion) the base URL is wrong. */
function notFound(error: APIError, reason: string): Failure {
  const body = providerErrorOf(error);
  const model = body.code === 'model_not_found' || /model/i.test(body.message ?? '');
  return model
    ? { kind: 'fatal', stopsRun: true, reason: `model not found: ${reason}`, hint: 'check the model name' }
    : { kind: 'fatal', stopsRun: true, reason: `no chat completions at this URL: ${reason}`, hint: BASE_URL_HINT };
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
  if (error instanceof RequestTimeoutError || error instanceof APIConnectionTimeoutError) {
    return { kind: 'retryable', reason: `${error.name}: ${error.message}`, scope: 'request' };
  }
  if (error instanceof APIConnectionError) {
    const cause = error.cause instanceof Error ? ` (${causeOf(error.cause)})` : '';
    return { kind: 'retryable', reason: `${error.name}: ${error.message}${cause}`, scope: 'endpoint' };
  }
  if (error instanceof APIError) {
    const status = error.status ?? 0;
    const reason = `HTTP ${status}: ${error.message}`.slice(0, 300);
    if (isQuotaExhausted(error)) {
      return { kind: 'fatal', reason: `no quota left (insufficient_quota): ${reason}`, stopsRun: true };
    }
    if (status === 401 || status === 403) {
      return { kind: 'fatal', reason: `the endpoint refused the credentials: ${reason}`, stopsRun: true };
    }
    if (status === 404) return notFound(error, reason);
    if (isTooLarge(error)) return { kind: 'fatal', reason };
    if (RETRYABLE_STATUS(status)) {
      const wait = askedWaitMs(error);
      const scope: FaultScope = ENDPOINT_STATUS.has(status) ? 'endpoint' : 'request';
      return { kind: 'retryable', reason, scope, ...(wait !== undefined ? { retryAfterMs: wait } : {}) };
    }
    return { kind: 'fatal', reason };
  }
  if (error instanceof ProviderFaultError) {
    return error.retryable
      ? { kind: 'retryable', reason: error.message, scope: 'request' }
      : { kind: 'fatal', reason: error.message };
  }
  // Bodies that are not JSON (SyntaxError), not a completion, or cut off mid-body (TypeError from fetch).
  if (error instanceof MalformedResponseError || error instanceof SyntaxError || error instanceof TypeError) {
    return { kind: 'retryable', reason: `${error.name}: ${error.message}`.slice(0, 300), scope: 'request' };
  }
  return { kind: 'fatal', reason: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
}

/** The system error under a connection error (`ECONNREFUSED`), which the SDK's message leaves out. */
function causeOf(cause: Error): string {
  const code = (cause as { code?: unknown }).code ?? (cause.cause as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? code : cause.message.slice(0, 120);
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
  /**
   * The request failed; `sent` is false when it never left (e.g. aborted while waiting for the limiter). `gated`:
   * the endpoint gate's verdict on an endpoint-wide fault (the gate holds the wait, so the loop does not sleep).
   */
  | { kind: 'failed'; error: unknown; sent: boolean; gated?: GateVerdict }
  /** Nothing was sent: the endpoint closed while the trial waited for its slot; it waits at the gate again. */
  | { kind: 'deferred' }
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
  stopRun(reason: string, hint?: string): string;
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
    if (result.kind === 'deferred') {
      n--; // nothing was sent
      continue;
    }
    if (result.sent) attempts++;
    const failure = classifyFailure(result.error, signal);
    if (failure.kind === 'fatal' && failure.stopsRun) {
      return { ok: false, error: options.stopRun(failure.reason, failure.hint), attempts, stopsRun: true };
    }
    if (failure.kind !== 'retryable') return { ok: false, error: failure.reason, attempts };
    lastReason = failure.reason;
    if (result.gated) {
      // the endpoint gate holds the wait: the next attempt waits there, with the endpoint's other trials
      if (result.gated.kind === 'stop') {
        return { ok: false, error: options.stopRun(result.gated.reason, WAIT_HINT), attempts, stopsRun: true };
      }
      if (!result.gated.counts) n--; // a failed probe of an endpoint that never answered: bounded by time
      if (n === policy.maxAttempts) break;
      continue;
    }
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
