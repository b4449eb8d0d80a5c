import { APIError } from 'openai';
import { describe, expect, it } from 'vitest';
import { LimiterAbortError } from '../../src/errors.js';
import { PyRandom } from '../../src/rng/index.js';
import {
  type AttemptContext,
  type AttemptResult,
  type RetryPolicy,
  retryLoop,
} from '../../src/subjects/openai/retry.js';
import { fakeClock } from './fake-clock.js';

const POLICY: RetryPolicy = {
  maxAttempts: 5,
  baseDelayMs: 100,
  maxDelayMs: 1_000,
  maxTotalMs: 10_000,
  requestTimeoutMs: 500,
};
const status = (s: number, headers: Record<string, string> = {}) =>
  APIError.generate(s, { error: { message: `injected ${s}` } }, `injected ${s}`, new Headers(headers));

/** An attempt function that plays `script` (the last entry repeated) and counts its calls. */
function scripted(script: Array<AttemptResult<string> | ((context: AttemptContext) => AttemptResult<string>)>) {
  let calls = 0;
  const attempt = async (context: AttemptContext) => {
    const step = script[Math.min(calls++, script.length - 1)];
    return typeof step === 'function' ? step(context) : step;
  };
  return { attempt, calls: () => calls };
}

const run = (
  script: Parameters<typeof scripted>[0],
  extra: { policy?: Partial<RetryPolicy>; signal?: AbortSignal; clock?: ReturnType<typeof fakeClock> } = {},
) => {
  const clock = extra.clock ?? fakeClock();
  const stops: string[] = [];
  const { attempt, calls } = scripted(script);
  const outcome = retryLoop(attempt, {
    policy: { ...POLICY, ...extra.policy },
    rng: () => new PyRandom('retry-loop-test'),
    clock,
    signal: extra.signal,
    stopRun: (reason) => {
      stops.push(reason);
      return `stopped: ${reason}`;
    },
  });
  return { outcome, clock, calls, stops };
};

const answered: AttemptResult<string> = { kind: 'answered', value: 'ok' };
const failed = (error: unknown, sent = true): AttemptResult<string> => ({ kind: 'failed', error, sent });

