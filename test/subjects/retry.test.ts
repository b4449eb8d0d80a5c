import { getEventListeners } from 'node:events';
import fc from 'fast-check';
import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import { describe, expect, it } from 'vitest';
import { PyRandom } from '../../src/rng/index.js';
import {
  MalformedResponseError,
  openAiErrorShape,
  ProviderFaultError,
  readCompletion,
} from '../../src/subjects/openai/completion.js';
import {
  backoffDelay,
  classifyFailure,
  DEFAULT_RETRY_POLICY,
  retryAfterMs,
  sleep,
} from '../../src/subjects/openai/retry.js';

const headers = (h: Record<string, string>) => new Headers(h);

describe('retry policy', () => {
  it('reads Retry-After in ms, seconds or as an HTTP date', () => {
    expect(retryAfterMs(headers({ 'retry-after-ms': '250' }))).toBe(250);
    expect(retryAfterMs(headers({ 'retry-after': '1.5' }))).toBe(1500);
    expect(retryAfterMs(headers({ 'retry-after': 'Thu, 01 Jan 1970 00:00:10 GMT' }), 4000)).toBe(6000);
    expect(retryAfterMs(headers({ 'retry-after': 'soon' }))).toBeUndefined();
    expect(retryAfterMs(headers({}))).toBeUndefined();
    expect(retryAfterMs(undefined)).toBeUndefined();
  });

  it('classifies 408/409/429/5xx, connection errors and malformed bodies as retryable, the rest as fatal', () => {
    const status = (s: number, h: Record<string, string> = {}) =>
      APIError.generate(s, { error: { message: 'x' } }, 'x', headers(h));
    for (const s of [408, 409, 429, 500, 502, 503, 529]) expect(classifyFailure(status(s)).kind).toBe('retryable');
    for (const s of [400, 401, 403, 404, 422]) expect(classifyFailure(status(s)).kind).toBe('fatal');
    expect(classifyFailure(status(429, { 'retry-after': '2' }))).toMatchObject({ retryAfterMs: 2000 });
    expect(classifyFailure(new APIConnectionError({ message: 'reset' })).kind).toBe('retryable');
    expect(classifyFailure(new APIConnectionTimeoutError()).kind).toBe('retryable');
    expect(classifyFailure(new SyntaxError('Unexpected end of JSON input')).kind).toBe('retryable');
    expect(classifyFailure(new MalformedResponseError('x')).kind).toBe('retryable');
    expect(classifyFailure(new APIUserAbortError()).kind).toBe('aborted');
    const aborted = new AbortController();
    aborted.abort();
    expect(classifyFailure(new APIConnectionError({ message: 'x' }), aborted.signal).kind).toBe('aborted');
    expect(classifyFailure(new RangeError('bug')).kind).toBe('fatal');
  });

  it('backs off exponentially with seeded jitter in [½, 1] of the cap, deterministically', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 30 }), fc.string(), (retry, seed) => {
        const cap = Math.min(DEFAULT_RETRY_POLICY.maxDelayMs, DEFAULT_RETRY_POLICY.baseDelayMs * 2 ** (retry - 1));
        const delay = backoffDelay(retry, DEFAULT_RETRY_POLICY, new PyRandom(seed));
        expect(delay).toBeGreaterThanOrEqual(cap / 2);
        expect(delay).toBeLessThanOrEqual(cap);
        expect(backoffDelay(retry, DEFAULT_RETRY_POLICY, new PyRandom(seed))).toBe(delay);
      }),
    );
    expect(backoffDelay(3, DEFAULT_RETRY_POLICY, new PyRandom(1), 12_345)).toBe(12_345);
  });
});

describe('readCompletion', () => {
  it('reads text, finish reason and usage, reasoning tokens included', () => {
    expect(
      readCompletion({
        choices: [{ message: { role: 'assistant', content: 'hi' }, finish_reason: 'length' }],
        usage: { prompt_tokens: 3, completion_tokens: 9, completion_tokens_details: { reasoning_tokens: 5 } },
      }),
    ).toEqual({
      text: 'hi',
      finishReason: 'length',
      usage: { promptTokens: 3, completionTokens: 9, reasoningTokens: 5 },
    });
    expect(readCompletion({ choices: [{ message: { content: null }, finish_reason: 'eos' }] })).toEqual({
      text: '',
      finishReason: 'stop',
      rawFinishReason: 'eos',
      usage: null,
    });
  });

  it('rejects anything that is not a completion with a retryable error', () => {
    for (const body of ['upstream error', null, {}, { choices: [{ message: { content: 3 } }] }]) {
      expect(() => readCompletion(body)).toThrow(MalformedResponseError);
    }
  });
});

describe('error bodies outside `error`', () => {
  it('reads a top-level message (vLLM) or detail (FastAPI) into the OpenAI shape; leaves the rest alone', () => {
    const vllm = { object: 'error', message: 'too long', type: 'BadRequestError', param: null, code: 400 };
    expect(openAiErrorShape(vllm)).toEqual({ error: vllm });
    expect(openAiErrorShape({ detail: 'Not Found' })).toEqual({ error: { message: 'Not Found' } });
    const openai = { error: { message: 'x' } };
    expect(openAiErrorShape(openai)).toBe(openai);
    for (const other of [undefined, null, 'text', [1], { detail: [{ msg: 'x' }] }]) {
      expect(openAiErrorShape(other)).toBe(other);
    }
  });

  it("a vLLM error object in a 200 is the provider's fault with its code: a 400 is final, a 5xx retryable", () => {
    const fault = (code: number) => {
      try {
        readCompletion({ object: 'error', message: `boom ${code}`, type: 'X', code });
      } catch (error) {
        return error;
      }
      throw new Error('accepted');
    };
    expect(fault(400)).toBeInstanceOf(ProviderFaultError);
    expect(fault(400)).toMatchObject({ retryable: false, message: expect.stringMatching(/code 400.*boom 400/) });
    expect(fault(503)).toMatchObject({ retryable: true });
    // a top-level message without `object: "error"` in a 200 is just not a completion (retryable)
    expect(() => readCompletion({ message: 'Internal server error' })).toThrow(MalformedResponseError);
  });
});

describe('backoff sleep on a shared signal', () => {
  it('many trials in backoff share one abort listener; an abort wakes them all, a finished sleep drops its share', async () => {
    const shared = new AbortController();
    const short = Array.from({ length: 5 }, () => sleep(1, shared.signal));
    const long = Array.from({ length: 15 }, () => sleep(60_000, shared.signal));
    expect(getEventListeners(shared.signal, 'abort')).toHaveLength(1);
    expect(await Promise.all(short)).toEqual([true, true, true, true, true]);
    expect(getEventListeners(shared.signal, 'abort')).toHaveLength(1);
    shared.abort();
    expect(await Promise.all(long)).toEqual(Array(15).fill(false));
    const alone = new AbortController();
    expect(await sleep(1, alone.signal)).toBe(true);
    expect(getEventListeners(alone.signal, 'abort')).toHaveLength(0);
  });
});
