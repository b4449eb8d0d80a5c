import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { openAiOptionsFromEnv } from '../../src/subjects/openai/env-options.js';
import {
  type Fault,
  type LoopbackRequest,
  type LoopbackServer,
  startLoopbackServer,
} from '../support/loopback-server.js';
import { filesContaining, loopbackSubject, stepsRequest, tempDir } from '../support/openai-harness.js';
import { simStepsAnswerer } from '../support/sim-over-http.js';

/**
 * Issue 18, Deliver 1: o-series models with no configuration (the rejected defaults are learned from the
 * provider's 400 once per endpoint+model), every parameter settable and removable, request headers that
 * never reach the cache, the identity or an error text.
 */

const HEADER_SECRET = 'azure-key-SENTINEL-91c4e0';
let server: LoopbackServer;
let seen: LoopbackRequest[] = [];
const cleanups: (() => Promise<void>)[] = [];

/** OpenAI's o-series answers, verbatim in shape. */
function oSeries(request: LoopbackRequest): Fault | undefined {
  if (!request.model.startsWith('o3')) return undefined;
  if ('max_tokens' in request.body)
    return {
      kind: 'status',
      status: 400,
      body: {
        error: {
          message:
            "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
          type: 'invalid_request_error',
          param: 'max_tokens',
          code: 'unsupported_parameter',
        },
      },
    };
  if ('temperature' in request.body && request.body.temperature !== 1)
    return {
      kind: 'status',
      status: 400,
      body: {
        error: {
          message:
            "Unsupported value: 'temperature' does not support 0 with this model. Only the default (1) value is supported.",
          type: 'invalid_request_error',
          param: 'temperature',
          code: 'unsupported_value',
        },
      },
    };
  return undefined;
}

beforeAll(async () => {
  server = await startLoopbackServer({
    answer: (request) => {
      seen.push(request);
      return simStepsAnswerer(1)(request);
    },
    fault: (request) => {
      if (request.model === 'echo-headers')
        return { kind: 'status', status: 500, message: `you sent api-key=${String(request.headers['api-key'])}` };
      return oSeries(request);
    },
  });
});
afterAll(async () => {
  await server.close();
  for (const cleanup of cleanups) await cleanup();
});

describe('o-series with no configuration', () => {
  it('learns max_completion_tokens and no temperature from the 400s once, then sends the adapted body', async () => {
    seen = [];
    const before = server.log.length;
    const subject = loopbackSubject(server.baseURL, { model: 'o3-mini' });
    const first = await subject.answer(stepsRequest(3, 1, 0));
    expect(first).toMatchObject({ kind: 'answer', attempts: 3 });
    expect(server.log.length - before).toBe(3);
    const second = await subject.answer(stepsRequest(3, 2, 0));
    expect(second).toMatchObject({ kind: 'answer', attempts: 1 });
    expect(server.log.length - before).toBe(4);
    for (const request of seen) {
      expect(request.maxTokensField).toBe('max_completion_tokens');
      expect('temperature' in request.body).toBe(false);
    }
    // remembered for the process: a second subject of the same endpoint+model sends the adapted body at once
    const again = await loopbackSubject(server.baseURL, { model: 'o3-mini' }).answer(stepsRequest(3, 3, 0));
    expect(again).toMatchObject({ kind: 'answer', attempts: 1 });
  });

  it('the cache key is the configured request, so a rerun in a fresh process hits the same entries', async () => {
    const dir = await tempDir('cb-oseries-');
    cleanups.push(dir.remove);
    const plain = loopbackSubject(server.baseURL, { model: 'o3-cache', cacheDir: dir.path });
    const a = await plain.answer(stepsRequest(2, 1, 0));
    const b = await loopbackSubject(server.baseURL, { model: 'o3-cache', cacheDir: dir.path }).answer(
      stepsRequest(2, 1, 0),
    );
    expect(a.kind === 'answer' && b.kind === 'answer' && b.cacheHit && a.cacheKey === b.cacheKey).toBe(true);
  });

  it('a parameter the user set explicitly is not adapted: its 400 is final, with no retry', async () => {
    const before = server.log.length;
    const subject = loopbackSubject(server.baseURL, { model: 'o3-explicit', maxTokensParam: 'max_tokens' });
    const response = await subject.answer(stepsRequest(2, 1, 0));
    expect(response.kind).toBe('error');
    if (response.kind === 'error') expect(response.error).toMatch(/HTTP 400: .*Unsupported parameter: 'max_tokens'/);
    expect(server.log.length - before).toBe(1);
  });
});

