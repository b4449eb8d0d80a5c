import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTrial } from '../../src/assays/sweep/run-trial.js';
import { UsageError } from '../../src/errors.js';
import { PyRandom } from '../../src/rng/index.js';
import { createSubject, openAiOptionsFromEnv } from '../../src/subjects/index.js';
import { STREAM_AUTO_ABOVE } from '../../src/subjects/openai/stream-mode.js';
import { fakeStepsPlugin } from '../support/fake-tasks.js';
import {
  type Fault,
  type LoopbackRequest,
  type LoopbackServer,
  startLoopbackServer,
} from '../support/loopback-server.js';
import { FAST_RETRY, loopbackSubject, SENTINEL_API_KEY, stepsRequest, tempDir } from '../support/openai-harness.js';
import { simStepsAnswerer } from '../support/sim-over-http.js';

/**
 * Issue 18: event streams and one timeout over the whole response. The server answers the fake task exactly
 * (with a reasoning channel), and each test's model name selects its behaviour below, so a trial that is not
 * correct is the transport's doing. Timeouts are short here, and the tests assert outcomes and attempts, never
 * elapsed time: a trickled body takes ≥ 10 × 40 ms by construction, against a 150 ms timeout.
 */

const exact = simStepsAnswerer(1);
const SHORT_TIMEOUT = { ...FAST_RETRY, requestTimeoutMs: 150 };
const TRICKLE: Fault = { kind: 'trickle', pieces: 10, intervalMs: 40 };

const BEHAVIOUR: Record<string, (request: LoopbackRequest, attempt: number) => Fault | undefined> = {
  'stream-only': () => ({ kind: 'sse', answer: true }),
  'stream-only-no-usage': () => ({ kind: 'sse', answer: true, usage: false }),
  'stream-legacy': () => ({ kind: 'sse' }),
  'trickle-once': (_r, attempt) => (attempt === 1 ? TRICKLE : undefined),
  'trickle-always': () => TRICKLE,
  'trickle-fast': () => ({ kind: 'trickle', pieces: 3, intervalMs: 5 }),
  'stream-cut': () => ({
    kind: 'sse',
    raw: 'data: {"choices":[{"index":0,"delta":{"content":"STEPS: 1"},"finish_reason":null}]}\n\n',
  }),
  'stream-error-once': (_r, attempt) =>
    attempt === 1
      ? {
          kind: 'sse',
          events: [
            '{"choices":[{"index":0,"delta":{"content":"STE"},"finish_reason":null}]}',
            '{"error":{"code":502,"message":"upstream provider disconnected"},"choices":[{"index":0,"delta":{"content":""},"finish_reason":"error"}]}',
          ],
        }
      : { kind: 'sse', answer: true },
};

let server: LoopbackServer;
const seen: LoopbackRequest[] = [];
const cleanups: (() => Promise<void>)[] = [];
beforeAll(async () => {
  server = await startLoopbackServer({
    answer: (request) => {
      seen.push(request);
      return { ...exact(request), reasoningContent: 'adding up', reasoningTokens: 4 };
    },
    fault: (request, { attempt }) => BEHAVIOUR[request.model]?.(request, attempt),
  });
});
afterAll(async () => {
  await server.close();
  for (const cleanup of cleanups) await cleanup();
});

const logOf = (model: string) => server.log.filter((r) => r.model === model);
const bodiesOf = (model: string) => seen.filter((r) => r.model === model).map((r) => r.body);

async function trial(model: string, extra: Parameters<typeof loopbackSubject>[1] = {}, seed = 1) {
  const subject = loopbackSubject(server.baseURL, { model, ...extra });
  const instance = fakeStepsPlugin.generate(new PyRandom(seed), 3, { seed });
  return runTrial(subject, { task: fakeStepsPlugin, instance, variant: 'default', trialIndex: 0 });
}

