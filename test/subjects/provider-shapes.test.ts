import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTrial } from '../../src/assays/sweep/run-trial.js';
import { ERROR_CODES, EXIT } from '../../src/errors.js';
import { PyRandom } from '../../src/rng/index.js';
import { RateLimiter } from '../../src/subjects/limiter.js';
import { parseResetDuration, retryAfterMs } from '../../src/subjects/openai/retry.js';
import { fakeStepsPlugin } from '../support/fake-tasks.js';
import {
  type Fault,
  type LoopbackRequest,
  type LoopbackServer,
  startLoopbackServer,
} from '../support/loopback-server.js';
import { FAST_RETRY, loopbackSubject, stepsRequest } from '../support/openai-harness.js';
import { simStepsAnswerer } from '../support/sim-over-http.js';

/**
 * Issue 18, Deliver 2 and 3: every provider shape normalised to one completion, provider faults as `api`,
 * and retries only for what can change. The loopback server answers the fake task exactly, so any trial
 * that is not correct is the provider shape's doing. Each test uses its own model name, which selects the
 * shape below.
 */

let server: LoopbackServer;

const exact = (request: LoopbackRequest): string => simStepsAnswerer(1)(request).text;
const completion = (message: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  id: 'x',
  object: 'chat.completion',
  choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: 'stop' }],
  ...extra,
});

const SHAPES: Record<string, (request: LoopbackRequest, attempt: number) => Fault | undefined> = {
  'content-parts': (r) => ({
    kind: 'body',
    json: completion(
      {
        content: [
          { type: 'thinking', thinking: [{ type: 'text', text: 'let me add' }] },
          { type: 'text', text: exact(r) },
        ],
      },
      { model: 'mistral-large-2411', usage: { prompt_tokens: 10, completion_tokens: 5 } },
    ),
  }),
  refusal: () => ({ kind: 'body', json: completion({ content: null, refusal: "I can't help with that." }) }),
  'finish-error': () => ({
    kind: 'body',
    json: {
      choices: [
        { message: { role: 'assistant', content: '' }, finish_reason: 'error', error: { message: 'upstream 502' } },
      ],
    },
  }),
  'finish-error-once': (r, attempt) =>
    attempt === 1
      ? { kind: 'body', json: { choices: [{ message: { content: '' }, finish_reason: 'error' }] } }
      : { kind: 'body', json: completion({ content: exact(r) }) },
  'content-filter': () => ({
    kind: 'body',
    json: { choices: [{ message: { content: '' }, finish_reason: 'content_filter' }] },
  }),
  'no-usage': (r) => ({ kind: 'body', json: completion({ content: exact(r) }, { model: 'served/exact-1' }) }),
  'partial-usage': (r) => ({ kind: 'body', json: completion({ content: exact(r) }, { usage: { total_tokens: 9 } }) }),
  'error-in-200': () => ({
    kind: 'body',
    json: { error: { code: 400, message: 'Provider returned error: context length exceeded by 12 tokens' } },
  }),
  'error-in-200-502': (r, attempt) =>
    attempt === 1
      ? { kind: 'body', json: { error: { code: 502, message: 'upstream overloaded' } } }
      : { kind: 'body', json: completion({ content: exact(r) }) },
  sse: () => ({ kind: 'sse' }),
  'vllm-context': () => ({
    kind: 'status',
    status: 400,
    body: {
      object: 'error',
      message:
        "This model's maximum context length is 8192 tokens. However, you requested 9000 tokens (808 in the messages, 8192 in the completion).",
      type: 'BadRequestError',
      param: null,
      code: 400,
    },
  }),
  'vllm-overloaded-once': (_r, attempt) =>
    attempt === 1
      ? {
          kind: 'status',
          status: 503,
          body: { object: 'error', message: 'engine busy', type: 'ServiceUnavailableError', code: 503 },
        }
      : undefined,
  'fastapi-detail': () => ({ kind: 'status', status: 404, body: { detail: 'Model loop-x not found' } }),
  openrouter: (r) => ({
    kind: 'body',
    json: completion(
      { content: exact(r) },
      {
        model: 'anthropic/claude-3.7-sonnet',
        provider: 'Amazon Bedrock',
        usage: {
          prompt_tokens: 120,
          completion_tokens: 30,
          total_tokens: 150,
          cost: 0.00081,
          prompt_tokens_details: { cached_tokens: 96 },
          completion_tokens_details: { reasoning_tokens: 0 },
        },
      },
    ),
  }),
  'openrouter-odd-cost': (r) => ({
    kind: 'body',
    json: completion(
      { content: exact(r) },
      { provider: 42, usage: { prompt_tokens: 12, completion_tokens: 3, cost: 'n/a', prompt_tokens_details: null } },
    ),
  }),
  quota: () => ({
    kind: 'status',
    status: 429,
    body: {
      error: {
        message: 'You exceeded your current quota, please check your plan and billing details.',
        type: 'insufficient_quota',
        code: 'insufficient_quota',
      },
    },
  }),
  unauthorized: () => ({ kind: 'status', status: 401, message: 'Incorrect API key provided' }),
  'bad-request': () => ({ kind: 'status', status: 400, message: 'messages: too long' }),
  'reset-header': (_r, attempt) =>
    attempt === 1
      ? { kind: 'status', status: 429, message: 'rate limited', headers: { 'x-ratelimit-reset-tokens': '30ms' } }
      : undefined,
};

