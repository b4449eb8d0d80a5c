import OpenAI, { APIError } from 'openai';
import type { ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions';
import type { ErrorCode } from '../../errors.js';
import { PyRandom } from '../../rng/index.js';
import { CACHE_FORMAT, type CacheEntry } from '../cache/entry.js';
import { cacheKey, promptSha256 } from '../cache/key.js';
import type { ResponseCache } from '../cache/store.js';
import { type LimiterConfig, RateLimiter, sharedLimiter } from '../limiter.js';
import type { Subject, SubjectIdentity, TrialRequest, TrialResponse } from '../subject.js';
import { estimateTokens } from '../usage-estimate.js';
import { type Completion, readCompletion } from './completion.js';
import { type Env, resolveEndpoint } from './endpoint.js';
import {
  adaptToRejection,
  buildMessages,
  buildParams,
  type ChatMessage,
  learnedAdaptation,
  type ProviderOptions,
  rememberAdaptation,
} from './request-body.js';
import { backoffDelay, classifyFailure, DEFAULT_RETRY_POLICY, type RetryPolicy, sleep } from './retry.js';

const FATAL_CODE: ErrorCode = 'CB_PROVIDER_FATAL';

/** Header carrying the trial's cache key, so a server (or a proxy log) can tell repeated trials apart. */
export const TRIAL_HEADER = 'x-ceilingbench-trial';

export interface OpenAiSubjectOptions extends ProviderOptions {
  model: string;
  /** Default OPENAI_BASE_URL, else https://api.openai.com/v1. */
  baseURL?: string;
  /** Default OPENAI_API_KEY. Never stored, logged or put in the identity. */
  apiKey?: string;
  env?: Env;
  retry?: Partial<RetryPolicy>;
  /** A limiter instance, or the config of the process-wide limiter of this endpoint. */
  limiter?: RateLimiter | LimiterConfig;
  /** No cache when absent. */
  cache?: ResponseCache;
  /**
   * Extra request headers (Azure `api-key`, OpenRouter `HTTP-Referer`/`X-Title`). Like the key, they are
   * never stored, logged, put in the identity or the cache key, and their values are redacted from errors.
   */
  headers?: Record<string, string>;
  /** Send TRIAL_HEADER with every request (default true). */
  trialHeader?: boolean;
  /** The spec string for the identity (default `openai:<model>`). */
  specText?: string;
}

type CallResult =
  | { ok: true; completion: Completion; attempts: number }
  | { ok: false; error: string; attempts: number; stopsRun?: boolean };

interface TrialContext {
  key: string;
  /** Seeded jitter for this trial's retries; built on the first retry only (a string seed costs ~0.3 ms). */
  rng: () => PyRandom;
  deadline: number;
  signal?: AbortSignal;
}

function lazyRetryRng(key: string): () => PyRandom {
  let rng: PyRandom | undefined;
  return () => {
    rng ??= new PyRandom(`ceilingbench-retry|${key}`);
    return rng;
  };
}

const errorResponse = (error: string, start: number, attempts: number, stopsRun = false): TrialResponse => ({
  kind: 'error',
  error,
  latencyMs: performance.now() - start,
  attempts,
  ...(stopsRun ? { stopsRun } : {}),
});

/**
 * A chat-completions subject for any OpenAI-compatible endpoint: one request at the request's budget. Per trial:
 * cache lookup (key includes the trial index and the budget) → request with our retry loop under the
 * process-wide limiter → cache write of the answer. It applies no budget rule (that is SCC's protocol, in
 * src/assays/scc/budget-rule.ts) and knows no task: a cut answer is returned as cut. Errors are returned as
 * `kind: 'error'` (outcome `api`, missing data) and never cached. `latencyMs` is the wall time of the whole
 * answer (retries included); for a cache hit it is the lookup time and `attempts` is 0.
 */
export function createOpenAiSubject(options: OpenAiSubjectOptions): Subject {
  const endpoint = resolveEndpoint(options);
  const policy: RetryPolicy = { ...DEFAULT_RETRY_POLICY, ...options.retry };
  const limiter =
    options.limiter instanceof RateLimiter ? options.limiter : sharedLimiter(endpoint.identity, options.limiter);
  const client = new OpenAI({
    baseURL: endpoint.baseURL,
    apiKey: endpoint.apiKey,
    defaultQuery: endpoint.defaultQuery,
    ...(options.headers ? { defaultHeaders: options.headers } : {}),
    maxRetries: 0,
  });
  const secrets = [endpoint.apiKey, ...Object.values(options.headers ?? {})];
  /** Set by the first quota/credential refusal: later trials fail at once, without a request. */
  let stopped: string | undefined;
  /** Every further request would fail the same way: stop sending, once, with one clear message. */
  const stopRun = (reason: string): string => {
    stopped ??= `run stopped (${FATAL_CODE}): ${redact(reason, secrets)} — fix the account or key and rerun; cached trials are kept`;
    return stopped;
  };
  const identity: SubjectIdentity = {
    spec: options.specText ?? `openai:${options.model}`,
    kind: 'openai',
    model: options.model,
    endpoint: endpoint.identity,
    parameters: identityParameters(options, endpoint.identity),
  };

  async function call(messages: ChatMessage[], budget: number, trial: TrialContext): Promise<CallResult> {
    const estimate = messages.reduce((sum, m) => sum + estimateTokens(m.content), 0) + budget;
    let attempts = 0;
    let lastReason = 'no request sent';
    let sent: Record<string, string | number | boolean> = {};
    let sentWith = learnedAdaptation(endpoint.identity, options.model);
    for (let attempt = 1; attempt <= policy.maxAttempts; attempt++) {
      let lease: { release(tokens?: number): void } | undefined;
      try {
        const queued = performance.now();
        lease = await limiter.acquire(estimate, trial.signal);
        trial.deadline += performance.now() - queued; // waiting for the limiter is not the provider's time
        if (stopped !== undefined) {
          // the run was stopped while this trial waited for the limiter: send nothing
          lease.release();
          return { ok: false, error: stopped, attempts, stopsRun: true };
        }
        const remaining = trial.deadline - performance.now();
        if (remaining <= 0) {
          lease.release();
          return { ok: false, error: `${lastReason}; trial time budget exhausted`, attempts };
        }
        attempts++;
        sentWith = learnedAdaptation(endpoint.identity, options.model);
        sent = buildParams(options, endpoint.identity, budget, sentWith);
        const body = { model: options.model, messages, ...sent } as ChatCompletionCreateParamsNonStreaming;
        const raw: unknown = await client.chat.completions.create(body, {
          signal: trial.signal,
          timeout: Math.max(1, Math.floor(Math.min(policy.requestTimeoutMs, remaining))),
          maxRetries: 0,
          headers: options.trialHeader === false ? undefined : { [TRIAL_HEADER]: trial.key },
        });
        const completion = readCompletion(raw);
        lease.release(completion.usage ? completion.usage.promptTokens + completion.usage.completionTokens : undefined);
        return { ok: true, completion, attempts };
      } catch (error) {
        const early = classifyFailure(error, trial.signal);
        // set before the lease is released, so no trial waiting for the limiter sends another request
        if (early.kind === 'fatal' && early.stopsRun) stopRun(early.reason);
        lease?.release();
        if (error instanceof APIError) {
          // o-series and friends: a rejected default is learned once per endpoint+model and resent at once
          const current = learnedAdaptation(endpoint.identity, options.model);
          const adapted = adaptToRejection(options, sentWith, sent, error);
          if (adapted) {
            // another trial may have learned it while this request was in flight: keep the newer lesson
            if (current === sentWith) rememberAdaptation(endpoint.identity, options.model, adapted);
            attempt--; // not a retry: a different request
            continue;
          }
        }
        const failure = classifyFailure(error, trial.signal);
        if (failure.kind === 'fatal' && failure.stopsRun) {
          return { ok: false, error: stopRun(failure.reason), attempts, stopsRun: true };
        }
        if (failure.kind !== 'retryable') return { ok: false, error: failure.reason, attempts };
        lastReason = failure.reason;
        if (attempt === policy.maxAttempts) break;
        const delay = backoffDelay(attempt, policy, trial.rng(), failure.retryAfterMs);
        if (performance.now() + delay > trial.deadline) {
          return {
            ok: false,
            error: `${lastReason}; next retry (in ${Math.round(delay)} ms) exceeds the time budget`,
            attempts,
          };
        }
        if (!(await sleep(delay, trial.signal))) return { ok: false, error: 'aborted by the caller', attempts };
      }
    }
    return { ok: false, error: `${lastReason} (gave up after ${attempts} attempts)`, attempts };
  }

  async function answer(request: TrialRequest): Promise<TrialResponse> {
    const start = performance.now();
    const messages = buildMessages(request.prompt, options.systemRole);
    const keyParams = buildParams(options, endpoint.identity, request.maxOutputTokens);
    const { instance } = request;
    const key = cacheKey({
      endpoint: endpoint.identity,
      model: options.model,
      params: keyParams,
      messages,
      trialIndex: request.trialIndex,
      taskId: request.taskId,
      level: instance.level,
      seed: instance.seed,
      instanceProfile: instance.profile,
    });
    const cached = await options.cache?.get(key);
    if (cached) {
      const { text, reasoning, refusal, servedModel, finishReason, usage } = cached.response;
      const hit: TrialResponse = {
        kind: 'answer',
        text,
        ...(reasoning !== undefined ? { reasoning } : {}),
        ...(refusal !== undefined ? { refusal } : {}),
        ...(servedModel !== undefined ? { servedModel } : {}),
        finishReason,
        usage,
        latencyMs: performance.now() - start,
        cacheHit: true,
        attempts: 0,
        cacheKey: key,
      };
      return hit;
    }
    if (request.signal?.aborted) return errorResponse('aborted by the caller', start, 0);
    if (stopped !== undefined) return errorResponse(stopped, start, 0, true);
    const trial: TrialContext = {
      key,
      rng: lazyRetryRng(key),
      deadline: start + policy.maxTotalMs,
      signal: request.signal,
    };
    const result = await call(messages, request.maxOutputTokens, trial);
    if (!result.ok) {
      if (result.stopsRun) return errorResponse(result.error, start, result.attempts, true);
      return errorResponse(redact(result.error, secrets), start, result.attempts);
    }
    const { completion, attempts } = result;
    const latencyMs = performance.now() - start;
    const response = { ...completion, latencyMs, attempts };
    await options.cache?.put(entryOf(key, request, endpoint.identity, options.model, keyParams, response));
    return { kind: 'answer', ...completion, latencyMs, cacheHit: false, attempts, cacheKey: key };
  }

  return { identity, answer };
}

/** Error texts end up in reports: a provider that echoes the key must not leak it. */
const redact = (text: string, secrets: readonly string[]): string =>
  secrets.reduce((out, secret) => (secret.length >= 4 ? out.split(secret).join('***') : out), text);

/** The request parameters a report may show (budget field name, not its per-level value). */
function identityParameters(
  options: OpenAiSubjectOptions,
  endpoint: string,
): Record<string, string | number | boolean> {
  const parameters: Record<string, string | number | boolean> = {};
  for (const [name, value] of Object.entries(buildParams(options, endpoint, 0))) {
    if (value === null) continue;
    if (name.startsWith('max_')) parameters.maxTokensParam = name;
    else parameters[name] = value;
  }
  parameters.systemRole = options.systemRole ?? 'system';
  return parameters;
}

function entryOf(
  key: string,
  request: TrialRequest,
  endpoint: string,
  model: string,
  params: CacheEntry['meta']['params'],
  response: CacheEntry['response'],
): CacheEntry {
  const { instance } = request;
  return {
    format: CACHE_FORMAT,
    key,
    meta: {
      endpoint,
      model,
      taskId: request.taskId,
      level: instance.level,
      seed: instance.seed,
      instanceProfile: instance.profile,
      trialIndex: request.trialIndex,
      promptSha256: promptSha256(request.prompt),
      params,
    },
    response,
  };
}