describe('a stream-only endpoint (an event stream to a non-streaming request)', () => {
  it('is read into the same completion: answer, reasoning, finish reason and the usage chunk', async () => {
    const record = await trial('stream-only');
    expect(record.outcome.kind).toBe('correct');
    expect(record.attempts).toBe(1);
    expect(record.finishReason).toBe('stop');
    expect(record.reasoning).toMatchObject({ chars: 'adding up'.length, sources: ['provider'] });
    expect(record.usage).toEqual({
      promptTokens: expect.any(Number),
      completionTokens: expect.any(Number),
      reasoningTokens: 4,
    });
    expect(record.servedModel).toBe('stream-only');
    expect(bodiesOf('stream-only')[0]).not.toHaveProperty('stream');
  });

  it('without a usage chunk the usage is null (unknown), not 0', async () => {
    const record = await trial('stream-only-no-usage');
    expect(record.outcome.kind).toBe('correct');
    expect(record.usage).toBeNull();
  });

  it('a stream without a finish reason is graded as the text it carried (not api)', async () => {
    const record = await trial('stream-legacy');
    expect(record.outcome.kind).not.toBe('api');
    expect(record.finishReason).toBeNull();
    expect(logOf('stream-legacy')).toHaveLength(1);
  });

  it('a stream cut off before [DONE] and without a finish reason is a retryable fault: api, never graded', async () => {
    const record = await trial('stream-cut');
    expect(record.outcome.kind).toBe('api');
    expect(record.outcome.issues[0]).toMatch(/event stream ended before \[DONE\]/);
    expect(record.attempts).toBe(FAST_RETRY.maxAttempts);
  });

  it('an error event mid-stream (OpenRouter) is the provider fault it says: a 502 is retried', async () => {
    const record = await trial('stream-error-once');
    expect(record.outcome.kind).toBe('correct');
    expect(record.attempts).toBe(2);
  });
});

describe('streaming requests (CEILINGBENCH_STREAM)', () => {
  it('always: sends stream with include_usage, records the same answer and usage, and keys the cache the same', async () => {
    const dir = await tempDir('cb-stream-');
    cleanups.push(dir.remove);
    const request = stepsRequest(3, 5, 0);
    const streamed = await loopbackSubject(server.baseURL, {
      model: 'plain-s',
      stream: 'always',
      cacheDir: dir.path,
    }).answer(request);
    const plain = await loopbackSubject(server.baseURL, { model: 'plain-s' }).answer(request);
    expect(streamed).toMatchObject({ kind: 'answer', attempts: 1, finishReason: 'stop' });
    expect(bodiesOf('plain-s')[0]).toMatchObject({ stream: true, stream_options: { include_usage: true } });
    expect(bodiesOf('plain-s')[1]).not.toHaveProperty('stream');
    expect(logOf('plain-s').map((r) => r.stream ?? false)).toEqual([true, false]);
    if (streamed.kind !== 'answer' || plain.kind !== 'answer') return;
    expect(streamed.text).toBe(plain.text);
    expect(streamed.reasoning).toBe(plain.reasoning);
    expect(streamed.usage).toEqual(plain.usage);
    // the streaming choice is a transport detail: a non-streaming run finds the streamed answer in the cache
    const again = await loopbackSubject(server.baseURL, {
      model: 'plain-s',
      stream: 'never',
      cacheDir: dir.path,
    }).answer(request);
    expect(again).toMatchObject({ kind: 'answer', cacheHit: true, attempts: 0, text: streamed.text });
    expect(again.kind === 'answer' && again.cacheKey).toBe(streamed.cacheKey);
    expect(logOf('plain-s')).toHaveLength(2);
  });

  it(`auto: streams only when the output budget is above ${STREAM_AUTO_ABOVE}; never (the default) never does`, async () => {
    const auto = loopbackSubject(server.baseURL, { model: 'plain-auto', stream: 'auto' });
    await auto.answer(stepsRequest(3, 1, 0, STREAM_AUTO_ABOVE));
    await auto.answer(stepsRequest(3, 1, 0, STREAM_AUTO_ABOVE + 1));
    await loopbackSubject(server.baseURL, { model: 'plain-auto' }).answer(stepsRequest(3, 2, 0, 32_768));
    expect(bodiesOf('plain-auto').map((b) => b.stream ?? false)).toEqual([false, true, false]);
  });

  it('a streamed body that trickles past the timeout is timed out and retried', async () => {
    const record = await trial('trickle-once', { stream: 'always', retry: SHORT_TIMEOUT });
    expect(record.outcome.kind).toBe('correct');
    expect(record.attempts).toBe(2);
    expect(logOf('trickle-once').map((r) => [r.outcome, r.stream])).toEqual([
      ['trickle', true],
      ['answered', true],
    ]);
  });
});