describe('parameters settable and removable', () => {
  it('temperature none, extra params, null removes, provider seed off by default', async () => {
    seen = [];
    const env = openAiOptionsFromEnv({
      CEILINGBENCH_TEMPERATURE: 'none',
      CEILINGBENCH_PARAMS: '{"top_p":0.5,"presence_penalty":null}',
      CEILINGBENCH_SEED: '0',
    });
    expect(env).toEqual({ temperature: null, params: { top_p: 0.5, presence_penalty: null } });
    await loopbackSubject(server.baseURL, { model: 'plain', ...env }).answer(stepsRequest(2, 1, 0));
    expect(seen[0].body).not.toHaveProperty('temperature');
    expect(seen[0].body).not.toHaveProperty('seed');
    expect(seen[0].body).not.toHaveProperty('presence_penalty');
    expect(seen[0].body.top_p).toBe(0.5);
  });

  it('CEILINGBENCH_PARAMS with null removes a field ceilingbench sends', async () => {
    seen = [];
    const env = openAiOptionsFromEnv({ CEILINGBENCH_PARAMS: '{"temperature":null}', CEILINGBENCH_PROVIDER_SEED: '5' });
    await loopbackSubject(server.baseURL, { model: 'plain', ...env }).answer(stepsRequest(2, 2, 0));
    expect(seen[0].body).not.toHaveProperty('temperature');
    expect(seen[0].body.seed).toBe(5);
  });

  it('rejects bad values naming the variable, and never echoes a header value', () => {
    expect(() => openAiOptionsFromEnv({ CEILINGBENCH_TEMPERATURE: 'warm' })).toThrow(/CEILINGBENCH_TEMPERATURE='warm'/);
    expect(() => openAiOptionsFromEnv({ CEILINGBENCH_PARAMS: '{"a":{"b":1}}' })).toThrow(UsageError);
    let message = '';
    try {
      openAiOptionsFromEnv({ CEILINGBENCH_HEADERS: `{"api-key": ${HEADER_SECRET}}` });
    } catch (error) {
      message = String(error);
    }
    expect(message).toMatch(/CEILINGBENCH_HEADERS=\(value not shown\) is not valid/);
    expect(message).not.toContain(HEADER_SECRET);
  });
});

describe('request headers (Azure api-key, OpenRouter attribution)', () => {
  it('are sent with every request and never reach the cache, the identity or an error', async () => {
    seen = [];
    const dir = await tempDir('cb-headers-');
    cleanups.push(dir.remove);
    const { headers } = openAiOptionsFromEnv({
      CEILINGBENCH_HEADERS: JSON.stringify({ 'api-key': HEADER_SECRET, 'X-Title': 'ceilingbench' }),
    });
    const subject = loopbackSubject(server.baseURL, { model: 'azure-deployment', headers, cacheDir: dir.path });
    const response = await subject.answer(stepsRequest(2, 1, 0));
    expect(response.kind).toBe('answer');
    expect(seen[0].headers['api-key']).toBe(HEADER_SECRET);
    expect(seen[0].headers['x-title']).toBe('ceilingbench');
    expect(await filesContaining(dir.path, HEADER_SECRET)).toEqual([]);
    expect(JSON.stringify(subject.identity)).not.toContain(HEADER_SECRET);
    // the cache key does not depend on header values
    const other = loopbackSubject(server.baseURL, {
      model: 'azure-deployment',
      headers: { 'api-key': 'another-key-value' },
      cacheDir: dir.path,
    });
    const hit = await other.answer(stepsRequest(2, 1, 0));
    expect(
      hit.kind === 'answer' && hit.cacheHit && response.kind === 'answer' && hit.cacheKey === response.cacheKey,
    ).toBe(true);
    const echoed = await loopbackSubject(server.baseURL, { model: 'echo-headers', headers }).answer(
      stepsRequest(2, 1, 0),
    );
    expect(echoed.kind).toBe('error');
    if (echoed.kind === 'error') {
      expect(echoed.error).toMatch(/api-key=\*\*\*/);
      expect(echoed.error).not.toContain(HEADER_SECRET);
    }
  });
});
