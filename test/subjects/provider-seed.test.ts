import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSubject } from '../../src/subjects/index.js';
import type { Subject } from '../../src/subjects/subject.js';
import { fakeResolve } from '../support/fake-tasks.js';
import { type LoopbackRequest, type LoopbackServer, startLoopbackServer } from '../support/loopback-server.js';
import { stepsRequest, tempDir } from '../support/openai-harness.js';
import { simStepsAnswerer } from '../support/sim-over-http.js';

/**
 * Issue 18, Deliver 7: the provider `seed` parameter is separate from the run/instance seed and off unless
 * asked for, so a fully cached rerun with CEILINGBENCH_SEED=0 sends no request; spelling out a default
 * never changes a cache key.
 */

let server: LoopbackServer;
let seen: LoopbackRequest[] = [];
const cleanups: (() => Promise<void>)[] = [];

beforeAll(async () => {
  server = await startLoopbackServer({
    answer: (request) => {
      seen.push(request);
      return simStepsAnswerer(0.8)(request);
    },
  });
});
afterAll(async () => {
  await server.close();
  for (const cleanup of cleanups) await cleanup();
});

async function cacheDir(): Promise<string> {
  const dir = await tempDir('cb-seed-');
  cleanups.push(dir.remove);
  return dir.path;
}

const subjectWith = (env: Record<string, string>): Promise<Subject> =>
  createSubject('openai:seed-model', {
    env: { OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: 'sk-local', ...env },
    resolveTask: fakeResolve,
    report: () => undefined,
  });

const REQUESTS = [stepsRequest(2, 1, 0), stepsRequest(2, 1, 1), stepsRequest(3, 2, 0), stepsRequest(4, 3, 0)];

describe('provider seed and the run seed', () => {
  it('CEILINGBENCH_SEED=0 sends no seed, and a fully cached rerun sends no request', async () => {
    const dir = await cacheDir();
    const env = { CEILINGBENCH_SEED: '0', CEILINGBENCH_CACHE_DIR: dir };
    seen = [];
    const first = await subjectWith(env);
    for (const request of REQUESTS) expect((await first.answer(request)).kind).toBe('answer');
    expect(seen).toHaveLength(REQUESTS.length);
    for (const request of seen) expect(request.body).not.toHaveProperty('seed');
    const before = server.log.length;
    const rerun = await subjectWith(env);
    for (const request of REQUESTS) expect(await rerun.answer(request)).toMatchObject({ cacheHit: true, attempts: 0 });
    expect(server.log.length - before).toBe(0);
  });

  it('CEILINGBENCH_PROVIDER_SEED sends `seed`, and it is part of the key', async () => {
    const dir = await cacheDir();
    seen = [];
    const seeded = await subjectWith({ CEILINGBENCH_PROVIDER_SEED: '0', CEILINGBENCH_CACHE_DIR: dir });
    const a = await seeded.answer(REQUESTS[0]);
    expect(seen[0].body.seed).toBe(0);
    const plain = await subjectWith({ CEILINGBENCH_CACHE_DIR: dir });
    const b = await plain.answer(REQUESTS[0]);
    expect(a.kind === 'answer' && b.kind === 'answer' && a.cacheKey !== b.cacheKey && !b.cacheHit).toBe(true);
  });

  it('cache keys do not change when a default is spelled out', async () => {
    const dir = await cacheDir();
    const keyOf = async (env: Record<string, string>) => {
      const response = await (await subjectWith({ CEILINGBENCH_CACHE_DIR: dir, ...env })).answer(REQUESTS[2]);
      return response.kind === 'answer' ? response.cacheKey : undefined;
    };
    const base = await keyOf({});
    expect(base).toBeDefined();
    const spelledOut: Record<string, string>[] = [
      { CEILINGBENCH_TEMPERATURE: '0' },
      { CEILINGBENCH_MAX_TOKENS_PARAM: 'max_tokens' },
      { CEILINGBENCH_SYSTEM_ROLE: 'system' },
      { CEILINGBENCH_PROVIDER_SEED: 'none' },
      { CEILINGBENCH_REASONING_EFFORT: 'none' },
      { CEILINGBENCH_PARAMS: '{"temperature":0}' },
      { CEILINGBENCH_SEED: '0' },
    ];
    for (const spelled of spelledOut) expect(await keyOf(spelled), JSON.stringify(spelled)).toBe(base);
    expect(await keyOf({ CEILINGBENCH_TEMPERATURE: 'none' })).not.toBe(base);
  });
});
