import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSubject } from '../../src/subjects/index.js';
import { RateLimiter, sharedLimiter } from '../../src/subjects/limiter.js';
import {
  type Fault,
  type LoopbackRequest,
  type LoopbackServer,
  startLoopbackServer,
} from '../support/loopback-server.js';
import { loopbackSubject, SENTINEL_API_KEY, stepsRequest } from '../support/openai-harness.js';
import { simStepsAnswerer } from '../support/sim-over-http.js';

/**
 * The adaptive limit as the openai subject drives it: answers count as successes, a 429 as a rate-limit
 * signal, anything else as neither. Trials run one after another, so every report belongs to the current
 * epoch and the limit is exactly predictable (the AIMD rule itself is in limiter.test.ts).
 */

const BEHAVIOUR: Record<string, (request: LoopbackRequest, attempt: number) => Fault | undefined> = {
  '429-once': (_r, attempt) => (attempt === 1 ? { kind: 'status', status: 429, retryAfter: '0.001' } : undefined),
  '500-once': (_r, attempt) => (attempt === 1 ? { kind: 'status', status: 500 } : undefined),
  '429-in-body-once': (_r, attempt) =>
    attempt === 1 ? { kind: 'body', json: { error: { code: 429, message: 'upstream rate limited' } } } : undefined,
  quota: () => ({
    kind: 'status',
    status: 429,
    body: { error: { message: 'quota', type: 'insufficient_quota', code: 'insufficient_quota' } },
  }),
};

let server: LoopbackServer;
beforeAll(async () => {
  server = await startLoopbackServer({
    answer: simStepsAnswerer(1),
    fault: (request, { attempt }) => BEHAVIOUR[request.model]?.(request, attempt),
  });
});
afterAll(() => server.close());

async function sequentially(limiter: RateLimiter, model: string, trials: number, seed0 = 0) {
  const subject = loopbackSubject(server.baseURL, { model, limiter });
  const responses = [];
  for (let i = 0; i < trials; i++) responses.push(await subject.answer(stepsRequest(2, seed0 + i, 0)));
  return responses;
}

describe('the adaptive limit driven by the openai subject', () => {
  it('starts at one in flight, measures the unloaded latency over 4 answers, then adds a slot an answer', async () => {
    const limiter = new RateLimiter();
    const responses = await sequentially(limiter, 'ok', 15);
    expect(responses.every((r) => r.kind === 'answer')).toBe(true);
    expect(limiter.concurrency).toBe(2 + 11);
  });

  it('a 429 (or a 429 code in a 200 body) where answers come is a rate refusal: paced, the limit kept; a 500 is neutral', async () => {
    const limiter = new RateLimiter({ adaptive: { initial: 8 } });
    await sequentially(limiter, 'ok', 10, 100);
    const before = limiter.concurrency;
    expect(limiter.pace?.rate(performance.now())).toBeUndefined();
    // 429 then the answer, both at one in flight, where ten answers came: the rate, not the concurrency
    expect(await sequentially(limiter, '429-once', 1)).toMatchObject([{ kind: 'answer', attempts: 2 }]);
    expect(limiter.concurrency).toBe(before);
    expect(limiter.pace?.rate(performance.now())).toBeGreaterThan(0);
    expect(await sequentially(limiter, '429-in-body-once', 1, 10)).toMatchObject([{ kind: 'answer', attempts: 2 }]);
    const paced = limiter.concurrency;
    await sequentially(limiter, '500-once', 1, 20);
    expect(limiter.concurrency).toBeLessThanOrEqual(paced + 1); // only the answer counts
  });

  it('a 429 at a concurrency no answer reached is a cap: the limit steps under it', async () => {
    const limiter = new RateLimiter({ adaptive: { initial: 8 } });
    expect(await sequentially(limiter, '429-once', 1, 200)).toMatchObject([{ kind: 'answer', attempts: 2 }]);
    expect(limiter.adaptive?.ceiling).toBe(1);
    expect(limiter.concurrency).toBe(1);
  });

  it('a quota 429 (insufficient_quota) stops the run and is not a rate signal', async () => {
    const limiter = new RateLimiter();
    const [response] = await sequentially(limiter, 'quota', 1);
    expect(response).toMatchObject({ kind: 'error', stopsRun: true });
    expect(limiter.concurrency).toBe(1);
    expect(limiter.pace?.rate(performance.now())).toBeUndefined();
  });
});

describe('which limiter a subject gets', () => {
  const env = (extra: Record<string, string> = {}) => ({
    OPENAI_API_KEY: SENTINEL_API_KEY,
    CEILINGBENCH_CACHE_MODE: 'off',
    ...extra,
  });

  it('no CEILINGBENCH_CONCURRENCY and no option: the process-wide limiter of the endpoint adapts', async () => {
    const baseURL = 'http://127.0.0.1:9/adaptive-default/v1';
    await createSubject('openai:m', { env: env({ OPENAI_BASE_URL: baseURL, CEILINGBENCH_RPM: '600' }) });
    const limiter = sharedLimiter(baseURL);
    expect(limiter.adaptive).toBeDefined();
    expect(limiter.concurrency).toBe(1);
  });

  it('CEILINGBENCH_CONCURRENCY (or the option) is a fixed limit, as before', async () => {
    const baseURL = 'http://127.0.0.1:9/adaptive-fixed/v1';
    await createSubject('openai:m', { env: env({ OPENAI_BASE_URL: baseURL, CEILINGBENCH_CONCURRENCY: '12' }) });
    expect(sharedLimiter(baseURL).adaptive).toBeUndefined();
    expect(sharedLimiter(baseURL).concurrency).toBe(12);
    const other = 'http://127.0.0.1:9/adaptive-option/v1';
    await createSubject('openai:m', { env: env({ OPENAI_BASE_URL: other }), openai: { limiter: { concurrency: 3 } } });
    expect(sharedLimiter(other).concurrency).toBe(3);
  });
});
