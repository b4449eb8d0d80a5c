import fc from 'fast-check';
import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import { describe, expect, it } from 'vitest';
import { PyRandom } from '../../src/rng/index.js';
import { MalformedResponseError, readCompletion } from '../../src/subjects/openai/completion.js';
import { backoffDelay, classifyFailure, DEFAULT_RETRY_POLICY, retryAfterMs } from '../../src/subjects/openai/retry.js';

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
      finishReason: null,
      usage: null,
    });
  });

  it('rejects anything that is not a completion with a retryable error', () => {
    for (const body of ['upstream error', null, {}, { choices: [] }, { choices: [{ message: { content: 3 } }] }]) {
      expect(() => readCompletion(body)).toThrow(MalformedResponseError);
    }
  });
});