beforeAll(async () => {
  server = await startLoopbackServer({
    answer: simStepsAnswerer(1),
    fault: (request, { attempt }) => SHAPES[request.model]?.(request, attempt),
  });
});
afterAll(() => server.close());

const requestsOf = (model: string) => server.log.filter((r) => r.model === model).length;

async function trial(model: string, seed = 1, extra: Parameters<typeof loopbackSubject>[1] = {}) {
  const subject = loopbackSubject(server.baseURL, { model, ...extra });
  const instance = fakeStepsPlugin.generate(new PyRandom(seed), 3, { seed });
  return runTrial(subject, { task: fakeStepsPlugin, instance, variant: 'default', trialIndex: 0 });
}

describe('one normalised completion', () => {
  it('content as an array of parts: text parts graded, thinking parts set aside; served model recorded', async () => {
    const record = await trial('content-parts');
    expect(record.outcome.kind).toBe('correct');
    expect(record.attempts).toBe(1);
    expect(record.servedModel).toBe('mistral-large-2411');
    expect(record.reasoning).toMatchObject({ sources: ['provider'] });
    expect(record.usage).toEqual({ promptTokens: 10, completionTokens: 5 });
  });

  it('a refusal is the model declining: graded as no answer (not api), flagged with its text', async () => {
    const record = await trial('refusal');
    expect(record.outcome.kind).toBe('format');
    expect(record.refusal).toEqual({ text: "I can't help with that." });
    expect(record.outcome.issues).toContain("refusal: I can't help with that.");
    expect(record.attempts).toBe(1);
  });

  it("finish_reason 'error' is a provider fault: api (missing data), retried because it can change", async () => {
    const record = await trial('finish-error');
    expect(record.outcome.kind).toBe('api');
    expect(record.outcome.issues[0]).toMatch(/finish_reason 'error': upstream 502/);
    expect(record.attempts).toBe(FAST_RETRY.maxAttempts);
    const recovered = await trial('finish-error-once');
    expect(recovered.outcome.kind).toBe('correct');
    expect(recovered.attempts).toBe(2);
  });

  it("finish_reason 'content_filter' is the provider's moderation: api, not a model failure", async () => {
    const record = await trial('content-filter');
    expect(record.outcome.kind).toBe('api');
    expect(record.finishReason).toBe('content_filter');
  });

  it('missing or partial usage is unknown (null), not 0', async () => {
    const none = await trial('no-usage');
    expect(none.outcome.kind).toBe('correct');
    expect(none.usage).toBeNull();
    expect(none.servedModel).toBe('served/exact-1');
    const partial = await trial('partial-usage');
    expect(partial.outcome.kind).toBe('correct');
    expect(partial.usage).toBeNull();
  });
});

