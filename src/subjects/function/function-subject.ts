import { PyRandom } from '../../rng/index.js';
import type { Prices } from '../../schema/spend.js';
import type { SpendGate } from '../../spend/ledger.js';
import { priceFor } from '../../spend/price.js';
import type { ResponseCache } from '../cache/store.js';
import { type LimiterConfig, RateLimiter, sharedLimiter } from '../limiter.js';
import { createBudgetStep, type TrialBudget } from '../openai/budget-step.js';
import { createCacheStep } from '../openai/cache-step.js';
import { attemptUnderLease } from '../openai/limiter-step.js';
import { buildMessages, type ChatMessage } from '../openai/request-body.js';
import {
  type AttemptContext,
  type AttemptResult,
  DEFAULT_RETRY_POLICY,
  type RetryClock,
  type RetryOutcome,
  type RetryPolicy,
  retryLoop,
  systemRetryClock,
} from '../openai/retry.js';
import { RunStop } from '../openai/run-stop.js';
import type { Subject, SubjectIdentity, TrialRequest, TrialResponse } from '../subject.js';
import { type CheckedAnswer, callSubject } from './call.js';
import type { DefinedSubject, SubjectMessage } from './define.js';

export interface FunctionSubjectOptions {
  /** The spec string for the identity (default `function:<id>`; `module:<path>#<export>` when named so). */
  specText?: string;
  /** No cache when absent. */
  cache?: ResponseCache;
  /** The run's spend ledger and price table (as the openai subject's): absent, nothing is asked. */
  spend?: { gate: SpendGate; prices: Prices };
  /** A limiter, or the config of the process-wide limiter of this subject (CEILINGBENCH_CONCURRENCY, _RPM, _TPM). */
  limiter?: RateLimiter | LimiterConfig;
  /** One call's timeout (default 300 000 ms; CEILINGBENCH_REQUEST_TIMEOUT_MS). */
  requestTimeoutMs?: number;
  /** A trial's total time, retries included (default 540 000 ms; CEILINGBENCH_TRIAL_TIMEOUT_MS). */
  trialTimeoutMs?: number;
  retry?: Partial<RetryPolicy>;
  clock?: RetryClock;
  /**
   * The hash of the subject's code (code-hash.ts), for a subject named by its module whose version the user did
   * not pin: it stands for the version in the cache key and the identity.
   */
  codeHash?: string;
}

/** The endpoint a function subject has in the cache, the limiter and the identity: never the function's source. */
export const functionEndpoint = (id: string): string => `function:${id}`;

/** What the identity says of the code: the version the user pinned, else the code's hash, else the default version. */
function versionParameters(defined: DefinedSubject, codeHash: string | undefined): SubjectIdentity['parameters'] {
  if (defined.pinned) return { version: defined.version, pinned: true };
  if (codeHash !== undefined) return { codeHash };
  return { version: defined.version };
}

const lazyRetryRng = (key: string): (() => PyRandom) => {
  let rng: PyRandom | undefined;
  return () => {
    rng ??= new PyRandom(`ceilingbench-retry|${key}`);
    return rng;
  };
};

/**
 * A subject that is the user's function, composed of the openai subject's steps (src/subjects/openai):
 *
 *   cache-step.ts    keyed by `function:<id>`, the version and the output budget, the messages and the trial
 *   retry.ts         a thrown error is retried when the policy calls it transient (timeouts, network errors,
 *                    an OpenAI SDK error or a status 408/409/429/5xx), else the trial is `api`
 *   limiter-step.ts  each call under a slot of the subject's process-wide limiter
 *   budget-step.ts   the run's spend ledger admits the trial before its first call (`not-sent`: outcome
 *                    `budget`) and is told what it spent: the function's usage, else its cap (unknown is not 0)
 *   call.ts          one call under its own signal (Ctrl-C, timeout) and the check of what it returned
 *
 * Like the openai subject it knows no task and never throws: every failure is a `kind: 'error'` response.
 */
