import { afterAll, describe, expect, it } from 'vitest';
import { PyRandom } from '../../src/rng/index.js';
import { cacheKey } from '../../src/subjects/cache/key.js';
import { ResponseCache } from '../../src/subjects/cache/store.js';
import { type CachedCall, createCacheStep } from '../../src/subjects/openai/cache-step.js';
import type { TrialRequest, TrialResponse } from '../../src/subjects/subject.js';
import { fakeStepsPlugin } from '../support/fake-tasks.js';
import { filesUnder, tempDir } from '../support/openai-harness.js';

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
});
async function cache(mode: ResponseCache['mode'] = 'read-write') {
  const dir = await tempDir('cb-cache-step-');
  cleanups.push(dir.remove);
  return { dir: dir.path, cache: new ResponseCache(dir.path, mode, () => undefined) };
}

const instance = fakeStepsPlugin.generate(new PyRandom(5), 3, { seed: 5 });
const request = (trialIndex = 0): TrialRequest => ({
  taskId: fakeStepsPlugin.id,
  instance,
  prompt: fakeStepsPlugin.render(instance),
  trialIndex,
  maxOutputTokens: 64,
});
const call = (budget = 64): CachedCall => ({
  messages: [{ role: 'user', content: 'sum them' }],
  params: { temperature: 0, max_tokens: budget },
});
const ENDPOINT = 'http://127.0.0.1:9/v1';

const answer = (text: string): TrialResponse => ({
  kind: 'answer',
  text,
  reasoning: 'thought',
  finishReason: 'length',
  usage: { promptTokens: 3, completionTokens: 16, reasoningTokens: 2, cachedPromptTokens: 1, costUsd: 0.00042 },
  servedModel: 'm-2025',
  servedProvider: 'DeepInfra',
  latencyMs: 40,
  cacheHit: false,
  attempts: 2,
});

describe('the response cache step', () => {
  it('keys a call by endpoint, model, parameters (the budget too), messages and the trial, replicate included', () => {
    const step = createCacheStep({ endpoint: ENDPOINT, model: 'm' });
    const key = step.keyOf(request(), call());
    expect(key).toBe(
      cacheKey({
        endpoint: ENDPOINT,
        model: 'm',
        params: call().params,
        messages: call().messages,
        trialIndex: 0,
        taskId: 'fake-steps',
        level: 3,
        seed: 5,
        instanceProfile: instance.profile,
      }),
    );
    expect(step.keyOf(request(1), call())).not.toBe(key);
    expect(step.keyOf(request(), call(128))).not.toBe(key);
    expect(createCacheStep({ endpoint: ENDPOINT, model: 'm2' }).keyOf(request(), call())).not.toBe(key);
  });

  it('a miss asks once with the key and writes the answer; the repeat is a hit with the same fields', async () => {
    const { dir, cache: store } = await cache();
    let now = 0;
    const step = createCacheStep({ cache: store, endpoint: ENDPOINT, model: 'm', now: () => now });
    const keys: string[] = [];
    const miss = async (key: string) => {
      keys.push(key);
      return answer('STEPS: 1 2');
    };
    const first = await step.answer(request(), call(), miss, 0);
    expect(keys).toEqual([step.keyOf(request(), call())]);
    expect(first).toMatchObject({ kind: 'answer', cacheHit: false, attempts: 2, latencyMs: 40, cacheKey: keys[0] });
    expect(await filesUnder(dir)).toHaveLength(1);
    now = 7;
    const hit = await step.answer(request(), call(), miss, 5);
    expect(keys).toHaveLength(1);
    expect(hit).toEqual({
      kind: 'answer',
      text: 'STEPS: 1 2',
      reasoning: 'thought',
      finishReason: 'length',
      usage: { promptTokens: 3, completionTokens: 16, reasoningTokens: 2, cachedPromptTokens: 1, costUsd: 0.00042 },
      servedModel: 'm-2025',
      servedProvider: 'DeepInfra',
      latencyMs: 2, // the lookup time
      cacheHit: true,
      attempts: 0,
      cacheKey: keys[0],
    });
    const stored = (await store.get(keys[0]))?.response;
    expect(stored).toMatchObject({ latencyMs: 40, attempts: 2 });
    expect(stored).not.toHaveProperty('budget');
  });

  it('never writes an error, and without a cache every call is a miss (still keyed)', async () => {
    const { dir, cache: store } = await cache();
    const step = createCacheStep({ cache: store, endpoint: ENDPOINT, model: 'm' });
    const error: TrialResponse = { kind: 'error', error: 'HTTP 503', latencyMs: 1, attempts: 5 };
    expect(await step.answer(request(), call(), async () => error)).toEqual(error);
    expect(await filesUnder(dir)).toEqual([]);

    const bare = createCacheStep({ endpoint: ENDPOINT, model: 'm' });
    const keys: string[] = [];
    for (let i = 0; i < 2; i++) {
      await bare.answer(request(), call(), async (key) => {
        keys.push(key);
        return answer('x');
      });
    }
    expect(keys).toEqual([bare.keyOf(request(), call()), bare.keyOf(request(), call())]);
  });

  it('honours the store modes: read-only never writes, refresh never reads', async () => {
    const { dir, cache: readOnly } = await cache('read-only');
    const step = createCacheStep({ cache: readOnly, endpoint: ENDPOINT, model: 'm' });
    await step.answer(request(), call(), async () => answer('x'));
    expect(await filesUnder(dir)).toEqual([]);
    const refresh = createCacheStep({
      cache: new ResponseCache(dir, 'refresh', () => undefined),
      endpoint: ENDPOINT,
      model: 'm',
    });
    let misses = 0;
    for (let i = 0; i < 2; i++) {
      await refresh.answer(request(), call(), async () => {
        misses++;
        return answer('y');
      });
    }
    expect(misses).toBe(2);
    expect(await filesUnder(dir)).toHaveLength(1);
  });
});
