import { readFile } from 'node:fs/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { batchRefusal } from '../../src/cli/commands/run-batch.js';
import type { CeilingbenchError } from '../../src/errors.js';
import { buildProvenance, type ProvenanceSubject, provenanceSubjectText } from '../../src/schema/provenance.js';
import { ResponseCache } from '../../src/subjects/cache/store.js';
import { chunkLines, readResultLines } from '../../src/subjects/openai/batch-files.js';
import { type BatchRunOptions, runBatches } from '../../src/subjects/openai/batch-run.js';
import { batchStatePath, readBatchState } from '../../src/subjects/openai/batch-state.js';
import type { TrialRequest, TrialResponse } from '../../src/subjects/subject.js';
import { type BatchServer, type BatchServerOptions, startBatchServer } from '../support/batch-server.js';
import { startLoopbackServer } from '../support/loopback-server.js';
import { loopbackSubject, SENTINEL_API_KEY, stepsRequest, tempDir } from '../support/openai-harness.js';
import { simStepsAnswerer } from '../support/sim-over-http.js';

/**
 * The batch pass (src/subjects/openai/batch-run.ts) against the loopback batch server, and the batch-mode subject
 * that reads what it left: the same answers as the live path, written into the cache as live ones (the request
 * identity check passes), none through chat completions; failures and expiry become `api` with the provider's
 * reason; a process that dies after submitting is picked up without submitting anything twice.
 */

const answer = simStepsAnswerer(0.9);
const closers: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const close of closers) await close();
});

async function batchServer(options: Partial<BatchServerOptions> = {}): Promise<BatchServer> {
  const server = await startBatchServer({ answer, ...options });
  closers.push(server.close);
  return server;
}

async function cacheDir(): Promise<string> {
  const dir = await tempDir('cb-batch-');
  closers.push(dir.remove);
  return dir.path;
}

/** 3 levels × 4 trials, replicates of one instance among them (trialIndex differs). */
const trials: TrialRequest[] = [3, 5, 8].flatMap((level) =>
  [0, 1, 2, 3].map((i) => stepsRequest(level, 100 + level * 10 + (i % 3), i === 3 ? 1 : 0)),
);

function pass(server: BatchServer, dir: string, extra: Partial<BatchRunOptions> = {}) {
  return runBatches({
    model: 'loop-model',
    baseURL: server.baseURL,
    apiKey: SENTINEL_API_KEY,
    cache: new ResponseCache(dir, 'read-write', () => undefined),
    trials,
    pollSeconds: 0.01,
    ...extra,
  });
}

const batchSubject = (server: BatchServer, dir: string) =>
  loopbackSubject(server.baseURL, { cacheDir: dir, batch: true });

async function answersOf(subject: ReturnType<typeof loopbackSubject>): Promise<TrialResponse[]> {
  return Promise.all(trials.map((t) => subject.answer(t)));
}

