import { APIError } from 'openai';
import type { Prices } from '../../schema/spend.js';
import type { Usage } from '../../schema/trial.js';
import type { SpendGate } from '../../spend/ledger.js';
import { priceFor } from '../../spend/price.js';
import type { ResponseCache } from '../cache/store.js';
import { LimiterAbortError, type LimiterConfig, RateLimiter, sharedLimiter } from '../limiter.js';
import type { Subject, SubjectIdentity, TrialRequest, TrialResponse } from '../subject.js';
import { batchAnswers } from './batch-answers.js';
import { createBudgetStep, type TrialBudget } from './budget-step.js';
import { createCacheStep } from './cache-step.js';
import { type Completion, ProviderFaultError } from './completion.js';
import { type Env, resolveEndpoint } from './endpoint.js';
import { DEFAULT_RETRY_MAX_MS, type GateReport, type Pass, sharedGate } from './endpoint-gate.js';
import { requestHeaders } from './headers.js';
import { attemptUnderLease } from './limiter-step.js';
import { statedLimits } from './rate-headers.js';
import { createChatClient, learnFromRejection, sendChatCompletion } from './request.js';
import {
  buildMessages,
  buildParams,
  type ChatMessage,
  identityParameters,
  learnedAdaptation,
  type ProviderOptions,
} from './request-body.js';
import {
  type AttemptContext,
  type AttemptResult,
  classifyFailure,
  DEFAULT_RETRY_POLICY,
  isRateLimited,
  type RetryClock,
  type RetryOutcome,
  type RetryPolicy,
  retryLoop,
  systemRetryClock,
  WAIT_HINT,
} from './retry.js';
import { RunStop } from './run-stop.js';
import { type StreamMode, shouldStream } from './stream-mode.js';
import { lazyRetryRng, NoAnswerBill, type TrialAttempt } from './trial-attempt.js';
import { hasAnswered, markAnswered, unreachableReason } from './unreachable.js';

export { TRIAL_HEADER } from './request.js';

export interface OpenAiSubjectOptions extends ProviderOptions {
  model: string;
  /** Default OPENAI_BASE_URL, else https://api.openai.com/v1. */
  baseURL?: string;
  /** Default OPENAI_API_KEY. Never stored, logged or put in the identity. */
  apiKey?: string;
  env?: Env;
  /**
   * One request's timeout over the whole response, headers and body (default 300 000 ms; env
   * CEILINGBENCH_REQUEST_TIMEOUT_MS). A timeout is retried; `api` when the attempts run out.
   */
  requestTimeoutMs?: number;
  /** A trial's total time, retries and backoffs included (default 540 000 ms; env CEILINGBENCH_TRIAL_TIMEOUT_MS). */
  trialTimeoutMs?: number;
  /**
   * The time budget of one outage of the endpoint (default 300 000 ms; env CEILINGBENCH_RETRY_MAX_MS): its
   * 429s, 502/503/504s and refused connections are retried that long, the trials waiting together behind one
   * probe (endpoint-gate.ts); a wait the provider asks for beyond it stops the run.
   */
  retryMaxMs?: number;
  /**
   * Ask for event streams (env CEILINGBENCH_STREAM): 'never' (default), 'always', or 'auto' = when the output
   * budget is above STREAM_AUTO_ABOVE (8192). A transport detail: the cache key is the same either way.
   */
  stream?: StreamMode;
  /** Fields set here override `requestTimeoutMs`/`trialTimeoutMs`. */
  retry?: Partial<RetryPolicy>;
  /**
   * A limiter instance, or the config of the process-wide limiter of this endpoint. Without a `concurrency`
   * (CEILINGBENCH_CONCURRENCY) the limit adapts — 1 in flight at first, within 1–64, stepping under a concurrency
   * cap or a queueing server's capacity — and requests are paced to a rate limit learned from 429s or stated in
   * `x-ratelimit-limit-*` (src/subjects/adaptive-concurrency.ts, adaptive-pace.ts).
   */
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
  /** Time of the retry loop, the endpoint gate and latencies (tests inject one to count backoffs); default the system clock. */
  clock?: RetryClock;
  /** The fetch the SDK sends with (default the global one): a proxy agent, or a test's simulated endpoint. */
  fetch?: typeof globalThis.fetch;
  /**
   * The run's spend ledger (a spending limit, or `ceilingbench run`'s Ctrl-C) and the price table: every trial
   * that is not a cache hit asks the ledger before its first request and reports what it spent (budget-step.ts).
   * Absent: nothing is asked.
   */
  spend?: { gate: SpendGate; prices: Prices };
  /**
   * Batch mode (`ceilingbench run --batch`): the trials were answered through the provider's batch API into the cache
   * before the run (batch-run.ts); a trial the cache does not hold is never sent live: it is `api` with the batch's
   * reason (or, when no batch answered it, saying so), or `budget` when a spending limit held it back.
   */
  batch?: boolean;
}

