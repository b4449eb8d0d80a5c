import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PyRandom } from '../../src/rng/index.js';
import { ResponseCache } from '../../src/subjects/cache/store.js';
import { createOpenAiSubject } from '../../src/subjects/openai/openai-subject.js';
import { trialOutcomeSchema } from '../../src/tasks/outcome.js';
import { resolveTask } from '../../src/tasks/registry.js';
import { type LoopbackServer, startLoopbackServer } from '../support/loopback-server.js';
import { FAST_RETRY, SENTINEL_API_KEY, tempDir } from '../support/openai-harness.js';
import { LARGE_SHAPES } from './hostile-inputs.js';

/**
 * Scenario 1 end to end (RELIABILITY.md): hostile outputs of up to 10 MB arriving over HTTP pass through
 * the openai subject and its disk cache unchanged (astral and lone-surrogate characters included), and are
 * graded to a classified outcome; a second ask is a cache hit with the same text.
 */

const MB = 1024 * 1024;
const CASES = [
  ['unicode-noise', 10 * MB],
  ['unclosed-headers', 10 * MB],
  ['nested-brackets', MB],
  ['redos-whitespace', MB],
] as const;

let server: LoopbackServer;
let work: { path: string; remove: () => Promise<void> };
let reply = '';

beforeAll(async () => {
  server = await startLoopbackServer({ answer: () => ({ text: reply }) });
  work = await tempDir('cb-hostile-http-');
});
afterAll(async () => {
  await server.close();
  await work.remove();
});

describe('hostile outputs over HTTP', () => {
  it.each(CASES)('%s at %i bytes: answered, cached whole, graded, replayed from the cache', async (shape, size) => {
    const task = resolveTask('d2');
    const instance = task.generate(new PyRandom(7), 5, { seed: 7, profile: task.profiles[0] });
    reply = LARGE_SHAPES[shape](size, task.canonicalResponse(instance));
    const subject = createOpenAiSubject({
      model: 'hostile-model',
      baseURL: server.baseURL,
      apiKey: SENTINEL_API_KEY,
      // 10 MB through JSON, the disk cache and back takes seconds on a loaded machine: FAST_RETRY's 3 s a request
      // is for the fault tests
      retry: { ...FAST_RETRY, requestTimeoutMs: 120_000, maxTotalMs: 240_000 },
      limiter: { concurrency: 1 },
      cache: new ResponseCache(join(work.path, 'cache'), 'read-write', (message) => {
        throw new Error(message);
      }),
    });
    const request = {
      taskId: task.id,
      instance,
      prompt: task.render(instance),
      trialIndex: CASES.findIndex(([s]) => s === shape),
      maxOutputTokens: task.maxOutputTokens(5),
    };
    const first = await subject.answer(request);
    expect(first.kind, JSON.stringify(first).slice(0, 800)).toBe('answer');
    if (first.kind !== 'answer') return;
    expect(first.text.length).toBe(reply.length);
    expect(first.text === reply).toBe(true);
    const outcome = task.grade(instance, first.text, { finishReason: first.finishReason });
    expect(trialOutcomeSchema.safeParse(outcome).success).toBe(true);
    expect(outcome.kind).not.toBe('api');

    const again = await subject.answer(request);
    expect(again.kind === 'answer' && again.cacheHit).toBe(true);
    expect(again.kind === 'answer' && again.text === reply).toBe(true);
  });
});