describe('batch pass', () => {
  it('answers every trial through the batch endpoints as the live path does, written to the cache as live answers', async () => {
    const server = await batchServer({ completeAfterMs: 30 });
    const dir = await cacheDir();
    const summary = await pass(server, dir, { size: 5 });
    expect(summary).toMatchObject({ trials: 12, submitted: 12, created: 3, answered: 12, failed: 0, held: 0 });
    expect(server.batches.map((b) => b.requests)).toEqual([5, 5, 2]);
    expect(server.chatCompletions()).toBe(0);
    const batched = await answersOf(batchSubject(server, dir));
    expect(server.chatCompletions()).toBe(0);
    // the same endpoint asked live, into another cache: the same answers under the same keys
    const liveAnswers = await answersOf(loopbackSubject(server.baseURL, { cacheDir: await cacheDir() }));
    expect(server.chatCompletions()).toBe(trials.length);
    // every trial from the cache: the stored request identity is this request's (no mismatch, nothing sent live);
    // bought by the pass before this run, so one request paid now, not a cache hit
    for (const [i, response] of batched.entries()) {
      const expected = liveAnswers[i] as Extract<TrialResponse, { kind: 'answer' }>;
      expect(response).toMatchObject({
        kind: 'answer',
        cacheHit: false,
        attempts: 1,
        text: expected.text,
        finishReason: expected.finishReason,
        usage: expected.usage,
        cacheKey: expected.cacheKey,
      });
      expect(response).not.toHaveProperty('cacheMismatch');
      expect((response as { batch?: string }).batch).toMatch(/^batch_/);
    }
    // what the batch pass says it used is what the same answers report live
    const sum = (field: 'promptTokens' | 'completionTokens') =>
      liveAnswers.reduce((n, r) => n + (r.kind === 'answer' ? (r.usage?.[field] ?? 0) : 0), 0);
    expect([summary.billed.prompt, summary.billed.completion]).toEqual([sum('promptTokens'), sum('completionTokens')]);
    // a later live run on the batch-filled cache asks nothing (it sees no difference)
    const later = await answersOf(loopbackSubject(server.baseURL, { cacheDir: dir }));
    expect(later.every((r) => r.kind === 'answer' && r.cacheHit)).toBe(true);
    expect(server.chatCompletions()).toBe(trials.length);
    // a second pass finds them all cached and collects nothing: the run after it paid nothing (cache hits)
    expect(await pass(server, dir, { size: 5 })).toMatchObject({ cached: 12, submitted: 0, answered: 0 });
    const again = await answersOf(batchSubject(server, dir));
    expect(again.every((r) => r.kind === 'answer' && r.cacheHit && r.attempts === 0)).toBe(true);
  });

  it('a failed request and an expired batch leave `api` with the provider reason; a later pass resubmits only those', async () => {
    const failing = new Set([trials[1], trials[6]].map((t) => t?.prompt.user ?? ''));
    const faults = { on: true };
    const server = await batchServer({
      fail: (request) =>
        faults.on && failing.has(request.messages.at(-1)?.content ?? '')
          ? { status: 500, message: 'upstream overloaded' }
          : undefined,
      expire: (serial) => (faults.on && serial === 2 ? { answered: 2 } : undefined),
    });
    const dir = await cacheDir();
    const first = await pass(server, dir, { size: 6 });
    // batch 2 holds trials 6–11: 6 failed, 7 answered, 8–11 not reached before it expired
    expect(first).toMatchObject({ submitted: 12, answered: 6, failed: 6 });
    const responses = await answersOf(batchSubject(server, dir));
    const kinds = responses.map((r) => (r.kind === 'answer' ? 'answer' : r.kind === 'error' ? r.error : r.kind));
    expect(kinds[1]).toMatch(/^batch batch_1: status 500: upstream overloaded/);
    expect(kinds[6]).toMatch(/^batch batch_2: status 500: upstream overloaded/);
    for (const i of [8, 9, 10, 11]) expect(kinds[i]).toMatch(/^batch batch_2: batch_expired: /);
    for (const i of [0, 2, 3, 4, 5, 7]) expect(kinds[i]).toBe('answer');
    expect(server.chatCompletions()).toBe(0);
    // the next pass submits the six failed requests once, and nothing else
    faults.on = false;
    const second = await pass(server, dir);
    expect(second).toMatchObject({ cached: 6, submitted: 6, answered: 6, failed: 0 });
    expect(new Set(server.submitted).size).toBe(12);
    expect(server.submitted.length).toBe(18);
    const after = await answersOf(batchSubject(server, dir));
    expect(after.every((r) => r.kind === 'answer')).toBe(true);
    // the six the first pass bought are cache hits now; the six this pass bought are this run's (paid, one request)
    const hits = after.flatMap((r, i) => (r.kind === 'answer' && r.cacheHit ? [i] : []));
    expect(hits).toEqual([0, 2, 3, 4, 5, 7]);
  });

  it('a process killed while its batch runs is picked up by the next: nothing is submitted twice', async () => {
    const server = await batchServer({ completeAfterMs: 150 });
    const dir = await cacheDir();
    const killed = pass(server, dir, {
      sleep: () => Promise.reject(new Error('killed while polling')),
    });
    await expect(killed).rejects.toThrow(/killed/);
    const state = await readBatchState(dir);
    expect(state.batches.map((b) => [b.batchId, b.collected])).toEqual([['batch_1', false]]);
    const resumed = await pass(server, dir);
    expect(resumed).toMatchObject({ resumed: 1, submitted: 0, created: 0, answered: 12 });
    expect(server.submitted.length).toBe(12);
    expect(server.batches.length).toBe(1);
    // collected: kept as history, its requests dropped (their answers are in the cache)
    const after = await readBatchState(dir);
    expect(after.batches.map((b) => [b.batchId, b.status, b.collected, b.requests.length])).toEqual([
      ['batch_1', 'completed', true, 0],
    ]);
  });

  it('a process killed between the upload and the batch is picked up: the batch the provider made is found, not made again', async () => {
    const server = await batchServer();
    const dir = await cacheDir();
    let lose = true;
    const losing: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      const url = String(input instanceof Request ? input.url : input);
      if (lose && init?.method === 'POST' && url.endsWith('/v1/batches')) {
        lose = false;
        throw new Error('killed before the answer was read');
      }
      return response;
    };
    await expect(pass(server, dir, { fetch: losing })).rejects.toThrow(/killed|Connection error/);
    expect((await readBatchState(dir)).batches.map((b) => [b.status, b.batchId])).toEqual([['uploaded', undefined]]);
    const resumed = await pass(server, dir);
    expect(resumed).toMatchObject({ resumed: 1, created: 0, submitted: 0, answered: 12 });
    expect(server.batches.length).toBe(1);
    expect(server.submitted.length).toBe(12);
  });

  it('a cancelled batch and one the provider rejects as a whole leave every request `api` with the reason', async () => {
    const server = await batchServer({ completeAfterMs: 3_600_000 });
    const dir = await cacheDir();
    // cancelled at the provider (in its console, say) while the pass waits
    const cancelled = await pass(server, dir, {
      sleep: async () => {
        await fetch(`${server.baseURL}/batches/batch_1/cancel`, { method: 'POST' });
      },
    });
    expect(cancelled).toMatchObject({ submitted: 12, answered: 0, failed: 12 });
    const responses = await answersOf(batchSubject(server, dir));
    for (const r of responses) expect(r.kind === 'error' && r.error).toMatch(/^batch batch_1: batch_cancelled: /);

    const strict = await batchServer({ maxRequestsPerFile: 5 });
    const dir2 = await cacheDir();
    const rejected = await pass(strict, dir2);
    expect(rejected).toMatchObject({ submitted: 12, answered: 0, failed: 12 });
    const why = await answersOf(batchSubject(strict, dir2));
    for (const r of why)
      expect(r.kind === 'error' && r.error).toMatch(
        /^batch batch_1: batch failed \(invalid_file: the file has 12 requests, over the limit of 5\): no result/,
      );
    expect(strict.chatCompletions()).toBe(0);
  });

  it('two subjects in one cache keep their own held trials', async () => {
    const server = await batchServer();
    const dir = await cacheDir();
    const hold = () => 'budget: not batched — maxCalls 0 reached';
    const first = await pass(server, dir, { model: 'model-a', admit: hold });
    const second = await pass(server, dir, { model: 'model-b', admit: hold });
    expect([first.held, second.held]).toEqual([12, 12]);
    expect(Object.keys((await readBatchState(dir)).held)).toHaveLength(24);
  });

  it('a passing fault while polling is asked again at the next poll; a refusal stops the pass', async () => {
    const server = await batchServer({ completeAfterMs: 40 });
    const dir = await cacheDir();
    let faults = 2;
    const flaky: typeof fetch = async (input, init) => {
      const url = String(input instanceof Request ? input.url : input);
      if (/\/batches\/batch_1$/.test(url) && faults-- > 0)
        return new Response(JSON.stringify({ error: { message: 'overloaded' } }), { status: 503 });
      return fetch(input, init);
    };
    const lines: string[] = [];
    const summary = await pass(server, dir, { fetch: flaky, progress: (line) => lines.push(line) });
    expect(summary).toMatchObject({ submitted: 12, answered: 12 });
    expect(lines.filter((l) => /polling batch_1 failed \(503 overloaded\)/.test(l))).toHaveLength(2);
    const refusing: typeof fetch = async (input, init) =>
      /\/batches\/batch_2$/.test(String(input instanceof Request ? input.url : input))
        ? new Response(JSON.stringify({ error: { message: 'bad key' } }), { status: 401 })
        : fetch(input, init);
    await expect(pass(server, await cacheDir(), { fetch: refusing })).rejects.toThrow(/401/);
  });

  it('with a wait of 0 a pass submits and returns; the next collects, and nothing is submitted twice meanwhile', async () => {
    const options: BatchServerOptions = { answer, completeAfterMs: 3_600_000 };
    const server = await startBatchServer(options);
    closers.push(server.close);
    const dir = await cacheDir();
    const first = await pass(server, dir, { waitMinutes: 0 });
    expect(first).toMatchObject({ submitted: 12, answered: 0, running: 12 });
    const waiting = await answersOf(batchSubject(server, dir));
    for (const r of waiting)
      expect(r.kind === 'error' && r.error).toMatch(/^batch batch_1 is still in_progress at the provider: run/);
    const again = await pass(server, dir, { waitMinutes: 0 });
    expect(again).toMatchObject({ resumed: 1, submitted: 0, running: 12 });
    options.completeAfterMs = 0;
    const last = await pass(server, dir, { waitMinutes: 0 });
    expect(last).toMatchObject({ submitted: 0, answered: 12, running: 0 });
    expect(server.submitted).toHaveLength(12);
    expect(server.chatCompletions()).toBe(0);
  });

  it('a request a limit does not admit is not submitted, and is `budget` (not sent) in the run', async () => {
    const server = await batchServer();
    const dir = await cacheDir();
    const summary = await pass(server, dir, {
      admit: (request) => (request.instance.level === 8 ? 'budget: not batched — maxCalls 8 reached' : undefined),
    });
    expect(summary).toMatchObject({ submitted: 8, held: 4, answered: 8 });
    const responses = await answersOf(batchSubject(server, dir));
    expect(responses.slice(8).map((r) => r.kind)).toEqual(['not-sent', 'not-sent', 'not-sent', 'not-sent']);
    expect(responses.slice(0, 8).every((r) => r.kind === 'answer')).toBe(true);
  });
});