describe('the retry loop (deterministic clock)', () => {
  it('answers at once without sleeping', async () => {
    const { outcome, clock } = run([answered]);
    expect(await outcome).toEqual({ ok: true, value: 'ok', attempts: 1 });
    expect(clock.sleeps).toEqual([]);
  });

  it('retries retryable failures with exponential, jittered backoff, then answers', async () => {
    const { outcome, clock, calls } = run([failed(status(500)), failed(status(503)), failed(status(429)), answered]);
    expect(await outcome).toMatchObject({ ok: true, attempts: 4 });
    expect(calls()).toBe(4);
    expect(clock.sleeps).toHaveLength(3);
    clock.sleeps.forEach((ms, i) => {
      expect(ms).toBeGreaterThanOrEqual(50 * 2 ** i);
      expect(ms).toBeLessThanOrEqual(100 * 2 ** i);
    });
  });

  it('waits exactly the Retry-After the server asks for, over its own backoff', async () => {
    const { outcome, clock } = run([failed(status(429, { 'retry-after': '0.2' })), answered]);
    expect(await outcome).toMatchObject({ ok: true, attempts: 2 });
    expect(clock.sleeps).toEqual([200]);
  });

  it('gives up at once, without waiting, when the next backoff would pass the time budget', async () => {
    const { outcome, clock } = run([failed(status(429, { 'retry-after': '3600' }))]);
    const result = await outcome;
    expect(result).toMatchObject({ ok: false, attempts: 1 });
    if (!result.ok)
      expect(result.error).toMatch(/^HTTP 429: .*; next retry \(in 3600000 ms\) exceeds the time budget$/);
    expect(clock.sleeps).toEqual([]);
  });

  it('stops within the total time budget even when attempts remain', async () => {
    // every attempt takes 50 ms of (fake) time and fails; 300 ms in total
    const clock = fakeClock();
    // as the transport does: no request once the budget is spent, and none longer than what is left of it
    const slow = (context: AttemptContext): AttemptResult<string> => {
      if (context.remainingMs() <= 0) return { kind: 'out-of-time' };
      clock.advance(Math.min(50, context.remainingMs()));
      return failed(status(500));
    };
    const { outcome } = run([slow], {
      clock,
      policy: { maxAttempts: 100, baseDelayMs: 2, maxDelayMs: 20, maxTotalMs: 300 },
    });
    const result = await outcome;
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatch(/exceeds the time budget|time budget exhausted/);
    expect(result.attempts).toBeLessThan(10);
    expect(clock.now() - 1_000).toBeLessThanOrEqual(300);
  });

  it('gives up after maxAttempts, never sleeping after the last', async () => {
    const { outcome, clock, calls } = run([failed(status(502))]);
    const result = await outcome;
    expect(result).toMatchObject({ ok: false, attempts: 5 });
    if (!result.ok) expect(result.error).toMatch(/^HTTP 502: .* \(gave up after 5 attempts\)$/);
    expect(calls()).toBe(5);
    expect(clock.sleeps).toHaveLength(4);
  });

  it('does not retry a fatal failure', async () => {
    const { outcome, calls } = run([failed(status(400))]);
    expect(await outcome).toMatchObject({ ok: false, attempts: 1, error: expect.stringMatching(/^HTTP 400/) });
    expect(calls()).toBe(1);
  });

  it('a refusal that stops the run goes through stopRun, once, and is not retried', async () => {
    const { outcome, stops, calls } = run([failed(status(401))]);
    const result = await outcome;
    expect(result).toMatchObject({ ok: false, attempts: 1, stopsRun: true });
    expect(stops).toHaveLength(1);
    if (!result.ok) expect(result.error).toBe(`stopped: ${stops[0]}`);
    expect(calls()).toBe(1);
  });

  it('a resend (a learned parameter) is counted as a request but not as a retry', async () => {
    const { outcome, calls } = run([{ kind: 'resend' }, failed(status(500)), { kind: 'resend' }, failed(status(500))], {
      policy: { maxAttempts: 2 },
    });
    expect(await outcome).toMatchObject({ ok: false, attempts: 4 });
    expect(calls()).toBe(4);
  });

  it('halts without a request: a stopped run, a spent time budget, a request that never left', async () => {
    expect(await run([{ kind: 'halted', error: 'stopped', stopsRun: true }]).outcome).toEqual({
      ok: false,
      error: 'stopped',
      attempts: 0,
      stopsRun: true,
    });
    expect(await run([failed(status(500)), { kind: 'out-of-time' }]).outcome).toEqual({
      ok: false,
      error: expect.stringMatching(/^HTTP 500: .*injected 500; trial time budget exhausted$/),
      attempts: 1,
    });
    expect(await run([failed(new LimiterAbortError(), false)]).outcome).toEqual({
      ok: false,
      error: 'aborted by the caller',
      attempts: 0,
    });
  });

  it('time paused (queued in the limiter) does not count against the budget', async () => {
    const clock = fakeClock();
    const queued = (context: AttemptContext) => {
      clock.advance(1_000);
      context.pause(1_000);
      return failed(status(500));
    };
    const { outcome } = run([queued, queued, answered], { clock, policy: { maxTotalMs: 500 } });
    expect(await outcome).toMatchObject({ ok: true, attempts: 3 });
  });

  it('an abort during a backoff ends the loop as aborted', async () => {
    const controller = new AbortController();
    const abortThenFail = () => {
      controller.abort();
      return failed(status(500));
    };
    const { outcome } = run([abortThenFail], { signal: controller.signal });
    expect(await outcome).toMatchObject({ ok: false, error: 'aborted by the caller', attempts: 1 });
  });
});
