import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fakeStepsPlugin } from '../support/fake-tasks.js';
import { type LoopbackRequest, type LoopbackServer, startLoopbackServer } from '../support/loopback-server.js';
import {
  filesContaining,
  filesUnder,
  loopbackSubject,
  SENTINEL_API_KEY,
  stepsRequest,
  tempDir,
} from '../support/openai-harness.js';
import { simStepsAnswerer } from '../support/sim-over-http.js';

let server: LoopbackServer;
let seen: LoopbackRequest[] = [];
let padding = 0;
const cleanups: (() => Promise<void>)[] = [];

beforeAll(async () => {
  server = await startLoopbackServer({
    answer: (request) => {
      seen.push(request);
      return { ...simStepsAnswerer(0.7, padding)(request), reasoningTokens: 7 };
    },
    latency: { medianMs: 2, sigma: 0.5, seed: 1 },
  });
});
afterAll(async () => {
  await server.close();
  for (const cleanup of cleanups) await cleanup();
});
beforeEach(() => {
  seen = [];
  padding = 0;
});

async function cacheDir() {
  const dir = await tempDir('cb-openai-');
  cleanups.push(dir.remove);
  return dir.path;
}

describe('openai subject against the loopback server', () => {
  it('sends the provider options and records finish reason, usage and latency', async () => {
    const subject = loopbackSubject(server.baseURL, { seed: 11, systemRole: 'merge', reasoningEffort: 'low' });
    const request = stepsRequest(3, 7, 0);
    const response = await subject.answer(request);
    expect(response).toMatchObject({ kind: 'answer', finishReason: 'stop', cacheHit: false, attempts: 1 });
    if (response.kind !== 'answer') return;
    expect(fakeStepsPlugin.parse(response.text).ok).toBe(true);
    expect(response.usage).toEqual({
      promptTokens: expect.any(Number),
      completionTokens: Math.ceil(response.text.length / 4),
      reasoningTokens: 7,
    });
    expect(response.latencyMs).toBeGreaterThan(0);
    expect(response.budget).toBeUndefined(); // the transport applies no budget rule
    const [sent] = seen;
    expect(sent).toMatchObject({
      model: 'loop-model',
      temperature: 0,
      seed: 11,
      reasoningEffort: 'low',
      maxTokens: 28,
      maxTokensField: 'max_tokens', // not api.openai.com
      authorization: `Bearer ${SENTINEL_API_KEY}`,
      trialKey: response.cacheKey,
    });
    expect(sent.messages).toEqual([{ role: 'user', content: `${request.prompt.system}\n\n${request.prompt.user}` }]);
    expect(subject.identity).toMatchObject({ kind: 'openai', model: 'loop-model', endpoint: server.baseURL });
    expect(JSON.stringify(subject.identity)).not.toContain(SENTINEL_API_KEY);
  });

  it('uses a system message and max_completion_tokens when configured', async () => {
    const subject = loopbackSubject(server.baseURL, { maxTokensParam: 'max_completion_tokens', temperature: null });
    await subject.answer(stepsRequest(2, 1, 0));
    expect(seen[0].messages.map((m) => m.role)).toEqual(['system', 'user']);
    expect(seen[0]).toMatchObject({ maxTokensField: 'max_completion_tokens', temperature: undefined });
  });

  it('caches per trial: repeats are hits, replicates are distinct requests', async () => {
    const dir = await cacheDir();
    const subject = loopbackSubject(server.baseURL, { cacheDir: dir });
    const replicates = Array.from({ length: 12 }, (_, i) => stepsRequest(6, 42, i));
    const first = await Promise.all(replicates.map((r) => subject.answer(r)));
    expect(seen).toHaveLength(12);
    expect(new Set(first.map((r) => r.kind === 'answer' && r.cacheKey)).size).toBe(12);
    expect(new Set(first.map((r) => r.kind === 'answer' && r.text)).size).toBeGreaterThan(1); // p = 0.7 at depth 6
    const again = await Promise.all(
      replicates.map((r) => loopbackSubject(server.baseURL, { cacheDir: dir }).answer(r)),
    );
    expect(seen).toHaveLength(12); // no new request
    for (const [i, r] of again.entries()) {
      expect(r).toMatchObject({ kind: 'answer', cacheHit: true, attempts: 0 });
      const f = first[i];
      if (r.kind === 'answer' && f.kind === 'answer') {
        expect([r.text, r.finishReason, r.usage]).toEqual([f.text, f.finishReason, f.usage]);
      }
    }
    expect((await filesUnder(dir)).filter((f) => f.endsWith('.json'))).toHaveLength(12);
  });

  it('honours the cache modes', async () => {
    const dir = await cacheDir();
    const request = stepsRequest(2, 5, 0);
    await loopbackSubject(server.baseURL, { cacheDir: dir, cacheMode: 'read-only' }).answer(request);
    expect(await filesUnder(dir)).toHaveLength(0);
    await loopbackSubject(server.baseURL, { cacheDir: dir }).answer(request);
    const refresh = await loopbackSubject(server.baseURL, { cacheDir: dir, cacheMode: 'refresh' }).answer(request);
    const readOnly = await loopbackSubject(server.baseURL, { cacheDir: dir, cacheMode: 'read-only' }).answer(request);
    const off = await loopbackSubject(server.baseURL, { cacheDir: dir, cacheMode: 'off' }).answer(request);
    expect([refresh, readOnly, off].map((r) => r.kind === 'answer' && r.cacheHit)).toEqual([false, true, false]);
    expect(seen).toHaveLength(4);
  });

  it('sends a cut-off answer once: no budget doubling in the transport (a CCB trial keeps its budget)', async () => {
    padding = 30; // ~270 chars of "thinking" before the answer block: cut at 16 tokens, no answer in it
    const dir = await cacheDir();
    const request = stepsRequest(2, 3, 0, 16);
    const cut = await loopbackSubject(server.baseURL, { cacheDir: dir }).answer(request);
    expect(cut).toMatchObject({ kind: 'answer', finishReason: 'length', attempts: 1, cacheHit: false });
    if (cut.kind === 'answer') {
      expect(cut.text).toHaveLength(16 * 4);
      expect(fakeStepsPlugin.parse(cut.text).ok).toBe(false);
      expect(cut.budget).toBeUndefined();
    }
    expect(seen.map((r) => r.maxTokens)).toEqual([16]);
    expect(server.requestsFor(cut.kind === 'answer' ? (cut.cacheKey ?? '') : '')).toBe(1);

    // the cut answer is cached under its own budget: a rerun is a hit, another budget is another call
    const again = await loopbackSubject(server.baseURL, { cacheDir: dir }).answer(request);
    expect(again).toMatchObject({ kind: 'answer', finishReason: 'length', cacheHit: true, attempts: 0 });
    const wider = await loopbackSubject(server.baseURL, { cacheDir: dir }).answer({ ...request, maxOutputTokens: 32 });
    expect(wider).toMatchObject({ kind: 'answer', cacheHit: false, attempts: 1 });
    if (wider.kind === 'answer' && cut.kind === 'answer') expect(wider.cacheKey).not.toBe(cut.cacheKey);
    expect(seen.map((r) => r.maxTokens)).toEqual([16, 32]);
  });

  it('passes the AbortSignal through', async () => {
    const hanging = await startLoopbackServer({ answer: () => ({ text: 'x' }), fault: () => ({ kind: 'hang' }) });
    try {
      const subject = loopbackSubject(hanging.baseURL, { retry: { ...FAST_RETRY_LONG_TIMEOUT } });
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 50);
      const response = await subject.answer({ ...stepsRequest(2, 1, 0), signal: controller.signal });
      // the abort, not the 10 s request timeout, ended it: one attempt, and no retry after it
      expect(response).toMatchObject({ kind: 'error', error: 'aborted by the caller', attempts: 1 });
      expect(hanging.log).toHaveLength(1);
    } finally {
      await hanging.close();
    }
  });

  it('writes no API key into the cache', async () => {
    const dir = await cacheDir();
    const subject = loopbackSubject(server.baseURL, { cacheDir: dir });
    for (let i = 0; i < 5; i++) await subject.answer(stepsRequest(3, i, i));
    expect((await filesUnder(dir)).length).toBe(5);
    expect(await filesContaining(dir, SENTINEL_API_KEY)).toEqual([]);
    expect(await filesContaining(dir, 'Bearer')).toEqual([]);
  });
});

const FAST_RETRY_LONG_TIMEOUT = {
  maxAttempts: 3,
  baseDelayMs: 2,
  maxDelayMs: 20,
  maxTotalMs: 10_000,
  requestTimeoutMs: 10_000,
};