describe('an endpoint without the batch API', () => {
  it('refuses the upload: the run stops (exit 3) with the provider message and no key, nothing submitted', async () => {
    const live = await startLoopbackServer({ answer });
    closers.push(live.close);
    const dir = await cacheDir();
    const error = await runBatches({
      model: 'loop-model',
      baseURL: live.baseURL,
      apiKey: SENTINEL_API_KEY,
      cache: new ResponseCache(dir, 'read-write', () => undefined),
      trials,
    }).catch((e: unknown) => e);
    const stop = batchRefusal(error, 'openai:loop-model', { OPENAI_API_KEY: SENTINEL_API_KEY }) as CeilingbenchError;
    expect(stop.code).toBe('CB_PROVIDER_FATAL');
    expect(stop.exitCode).toBe(3);
    expect(stop.message).toMatch(
      /^batch mode: openai:loop-model: the endpoint's file\/batch API answered 400 \(400 not a chat completion request\)/,
    );
    expect(stop.message).not.toContain(SENTINEL_API_KEY);
    expect(live.log.every((r) => r.outcome === 'bad-request')).toBe(true);
    const other = new Error('not an API error');
    expect(batchRefusal(other, 'openai:x', {})).toBe(other);
  });
});

describe('batch files', () => {
  it('cuts files at the request and byte limits, and reads results in any order by custom_id', () => {
    const line = (key: string) => ({
      key,
      model: 'm',
      messages: [{ role: 'user' as const, content: 'x'.repeat(50) }],
      params: {},
    });
    const lines = ['a', 'b', 'c', 'd', 'e'].map((c) => line(c.repeat(64)));
    expect(chunkLines(lines, 2, 1e6).map((f) => f.lines.length)).toEqual([2, 2, 1]);
    const one = chunkLines(lines.slice(0, 1), 10, 1e6)[0]?.text.length ?? 0;
    expect(chunkLines(lines, 10, one * 3).map((f) => f.lines.length)).toEqual([3, 2]);
    expect(() => chunkLines(lines, 10, one - 1)).toThrow(/alone is over/);
    const results = readResultLines(
      [
        JSON.stringify({ custom_id: 'k2', response: null, error: { code: 'batch_expired', message: 'too late' } }),
        'not json',
        JSON.stringify({ custom_id: 'k1', response: { status_code: 429, body: { error: { message: 'slow down' } } } }),
        JSON.stringify({
          custom_id: 'k3',
          response: { status_code: 200, body: { choices: [{ message: { content: 'hi' }, finish_reason: 'stop' }] } },
        }),
      ].join('\n'),
    );
    expect(results).toEqual([
      { key: 'k2', ok: false, reason: 'batch_expired: too late' },
      { key: 'k1', ok: false, reason: 'status 429: slow down' },
      { key: 'k3', ok: true, completion: expect.objectContaining({ text: 'hi', finishReason: 'stop' }) },
    ]);
  });

  it('provenance counts the answered trials a batch answered, per subject, and says so', () => {
    const identity = { spec: 'openai:m', kind: 'openai' as const, model: 'm', parameters: {} };
    const trial = (kind: string, batch?: string) => ({ outcome: { kind }, ...(batch ? { batch } : {}) });
    const provenance = buildProvenance({
      subjects: [identity],
      seed: 0,
      packageVersion: null,
      cells: [
        { profile: 'p', trials: [trial('correct', 'b1'), trial('reasoning', 'b1'), trial('api'), trial('correct')] },
      ],
    });
    expect(provenance.subjects[0]?.batched).toBe(2);
    expect(provenanceSubjectText(provenance.subjects[0] as ProvenanceSubject)).toMatch(
      /2 trial\(s\) answered through the provider's batch API/,
    );
    const live = buildProvenance({
      subjects: [identity],
      seed: 0,
      packageVersion: null,
      cells: [{ profile: 'p', trials: [trial('correct')] }],
    });
    expect(live.subjects[0]).not.toHaveProperty('batched');
  });

  it('the state file holds no key', async () => {
    const server = await batchServer();
    const dir = await cacheDir();
    await pass(server, dir, { trials: trials.slice(0, 2) });
    expect(await readFile(batchStatePath(dir), 'utf8')).not.toContain(SENTINEL_API_KEY);
  });
});