export function createFunctionSubject(defined: DefinedSubject, options: FunctionSubjectOptions = {}): Subject {
  const endpoint = functionEndpoint(defined.id);
  const policy: RetryPolicy = {
    ...DEFAULT_RETRY_POLICY,
    ...(options.requestTimeoutMs !== undefined ? { requestTimeoutMs: options.requestTimeoutMs } : {}),
    ...(options.trialTimeoutMs !== undefined ? { maxTotalMs: options.trialTimeoutMs } : {}),
    ...options.retry,
  };
  const clock = options.clock ?? systemRetryClock;
  const limiter = options.limiter instanceof RateLimiter ? options.limiter : sharedLimiter(endpoint, options.limiter);
  const runStop = new RunStop([]);
  const cache = createCacheStep({ cache: options.cache, endpoint, model: defined.id, now: () => clock.now() });
  const identity: SubjectIdentity = {
    spec: options.specText ?? endpoint,
    kind: 'function',
    model: defined.id,
    endpoint,
    parameters: versionParameters(defined, options.codeHash),
  };
  const spend = options.spend;
  const budgetStep = spend
    ? createBudgetStep({ gate: spend.gate, price: priceFor(spend.prices, identity), maxAttempts: policy.maxAttempts })
    : undefined;

  async function attempt(
    messages: ChatMessage[],
    request: TrialRequest,
    key: string,
    number: number,
    context: AttemptContext,
    account: TrialBudget | undefined,
  ): Promise<AttemptResult<CheckedAnswer>> {
    const { signal } = request;
    const send = async (): Promise<AttemptResult<CheckedAnswer>> => {
      if (runStop.stopped !== undefined) return { kind: 'halted', error: runStop.stopped, stopsRun: true };
      if (account) {
        const admitted = await account.admit();
        if (!admitted.ok) return { kind: 'not-sent', reason: admitted.reason };
      }
      const remaining = context.remainingMs();
      if (remaining <= 0) return { kind: 'out-of-time' };
      try {
        const value = await callSubject(defined, {
          messages: messages as SubjectMessage[],
          maxOutputTokens: request.maxOutputTokens,
          trial: {
            key,
            taskId: request.taskId,
            level: request.instance.level,
            index: request.trialIndex,
            attempt: number,
          },
          signal,
          timeoutMs: Math.max(1, Math.min(policy.requestTimeoutMs, remaining)),
        });
        return { kind: 'answered', value };
      } catch (error) {
        runStop.stopIfFatal(error, signal);
        return { kind: 'failed', error, sent: true };
      }
    };
    return attemptUnderLease(limiter, { messages, budget: request.maxOutputTokens }, send, {
      signal,
      now: () => clock.now(),
      onQueued: context.pause,
    });
  }

  const errorResponse = (error: string, start: number, attempts: number, stopsRun = false): TrialResponse => ({
    kind: 'error',
    error,
    latencyMs: clock.now() - start,
    attempts,
    ...(stopsRun ? { stopsRun } : {}),
  });

  async function answer(request: TrialRequest): Promise<TrialResponse> {
    const start = clock.now();
    const messages = buildMessages(request.prompt);
    // the version the user bumps and the budget key the cache with the messages and the trial
    const params = { version: options.codeHash ?? defined.version, max_output_tokens: request.maxOutputTokens };
    return cache.answer(
      request,
      { messages, params },
      async (key) => {
        if (request.signal?.aborted) return errorResponse('aborted by the caller', start, 0);
        if (runStop.stopped !== undefined) return errorResponse(runStop.stopped, start, 0, true);
        const account = budgetStep?.trial(messages, request.maxOutputTokens);
        let calls = 0;
        let outcome: RetryOutcome<CheckedAnswer> | undefined;
        try {
          outcome = await retryLoop((context) => attempt(messages, request, key, ++calls, context, account), {
            policy,
            rng: lazyRetryRng(key),
            signal: request.signal,
            clock,
            startedAt: start,
            stopRun: (reason) => runStop.stop(reason),
          });
        } finally {
          await account?.settle({
            attempts: outcome?.attempts ?? policy.maxAttempts,
            usage: outcome?.ok ? (outcome.value.usage ?? null) : null,
            answered: outcome?.ok ?? false,
          });
        }
        if (!outcome.ok && outcome.notSent) {
          return { kind: 'not-sent', reason: outcome.error, latencyMs: clock.now() - start, attempts: 0 };
        }
        if (!outcome.ok) return errorResponse(outcome.error, start, outcome.attempts, outcome.stopsRun);
        const { text, reasoning, finishReason, usage } = outcome.value;
        return {
          kind: 'answer',
          text,
          ...(reasoning !== undefined ? { reasoning } : {}),
          finishReason: finishReason === undefined ? 'stop' : finishReason,
          usage: usage ?? null,
          latencyMs: clock.now() - start,
          cacheHit: false,
          attempts: outcome.attempts,
        };
      },
      start,
    );
  }

  return { identity, answer };
}