describe("error bodies in the provider's words", () => {
  it("vLLM's top-level error message reaches the api issue (not '400 status code (no body)')", async () => {
    const record = await trial('vllm-context');
    expect(record.outcome.kind).toBe('api');
    expect(record.outcome.issues[0]).toMatch(/^HTTP 400: 400 This model's maximum context length is 8192 tokens/);
    expect(record.outcome.issues[0]).not.toMatch(/no body/);
    expect(record.attempts).toBe(1);
  });

  it('a retryable vLLM status is still retried, and FastAPI-style `detail` is read too', async () => {
    const recovered = await trial('vllm-overloaded-once');
    expect(recovered.outcome.kind).toBe('correct');
    expect(recovered.attempts).toBe(2);
    const missing = await trial('fastapi-detail');
    expect(missing.outcome.kind).toBe('api');
    expect(missing.outcome.issues[0]).toMatch(/HTTP 404: 404 Model loop-x not found/);
  });
});

describe('OpenRouter identity and cost', () => {
  it('records the upstream provider, usage.cost and the cached prompt tokens', async () => {
    const record = await trial('openrouter');
    expect(record.outcome.kind).toBe('correct');
    expect(record.servedModel).toBe('anthropic/claude-3.7-sonnet');
    expect(record.servedProvider).toBe('Amazon Bedrock');
    expect(record.usage).toEqual({
      promptTokens: 120,
      completionTokens: 30,
      reasoningTokens: 0,
      cachedPromptTokens: 96,
      costUsd: 0.00081,
    });
  });

  it('an unreadable provider or cost is left out; the token counts stay', async () => {
    const record = await trial('openrouter-odd-cost');
    expect(record.outcome.kind).toBe('correct');
    expect(record).not.toHaveProperty('servedProvider');
    expect(record.usage).toEqual({ promptTokens: 12, completionTokens: 3 });
  });

  it('a provider without these fields records none of them (existing records unchanged)', async () => {
    const record = await trial('content-parts');
    expect(record).not.toHaveProperty('servedProvider');
    expect(record.usage).toEqual({ promptTokens: 10, completionTokens: 5 });
  });
});

describe('retry only what can change', () => {
  it("a deterministic error in a 200 fails fast with the provider's message", async () => {
    const before = requestsOf('error-in-200');
    const record = await trial('error-in-200');
    expect(record.outcome.kind).toBe('api');
    expect(record.outcome.issues[0]).toMatch(/code 400.*context length exceeded by 12 tokens/);
    expect(requestsOf('error-in-200') - before).toBe(1);
    const transient = await trial('error-in-200-502');
    expect(transient.outcome.kind).toBe('correct');
    expect(transient.attempts).toBe(2);
  });

  it('an event-stream body (stream-only endpoint) is read as the answer it carries, once', async () => {
    const record = await trial('sse');
    expect(record.outcome.kind).not.toBe('api'); // 'hi' is the model's (wrong) answer; streams: streaming.test.ts
    expect(record.attempts).toBe(1);
    expect(requestsOf('sse')).toBe(1);
  });

  it('a permanent 400 is not retried and does not stop the run', async () => {
    const subject = loopbackSubject(server.baseURL, { model: 'bad-request' });
    const first = await subject.answer(stepsRequest(2, 1, 0));
    const second = await subject.answer(stepsRequest(2, 2, 0));
    expect(first).toMatchObject({ kind: 'error', attempts: 1 });
    expect(second).toMatchObject({ kind: 'error', attempts: 1 });
    expect(first.kind === 'error' && first.stopsRun).toBeFalsy();
  });

  it('insufficient_quota stops the run after at most `concurrency` requests, with one message', async () => {
    const concurrency = 3;
    const subject = loopbackSubject(server.baseURL, { model: 'quota', limiter: new RateLimiter({ concurrency }) });
    const responses = await Promise.all(Array.from({ length: 12 }, (_, i) => subject.answer(stepsRequest(2, i, 0))));
    expect(requestsOf('quota')).toBeLessThanOrEqual(concurrency);
    for (const response of responses) {
      expect(response.kind).toBe('error');
      if (response.kind !== 'error') continue;
      expect(response.stopsRun).toBe(true);
      expect(response.error).toMatch(/^run stopped \(CB_PROVIDER_FATAL\): no quota left \(insufficient_quota\)/);
    }
    expect(new Set(responses.map((r) => (r.kind === 'error' ? r.error : ''))).size).toBe(1);
    const later = await subject.answer(stepsRequest(2, 99, 0));
    expect(later).toMatchObject({ kind: 'error', attempts: 0, stopsRun: true });
    expect(requestsOf('quota')).toBeLessThanOrEqual(concurrency);
    expect(ERROR_CODES.CB_PROVIDER_FATAL.exit).toBe(EXIT.providerFatal);
    expect(EXIT.providerFatal).toBe(3);
  });

  it('a 401 stops the run: the next trial fails as api without a request', async () => {
    const subject = loopbackSubject(server.baseURL, { model: 'unauthorized' });
    const first = await subject.answer(stepsRequest(2, 1, 0));
    expect(first).toMatchObject({ kind: 'error', attempts: 1, stopsRun: true });
    const record = await runTrial(subject, {
      task: fakeStepsPlugin,
      instance: fakeStepsPlugin.generate(new PyRandom(2), 2, { seed: 2 }),
      variant: 'default',
      trialIndex: 0,
    });
    expect(record.outcome.kind).toBe('api');
    expect(record.attempts).toBe(0);
    expect(record.outcome.issues[0]).toMatch(
      /^run stopped \(CB_PROVIDER_FATAL\): the endpoint refused the credentials/,
    );
    expect(requestsOf('unauthorized')).toBe(1);
  });

  it('x-ratelimit-reset-tokens is honoured (a 60 s exponential backoff would blow the 5 s trial budget)', async () => {
    const record = await trial('reset-header', 1, {
      retry: { ...FAST_RETRY, baseDelayMs: 60_000, maxDelayMs: 60_000 },
    });
    expect(record.outcome.kind).toBe('correct');
    expect(record.attempts).toBe(2);
  });

  it('reads reset durations as providers write them', () => {
    expect(parseResetDuration('20s')).toBe(20_000);
    expect(parseResetDuration('1m30s')).toBe(90_000);
    expect(parseResetDuration('6m0s')).toBe(360_000);
    expect(parseResetDuration('250ms')).toBe(250);
    expect(parseResetDuration('0.5s')).toBe(500);
    expect(parseResetDuration('1h2m')).toBe(3_720_000);
    expect(parseResetDuration('7')).toBe(7_000);
    expect(parseResetDuration('soon')).toBeUndefined();
    expect(parseResetDuration('')).toBeUndefined();
    const headers = (h: Record<string, string>) => ({ get: (name: string) => h[name] ?? null });
    expect(retryAfterMs(headers({ 'x-ratelimit-reset-requests': '1s', 'x-ratelimit-reset-tokens': '1m' }))).toBe(
      60_000,
    );
    expect(retryAfterMs(headers({ 'retry-after-ms': '5', 'x-ratelimit-reset-tokens': '1m' }))).toBe(5);
    expect(retryAfterMs(headers({}))).toBeUndefined();
  });
});
