import fc from 'fast-check';
import { APIConnectionError, APIError } from 'openai';
import { describe, expect, it } from 'vitest';
import { openAiOptionsFromEnv } from '../../src/subjects/openai/env-options.js';
import { errorEnvelope, htmlText, parseGoogleDuration, readErrorBody } from '../../src/subjects/openai/error-body.js';
import { requestHeaders } from '../../src/subjects/openai/headers.js';
import { BASE_URL_HINT, classifyFailure } from '../../src/subjects/openai/retry.js';

/** The APIError the SDK builds from a body, through our client's reading (request.ts ChatClient). */
const sdkError = (status: number, body: string, headers: Record<string, string> = {}) => {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    json = undefined;
  }
  const envelope = errorEnvelope(json, json === undefined ? body : undefined);
  return APIError.generate(
    status,
    (envelope ?? json) as object,
    envelope ? undefined : json === undefined ? body : undefined,
    new Headers(headers),
  );
};

const GEMINI_429 = JSON.stringify([
  {
    error: {
      code: 429,
      message: 'You exceeded your current quota, please check your plan and billing details.',
      status: 'RESOURCE_EXHAUSTED',
      details: [
        { '@type': 'type.googleapis.com/google.rpc.QuotaFailure', violations: [] },
        { '@type': 'type.googleapis.com/google.rpc.Help', links: [] },
        { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '40s' },
      ],
    },
  },
]);

describe('error bodies of every shape', () => {
  it('OpenAI object: message, code, type, param', () => {
    expect(
      readErrorBody({ error: { message: 'bad', type: 'invalid_request_error', param: 'x', code: 'model_not_found' } }),
    ).toEqual({ message: 'bad', type: 'invalid_request_error', param: 'x', code: 'model_not_found' });
  });

  it('Gemini list: the first error, its status and RetryInfo.retryDelay', () => {
    expect(readErrorBody(JSON.parse(GEMINI_429))).toEqual({
      message: 'You exceeded your current quota, please check your plan and billing details.',
      code: 429,
      status: 'RESOURCE_EXHAUSTED',
      retryDelayMs: 40_000,
    });
    expect(readErrorBody([{}, { error: { message: 'second' } }])).toEqual({ message: 'second' });
    expect(readErrorBody([])).toEqual({});
  });

  it('a string, a JSON string, {"error": "…"} (Ollama), FastAPI detail (string and validation list), vLLM', () => {
    expect(readErrorBody(undefined, 'upstream connect error')).toEqual({ message: 'upstream connect error' });
    expect(readErrorBody('model is loading')).toEqual({ message: 'model is loading' });
    expect(readErrorBody({ error: 'model "x" not found, try pulling it first' })).toEqual({
      message: 'model "x" not found, try pulling it first',
    });
    expect(readErrorBody({ detail: 'Not Found' })).toEqual({ message: 'Not Found' });
    expect(readErrorBody({ detail: [{ loc: ['body', 'messages'], msg: 'field required', type: 'missing' }] })).toEqual({
      message: 'body.messages: field required',
    });
    expect(readErrorBody({ object: 'error', message: 'Loading model', type: 'ServiceUnavailable', code: 503 })).toEqual(
      { message: 'Loading model', type: 'ServiceUnavailable', code: 503 },
    );
  });

  it('HTML from a proxy: tags, scripts and styles stripped, entities decoded, one bounded line', () => {
    const page = `<!DOCTYPE html><html><head><title>502 Bad Gateway</title><style>body{color:red}</style></head>
      <body><script>alert(1)</script><center><h1>502 Bad Gateway</h1></center><hr><center>nginx &amp; co</center>
      ${'<p>filler</p>'.repeat(200)}</body></html>`;
    const read = readErrorBody(undefined, page);
    expect(read.message).toMatch(/^502 Bad Gateway 502 Bad Gateway nginx & co filler/);
    expect(read.message).not.toMatch(/[<>]|alert|color/);
    expect(read.message?.length).toBeLessThanOrEqual(301);
    expect(htmlText('a&#33;&#x21;&lt;b&gt;')).toBe('a!!<b>');
  });

  it('empty or unreadable bodies say nothing, never throw (property)', () => {
    expect(readErrorBody(undefined, '')).toEqual({});
    expect(readErrorBody(undefined, undefined)).toEqual({});
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue(), fc.string()), (body) => {
        const read = readErrorBody(typeof body === 'string' ? undefined : body, typeof body === 'string' ? body : '');
        if (read.message !== undefined) {
          expect(read.message.length).toBeLessThanOrEqual(301);
          expect(read.message).not.toMatch(/\n/);
        }
      }),
    );
  });

  it('Google durations', () => {
    expect(parseGoogleDuration('40s')).toBe(40_000);
    expect(parseGoogleDuration('1.5s')).toBe(1_500);
    expect(parseGoogleDuration('0.020s')).toBe(20);
    expect(parseGoogleDuration({ seconds: 3, nanos: 500_000_000 })).toBe(3_500);
    for (const bad of ['40', 'soon', '', null, 4, {}]) expect(parseGoogleDuration(bad)).toBeUndefined();
  });
});

