import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerWithBudgetRule } from '../../src/assays/scc/budget-rule.js';
import { type CacheEntry, createSubject } from '../../src/subjects/index.js';
import { fakeStepsPlugin } from '../support/fake-tasks.js';
import { type LoopbackServer, startLoopbackServer } from '../support/loopback-server.js';
import { filesUnder, loopbackSubject, stepsRequest, tempDir } from '../support/openai-harness.js';
import { simStepsAnswerer } from '../support/sim-over-http.js';

/**
 * The budget rule over the real transport: every call of the chain is one request, cached under its own budget,
 * so a rerun (or a replay of the cache) walks the whole chain again without a request.
 */
let server: LoopbackServer;
let work: { path: string; remove: () => Promise<void> };
beforeAll(async () => {
  // ~270 chars of "thinking" before the answer block: cut without an answer at 16, 32 and 64 tokens
  server = await startLoopbackServer({ answer: simStepsAnswerer(1, 30) });
  work = await tempDir('cb-budget-rule-');
});
afterAll(async () => {
  await server.close();
  await work.remove();
});

const rule = { hasAnswer: (text: string) => fakeStepsPlugin.parse(text).ok, ceiling: 1024 };
const request = stepsRequest(2, 3, 0, 16);

describe('the budget rule over the openai subject', () => {
  it('one request per budget, each cached; a rerun replays the chain from the cache at no cost', async () => {
    const cache = join(work.path, 'cache');
    const first = await answerWithBudgetRule(loopbackSubject(server.baseURL, { cacheDir: cache }), request, rule);
    expect(first).toMatchObject({
      kind: 'answer',
      finishReason: 'stop',
      calls: 4,
      attempts: 4,
      cacheHit: false,
      budget: { requested: 16, final: 128, doublings: 3, ceilingReached: false },
    });
    expect(server.log.map((r) => r.maxTokens)).toEqual([16, 32, 64, 128]);
    expect(server.repeats()).toBe(0);
    expect((await filesUnder(cache)).filter((f) => f.endsWith('.json'))).toHaveLength(4);
    if (first.kind !== 'answer') return;
    expect(fakeStepsPlugin.parse(first.text).ok).toBe(true);
    // usage is the sum over the four billed calls; the final call's is kept beside it
    const billed = Math.ceil(64 / 4) + Math.ceil(128 / 4) + Math.ceil(256 / 4) + Math.ceil(first.text.length / 4);
    expect(first.usage?.completionTokens).toBe(billed);
    expect(first.finalUsage?.completionTokens).toBe(Math.ceil(first.text.length / 4));

    const rerun = await answerWithBudgetRule(loopbackSubject(server.baseURL, { cacheDir: cache }), request, rule);
    expect(server.log).toHaveLength(4); // no new request
    expect(rerun).toMatchObject({ kind: 'answer', text: first.text, cacheHit: true, attempts: 0, calls: 4 });
    expect(rerun.budget).toEqual(first.budget);
    if (rerun.kind === 'answer') expect(rerun.usage).toEqual(first.usage);

    // replay:<cache dir> serves each call of the chain by its budget
    const replayed = await answerWithBudgetRule(await createSubject(`replay:${cache}`), request, rule);
    expect(replayed).toMatchObject({ kind: 'answer', text: first.text, cacheHit: true, calls: 4 });
    expect(replayed.budget).toEqual(first.budget);
    expect(server.log).toHaveLength(4);
  });

  it('an entry written when the transport applied the rule (final answer + budget record) replays in one call', async () => {
    const cache = join(work.path, 'cache');
    const files = (await filesUnder(cache)).filter((f) => f.endsWith('.json'));
    const entries = await Promise.all(files.map(async (f) => JSON.parse(await readFile(f, 'utf8')) as CacheEntry));
    const final = entries.find((e) => e.meta.params.max_tokens === 128) as CacheEntry;
    const budget = { requested: 16, final: 128, doublings: 3, ceilingReached: false };
    const old: CacheEntry = {
      ...final,
      // the old key: the first call's parameters plus the ceiling
      meta: { ...final.meta, params: { ...final.meta.params, max_tokens: 16, budget_ceiling: 1024 } },
      response: { ...final.response, attempts: 4, budget },
    };
    const jsonl = join(work.path, 'old.jsonl');
    await writeFile(jsonl, `${JSON.stringify(old)}\n`);
    const replay = await createSubject(`replay:${jsonl}`);
    const asked: number[] = [];
    const counting = {
      ...replay,
      answer: (r: typeof request) => {
        asked.push(r.maxOutputTokens);
        return replay.answer(r);
      },
    };
    const replayed = await answerWithBudgetRule(counting, request, rule);
    expect(asked).toEqual([16]);
    expect(replayed).toMatchObject({ kind: 'answer', text: final.response.text, budget, calls: 1 });
  });
});