describe('one timeout over headers and body', () => {
  it('a body that trickles past the request timeout is timed out and retried; the retry answers', async () => {
    const before = logOf('trickle-once').length;
    const record = await trial('trickle-once', { retry: SHORT_TIMEOUT }, 2);
    expect(record.outcome.kind).toBe('correct');
    expect(record.attempts).toBe(2);
    expect(
      logOf('trickle-once')
        .slice(before)
        .map((r) => r.outcome),
    ).toEqual(['trickle', 'answered']);
    expect(logOf('trickle-once').filter((r) => r.repeat)).toEqual([]); // the timed-out body was never counted as answered
  });

  it('a body that always trickles past it: api after the bounded attempts, saying it timed out', async () => {
    const record = await trial('trickle-always', { retry: SHORT_TIMEOUT });
    expect(record.outcome.kind).toBe('api');
    expect(record.outcome.issues[0]).toMatch(/request timed out after 150 ms \(headers and body\).*gave up after 5/);
    expect(record.attempts).toBe(FAST_RETRY.maxAttempts);
    expect(logOf('trickle-always')).toHaveLength(FAST_RETRY.maxAttempts);
  });

  it('a body that trickles in within the timeout is read whole', async () => {
    const record = await trial('trickle-fast');
    expect(record.outcome.kind).toBe('correct');
    expect(record.attempts).toBe(1);
  });

  it('CEILINGBENCH_REQUEST_TIMEOUT_MS and _TRIAL_TIMEOUT_MS set the policy, and survive a `retry` option in code', async () => {
    const env = {
      OPENAI_BASE_URL: server.baseURL,
      OPENAI_API_KEY: SENTINEL_API_KEY,
      CEILINGBENCH_CACHE_MODE: 'off',
      CEILINGBENCH_REQUEST_TIMEOUT_MS: '150',
    };
    const retry = { maxAttempts: 2, baseDelayMs: 2, maxDelayMs: 2 };
    const timed = await createSubject('openai:trickle-always', { env, openai: { retry, limiter: { concurrency: 4 } } });
    const response = await timed.answer(stepsRequest(3, 9, 0));
    expect(response).toMatchObject({ kind: 'error', attempts: 2 });
    if (response.kind === 'error') expect(response.error).toMatch(/timed out after 150 ms/);
    // the trial's total caps each request too: with 150 ms in all, the first timeout spends the whole trial
    const trialEnv = { ...env, CEILINGBENCH_REQUEST_TIMEOUT_MS: '60000', CEILINGBENCH_TRIAL_TIMEOUT_MS: '150' };
    const bounded = await createSubject('openai:trickle-always', { env: trialEnv, openai: { retry } });
    const spent = await bounded.answer(stepsRequest(3, 10, 0));
    expect(spent).toMatchObject({ kind: 'error', attempts: 1 });
    if (spent.kind === 'error') expect(spent.error).toMatch(/timed out.*(time budget|exceeds)/);
    // an option in code overrides the environment
    const fromCode = await createSubject('openai:trickle-fast', {
      env: { ...env, CEILINGBENCH_REQUEST_TIMEOUT_MS: '1' },
      openai: { requestTimeoutMs: 5_000, retry },
    });
    expect(await fromCode.answer(stepsRequest(3, 11, 0))).toMatchObject({ kind: 'answer', attempts: 1 });
  });
});

describe('environment', () => {
  it('reads CEILINGBENCH_STREAM and the timeouts, and rejects bad values by name', () => {
    expect(
      openAiOptionsFromEnv({
        CEILINGBENCH_STREAM: 'Auto',
        CEILINGBENCH_REQUEST_TIMEOUT_MS: '120000',
        CEILINGBENCH_TRIAL_TIMEOUT_MS: '500000',
      }),
    ).toEqual({ stream: 'auto', requestTimeoutMs: 120_000, trialTimeoutMs: 500_000 });
    expect(() => openAiOptionsFromEnv({ CEILINGBENCH_STREAM: 'sometimes' })).toThrow(/CEILINGBENCH_STREAM='sometimes'/);
    expect(() => openAiOptionsFromEnv({ CEILINGBENCH_REQUEST_TIMEOUT_MS: '0' })).toThrow(UsageError);
    expect(() => openAiOptionsFromEnv({ CEILINGBENCH_TRIAL_TIMEOUT_MS: '1.5' })).toThrow(
      /CEILINGBENCH_TRIAL_TIMEOUT_MS/,
    );
  });
});