describe('what the SDK error says after our reading', () => {
  it('a Gemini 429 list: the provider’s message and the 40 s it asks for, an endpoint-wide fault', () => {
    const error = sdkError(429, GEMINI_429);
    expect(error.message).toBe('429 You exceeded your current quota, please check your plan and billing details.');
    expect(classifyFailure(error)).toMatchObject({ kind: 'retryable', retryAfterMs: 40_000, scope: 'endpoint' });
  });

  it('every wait is honoured, the longest when several are given', () => {
    expect(classifyFailure(sdkError(429, '{}', { 'retry-after': '7' }))).toMatchObject({ retryAfterMs: 7_000 });
    expect(classifyFailure(sdkError(429, '{}', { 'x-ratelimit-reset-tokens': '6m0s' }))).toMatchObject({
      retryAfterMs: 360_000,
    });
    expect(classifyFailure(sdkError(429, GEMINI_429, { 'retry-after': '2' }))).toMatchObject({ retryAfterMs: 40_000 });
    const date = new Date(Date.now() + 60_000).toUTCString();
    const byDate = classifyFailure(sdkError(503, 'busy', { 'retry-after': date }));
    expect(byDate.kind === 'retryable' && byDate.retryAfterMs).toBeGreaterThan(58_000);
  });

  it('a text or HTML 502/503 keeps the provider’s words; 429/502/503/504/529 and refused connections are endpoint-wide', () => {
    expect(sdkError(503, 'Loading model').message).toBe('503 Loading model');
    expect(sdkError(502, '<html><body><h1>502 Bad Gateway</h1></body></html>').message).toBe('502 502 Bad Gateway');
    for (const status of [429, 502, 503, 504, 529]) {
      expect(classifyFailure(sdkError(status, 'x'))).toMatchObject({ scope: 'endpoint' });
    }
    for (const status of [408, 409, 500])
      expect(classifyFailure(sdkError(status, 'x'))).toMatchObject({ scope: 'request' });
    expect(classifyFailure(new APIConnectionError({ message: 'Connection error.' }))).toMatchObject({
      scope: 'endpoint',
    });
  });

  it('404: model not found stops the run naming the model; any other 404 stops it with the base-URL hint', () => {
    const model = classifyFailure(
      sdkError(
        404,
        JSON.stringify({ error: { message: 'The model `gpt-9` does not exist', code: 'model_not_found' } }),
      ),
    );
    expect(model).toMatchObject({
      kind: 'fatal',
      stopsRun: true,
      reason: expect.stringMatching(/model not found.*gpt-9/),
    });
    for (const body of ['404 page not found', '{"detail":"Not Found"}', '<html><h1>Not Found</h1></html>']) {
      expect(classifyFailure(sdkError(404, body))).toMatchObject({
        kind: 'fatal',
        stopsRun: true,
        hint: BASE_URL_HINT,
      });
    }
  });

  it('a request larger than the per-minute limit is final, not waited for', () => {
    const error = sdkError(
      429,
      JSON.stringify({ error: { message: 'Request too large for gpt-4o on tokens per min (TPM): Limit 30000' } }),
    );
    expect(classifyFailure(error)).toMatchObject({ kind: 'fatal' });
    expect(classifyFailure(error)).not.toHaveProperty('stopsRun');
  });
});

describe('configuration checked once, not per request', () => {
  it('an invalid header name in CEILINGBENCH_HEADERS is a usage error naming it, never showing a value', () => {
    const env = { CEILINGBENCH_HEADERS: JSON.stringify({ 'api key': 'secret-value-123' }) };
    expect(() => openAiOptionsFromEnv(env)).toThrow(/CEILINGBENCH_HEADERS.*'api key' is not a valid header name/);
    try {
      openAiOptionsFromEnv(env);
    } catch (error) {
      expect(String((error as Error).message)).not.toContain('secret-value-123');
    }
    const newline = { CEILINGBENCH_HEADERS: JSON.stringify({ 'X-Title': 'a\nb' }) };
    expect(() => openAiOptionsFromEnv(newline)).toThrow(/line break/);
    expect(
      openAiOptionsFromEnv({ CEILINGBENCH_HEADERS: '{"api-key":"k","HTTP-Referer":"https://x"}' }).headers,
    ).toEqual({
      'api-key': 'k',
      'HTTP-Referer': 'https://x',
    });
  });

  it('headers passed in code are checked when the subject is made (CB_CONFIG)', () => {
    expect(() => requestHeaders({ 'x:y': 'v' })).toThrow(expect.objectContaining({ code: 'CB_CONFIG' }));
    expect(requestHeaders({ 'x-y': 'v' })).toEqual({ 'x-y': 'v' });
  });

  it('CEILINGBENCH_RETRY_MAX_MS is a positive integer', () => {
    expect(openAiOptionsFromEnv({ CEILINGBENCH_RETRY_MAX_MS: '60000' }).retryMaxMs).toBe(60_000);
    expect(() => openAiOptionsFromEnv({ CEILINGBENCH_RETRY_MAX_MS: '-1' })).toThrow(/CEILINGBENCH_RETRY_MAX_MS/);
  });
});