/**
 * A 429 asking for a wait this long or longer (a `Retry-After: 20`, Gemini's 40 s retryDelay, a daily limit) closes the
 * endpoint for all its trials at the endpoint gate; a shorter one, or none, is a rate signal: the limiter paces to it
 * and only the refused trial backs off.
 */
export const GATED_WAIT_MS = 10_000;
/** An endpoint that has answered nothing for this long (or never) and refuses with 429s is closed at the gate. */
export const REFUSING_MS = 10_000;

/**
 * A chat-completions subject for any OpenAI-compatible endpoint: a transport that sends one request at the
 * request's budget, composed of
 *
 *   cache-step.ts    lookup by key (trial and budget included) → on a miss the steps below → write the answer
 *   retry.ts         the retry loop: backoff, Retry-After, the trial's time budget
 *   limiter-step.ts  each attempt under a slot of the process-wide limiter (adaptive unless a concurrency is
 *                    configured: told whether the attempt was answered or refused with a 429)
 *   budget-step.ts   under that slot, before the trial's first request: the run's spend ledger admits the trial
 *                    or refuses it (`kind: 'not-sent'`, outcome `budget`); what it spent is reported at the end
 *   request.ts       one HTTP request under one timeout over headers and body, streamed or not (request-body.ts
 *                    builds it; completion.ts normalises a JSON answer, event-stream.ts a streamed one)
 *   run-stop.ts      a quota/credential refusal stops the subject once; secrets are redacted from errors
 *
 * It applies no budget rule (SCC's doubling is the assay's, src/assays/scc/budget-rule.ts) and knows no task:
 * a cut answer is returned as cut. Errors are returned as `kind: 'error'` (outcome `api`, missing data) and
 * never cached. `latencyMs` is the wall time of the answer (retries included); for a cache hit it is the
 * lookup time and `attempts` is 0. The time a trial waits for the endpoint gate or a limiter slot is not latency.
 */
export function createOpenAiSubject(options: OpenAiSubjectOptions): Subject {
  const endpoint = resolveEndpoint(options);
  const policy: RetryPolicy = {
    ...DEFAULT_RETRY_POLICY,
    ...(options.requestTimeoutMs !== undefined ? { requestTimeoutMs: options.requestTimeoutMs } : {}),
    ...(options.trialTimeoutMs !== undefined ? { maxTotalMs: options.trialTimeoutMs } : {}),
    ...(options.retryMaxMs !== undefined ? { retryMaxMs: options.retryMaxMs } : {}),
    ...options.retry,
  };
  const clock = options.clock ?? systemRetryClock;
  const limiter =
    options.limiter instanceof RateLimiter ? options.limiter : sharedLimiter(endpoint.identity, options.limiter);
  const client = createChatClient(endpoint, requestHeaders(options.headers), policy.requestTimeoutMs, options.fetch);
  const gate = sharedGate(
    `${endpoint.identity}|${options.model}`,
    {
      baseDelayMs: policy.baseDelayMs,
      maxDelayMs: policy.maxDelayMs,
      retryMaxMs: policy.retryMaxMs ?? DEFAULT_RETRY_MAX_MS,
    },
    clock,
  );
  const runStop = new RunStop([endpoint.apiKey, ...Object.values(options.headers ?? {})]);
  const cache = createCacheStep({
    cache: options.cache,
    endpoint: endpoint.identity,
    model: options.model,
    now: () => clock.now(),
  });
  const identity: SubjectIdentity = {
    spec: options.specText ?? `openai:${options.model}`,
    kind: 'openai',
    model: options.model,
    endpoint: endpoint.identity,
    parameters: identityParameters(options, endpoint.identity),
  };
  const spend = options.spend;
  const budgetStep = spend
    ? createBudgetStep({ gate: spend.gate, price: priceFor(spend.prices, identity), maxAttempts: policy.maxAttempts })
    : undefined;

  /**
   * One attempt: past the endpoint gate (its backoff, shared by the endpoint's trials), then a request under a
   * limiter slot, unless the run was stopped, the endpoint closed or the time is up meanwhile.
   */
  async function attempt(trial: TrialAttempt, context: AttemptContext): Promise<AttemptResult<Completion>> {
    const { signal } = trial;
    if (runStop.stopped !== undefined) return { kind: 'halted', error: runStop.stopped, stopsRun: true };
    const before = clock.now();
    const pass = await gate.pass(signal, context.remainingMs, context);
    trial.waited.ms += clock.now() - before;
    if (pass.kind === 'stopped') return { kind: 'halted', error: runStop.stop(pass.reason, WAIT_HINT), stopsRun: true };
    if (pass.kind === 'late') return { kind: 'out-of-time' };
    if (pass.kind === 'aborted') return { kind: 'failed', error: new LimiterAbortError(), sent: false };
    let reported = false;
    const report = (what: GateReport) => {
      reported = true;
      return gate.report(pass, what);
    };
    try {
      return await underLease(pass, report, trial, context);
    } finally {
      if (!reported) report({ kind: 'none' });
    }
  }

  async function underLease(
    pass: Pass,
    report: (what: GateReport) => ReturnType<typeof gate.report>,
    trial: TrialAttempt,
    context: AttemptContext,
  ): Promise<AttemptResult<Completion>> {
    const { messages, budget, key, signal, account, billed } = trial;
    const learnLimits = (headers: { get(name: string): string | null } | undefined) => {
      const stated = statedLimits(headers);
      if (stated) limiter.learn(stated);
    };
    const send = async (): Promise<AttemptResult<Completion>> => {
      // the run was stopped while this trial waited for the limiter: send nothing
      if (runStop.stopped !== undefined) return { kind: 'halted', error: runStop.stopped, stopsRun: true };
      // the endpoint closed while this trial waited for the limiter: back to the gate, nothing sent
      if (!gate.admits(pass)) return { kind: 'deferred' };
      if (account) {
        const admitted = await account.admit();
        if (!admitted.ok) return { kind: 'not-sent', reason: admitted.reason };
      }
      const remaining = context.remainingMs();
      if (remaining <= 0) return { kind: 'out-of-time' };
      const sentWith = learnedAdaptation(endpoint.identity, options.model);
      const params = buildParams(options, endpoint.identity, budget, sentWith);
      const stream = shouldStream(options.stream, budget) || sentWith.streamOnly === true;
      try {
        const completion = await sendChatCompletion(client, {
          model: options.model,
          messages,
          params,
          signal,
          timeoutMs: Math.min(policy.requestTimeoutMs, remaining),
          stream,
          ...(sentWith.noStreamOptions ? { noStreamOptions: true } : {}),
          ...(options.trialHeader === false ? {} : { trialKey: key }),
          onHeaders: learnLimits,
        });
        markAnswered(endpoint.identity);
        report({ kind: 'answered' });
        return { kind: 'answered', value: completion };
      } catch (error) {
        // a response that brought no answer but carried usage was billed: counted, whatever happens next
        if (error instanceof ProviderFaultError && error.usage) billed.add(error.usage);
        if (error instanceof APIError && error.status !== undefined) markAnswered(endpoint.identity);
        // a wrong endpoint (refused, no such host, TLS) that has never answered: stop now, saying what to check
        const unreachable = hasAnswered(endpoint.identity) ? undefined : unreachableReason(error);
        if (unreachable) {
          const stopped = runStop.stop(`cannot reach ${endpoint.identity}: ${unreachable.what}`, unreachable.hint);
          return { kind: 'halted', error: stopped, stopsRun: true };
        }
        // before the slot is freed, so no trial waiting for the limiter sends another request
        runStop.stopIfFatal(error, signal);
        if (error instanceof APIError) learnLimits(error.headers);
        const failure = classifyFailure(error, signal);
        // a 429 with a short wait (or none) from an endpoint that answers: the limiter's pace absorbs it (told on
        // release, limiter-step.ts), and only this trial backs off
        const paced =
          isRateLimited(error) &&
          (failure.kind !== 'retryable' || (failure.retryAfterMs ?? 0) < GATED_WAIT_MS) &&
          limiter.sinceAnswerMs() < REFUSING_MS;
        if (failure.kind === 'retryable' && failure.scope === 'endpoint' && !paced) {
          const wasOpen = gate.open;
          const gated = report({ kind: 'busy', reason: failure.reason, waitMs: failure.retryAfterMs });
          // the endpoint closed: its backlog goes at half the adaptive limit when it reopens, and ramps
          if (wasOpen && !gate.open) limiter.congested();
          return { kind: 'failed', error, sent: true, gated };
        }
        report(failure.kind === 'aborted' ? { kind: 'none' } : { kind: 'reachable' });
        const lessons = learnFromRejection(error, options, endpoint.identity, options.model, sentWith, params, stream);
        if (lessons) {
          billed.adapted.push(...lessons);
          return { kind: 'resend' };
        }
        return { kind: 'failed', error, sent: true };
      }
    };
    // waiting for the limiter is not the provider's time
    return attemptUnderLease(limiter, { messages, budget, model: options.model }, send, {
      signal,
      refused: trial.refused,
      now: () => clock.now(),
      onQueued: (ms) => {
        trial.waited.ms += ms;
        context.pause(ms);
      },
    });
  }

  function send(
    messages: ChatMessage[],
    request: TrialRequest,
    key: string,
    startedAt: number,
    account: TrialBudget | undefined,
    billed: NoAnswerBill,
    waited: { ms: number },
  ): Promise<RetryOutcome<Completion>> {
    const budget = request.maxOutputTokens;
    const trial: TrialAttempt = {
      messages,
      budget,
      key,
      signal: request.signal,
      account,
      billed,
      waited,
      refused: { before: false },
    };
    return retryLoop((context) => attempt(trial, context), {
      policy,
      rng: lazyRetryRng(key),
      signal: request.signal,
      clock,
      startedAt,
      stopRun: (reason, hint) => runStop.stop(reason, hint),
    });
  }

  const errorResponse = (
    error: string,
    start: number,
    attempts: number,
    stopsRun = false,
    billedNoAnswer?: Usage,
  ): TrialResponse => ({
    kind: 'error',
    error,
    latencyMs: clock.now() - start,
    attempts,
    ...(stopsRun ? { stopsRun } : {}),
    ...(billedNoAnswer ? { billedNoAnswer } : {}),
  });

  const batch = options.batch ? batchAnswers(options.cache?.dir, () => clock.now()) : undefined;

  async function answer(request: TrialRequest): Promise<TrialResponse> {
    const start = clock.now();
    const messages = buildMessages(request.prompt, options.systemRole);
    // the configured parameters (not what this process learned) key the cache
    const params = buildParams(options, endpoint.identity, request.maxOutputTokens);
    const response = await cache.answer(
      request,
      { messages, params },
      async (key) => {
        if (request.signal?.aborted) return errorResponse('aborted by the caller', start, 0);
        if (batch) return batch.miss(key, start);
        if (runStop.stopped !== undefined) return errorResponse(runStop.stopped, start, 0, true);
        const account = budgetStep?.trial(messages, request.maxOutputTokens);
        const billed = new NoAnswerBill();
        const waited = { ms: 0 };
        let outcome: RetryOutcome<Completion> | undefined;
        try {
          outcome = await send(messages, request, key, start, account, billed, waited);
        } finally {
          await account?.settle({
            attempts: outcome?.attempts ?? policy.maxAttempts,
            usage: outcome?.ok ? outcome.value.usage : null,
            answered: outcome?.ok ?? false,
            ...(billed.usage ? { billedNoAnswer: billed.usage } : {}),
          });
        }
        const noAnswer = billed.usage;
        const adapted = billed.adapted.length > 0 ? { adapted: [...billed.adapted] } : {};
        if (!outcome.ok && outcome.notSent) {
          return { kind: 'not-sent', reason: outcome.error, latencyMs: clock.now() - start, attempts: 0 };
        }
        if (!outcome.ok) {
          if (outcome.stopsRun) return errorResponse(outcome.error, start, outcome.attempts, true, noAnswer);
          return {
            ...errorResponse(runStop.redact(outcome.error), start, outcome.attempts, false, noAnswer),
            ...adapted,
          };
        }
        const { attempts } = outcome;
        return {
          kind: 'answer',
          ...outcome.value,
          // the request's time (its retries and backoffs included), not the time it waited for a slot or the gate
          latencyMs: Math.max(0, clock.now() - start - waited.ms),
          cacheHit: false,
          attempts,
          ...(noAnswer ? { billedNoAnswer: noAnswer } : {}),
          ...adapted,
        };
      },
      start,
    );
    return batch ? batch.paid(response) : response;
  }

  return { identity, answer };
}
