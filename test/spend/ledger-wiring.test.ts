import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { runSccAssay } from '../../src/assays/scc/run.js';
import { ask } from '../../src/assays/scc-secondary/ask.js';
import { runTrial } from '../../src/assays/sweep/run-trial.js';
import { ConfigError } from '../../src/errors.js';
import { localGate, SpendLedger } from '../../src/spend/ledger.js';
import { createLedgerClient } from '../../src/spend/ledger-client.js';
import { ledgerAt, limitRecordAt, startLedgerServer } from '../../src/spend/ledger-server.js';
import { costOf } from '../../src/spend/price.js';
import type { Subject, TrialRequest, TrialResponse } from '../../src/subjects/subject.js';
import { runConfigFor } from '../../src/vitest/run-config.js';
import { scriptedSubject } from '../scc/helpers.js';
import { type LoopbackOptions, type LoopbackServer, startLoopbackServer } from '../support/loopback-server.js';
import { loopbackSubject, steps, stepsRequest, tempDir } from '../support/openai-harness.js';
import { simStepsAnswerer } from '../support/sim-over-http.js';

const servers: LoopbackServer[] = [];
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const server of servers) await server.close();
  for (const cleanup of cleanups) await cleanup();
});

async function serve(options: Partial<LoopbackOptions> = {}): Promise<LoopbackServer> {
  const server = await startLoopbackServer({ answer: simStepsAnswerer(1), ...options });
  servers.push(server);
  return server;
}

/** Waits for `done` (what a worker does in the background), failing after 10 s instead of hanging. */
async function until(done: () => boolean): Promise<void> {
  for (let waited = 0; !done(); waited += 10) {
    if (waited > 10_000) throw new Error('not done after 10 s');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const claim = { floor: { calls: 1, tokens: 10, costUsd: null }, cap: { calls: 6, tokens: 100, costUsd: null } };
const usageSum = (server: LoopbackServer) =>
  server.log.reduce((sum, r) => sum + (r.usage ? r.usage.promptTokens + r.usage.completionTokens : 0), 0);

describe('the ledger over loopback HTTP', () => {
  it('admits and settles for the workers, answers nothing else, and fails closed once it is gone', async () => {
    const service = await startLedgerServer({ maxCalls: 2 });
    const client = createLedgerClient(service.url);
    expect(service.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/ledger\/[0-9a-f-]{36}$/);
    expect(ledgerAt(service.url)).toBe(service.ledger);
    const a = await client.admit(claim);
    const b = await client.admit(claim);
    expect([a.admitted, b.admitted]).toEqual([true, true]);
    expect(await client.admit(claim)).toMatchObject({ admitted: false, stoppedBy: 'maxCalls' });
    if (a.admitted) await client.settle(a.id, { calls: 1, tokens: 42, costUsd: null });
    expect(service.ledger.report()).toMatchObject({ notSent: 1, spent: { calls: 1, tokens: 42 } });

    const base = new URL(service.url);
    const elsewhere = await fetch(`${base.origin}/ledger/not-the-token/admit`, { method: 'POST', body: '{}' });
    expect(elsewhere.status).toBe(404);
    const bad = await fetch(`${service.url}/admit`, { method: 'POST', body: JSON.stringify({ floor: 1 }) });
    expect(bad.status).toBe(400);
    expect(service.ledger.report().notSent).toBe(1);

    await service.close();
    const after = await client.admit(claim);
    expect(after).toMatchObject({ admitted: false, stoppedBy: 'interrupt' });
    expect(after.admitted ? '' : after.reason).toMatch(/spend ledger is unreachable/);
    await client.settle(1, { calls: 1, tokens: 1, costUsd: null }); // no one to tell: no throw
    // the reporter and the CLI read the ledger after its server closed
    expect(limitRecordAt(service.url)).toMatchObject({ limits: { maxCalls: 2 }, stoppedBy: 'maxCalls' });
  });

  it('trials asking at once go in batches and are admitted exactly as one by one: never past the limit', async () => {
    const service = await startLedgerServer({ maxCalls: 10 });
    const client = createLedgerClient(service.url);
    const answers = await Promise.all(Array.from({ length: 40 }, () => client.admit(claim)));
    const admitted = answers.flatMap((a) => (a.admitted ? [a.id] : []));
    expect(admitted).toEqual(Array.from({ length: 10 }, (_, i) => i + 1));
    expect(answers.slice(10).every((a) => !a.admitted && a.stoppedBy === 'maxCalls')).toBe(true);
    await Promise.all(admitted.map((id) => client.settle(id, { calls: 1, tokens: 7, costUsd: null })));
    expect(service.ledger.report()).toMatchObject({ notSent: 30, spent: { calls: 10, tokens: 70 } });
    expect(service.ledger.inFlight).toBe(0);
    const empty = await fetch(`${service.url}/admit`, { method: 'POST', body: JSON.stringify({ claims: [] }) });
    expect(empty.status).toBe(400);
    await service.close();
  });

  it('a worker admits from its reserve without a round trip, and returns the reserve as soon as the run stops', async () => {
    const service = await startLedgerServer({});
    // never idle here: only the stop can bring the reserve back
    const client = createLedgerClient(service.url, { idleReturnMs: 600_000 });
    const ids = async (n: number) =>
      (await Promise.all(Array.from({ length: n }, () => client.admit(claim)))).map((a) => (a.admitted ? a.id : 0));
    expect(await ids(8)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]); // 8 in flight in this worker: its reserve is 8
    expect(await ids(1)).toEqual([9]); // asked, with a reserve of 8: ids 10–17
    expect(service.ledger.inFlight).toBe(17);
    // the next 8 are admitted from the reserve, in this worker, without asking; the worker tells their claims after
    const wide = { ...claim, cap: { calls: 6, tokens: 5000, costUsd: null } };
    const local = await Promise.all(Array.from({ length: 8 }, () => client.admit(wide)));
    expect(local.map((a) => (a.admitted ? a.id : 0))).toEqual([17, 16, 15, 14, 13, 12, 11, 10]);
    const capTokens = () => {
      const bound = service.ledger.report().overshootBound; // peak in flight × the per-trial cap (6 calls)
      return bound.tokens / (bound.calls / 6);
    };
    await until(() => capTokens() === 5000);
    // half-empty, it was topped up in the background: the worker holds a reserve when the run stops
    await until(() => service.ledger.inFlight > 17);
    service.ledger.interrupt();
    // the stop reaches the worker on its held-open request: what is left of its reserve comes back unused
    await until(() => service.ledger.inFlight === 17);
    expect(await client.admit(claim)).toMatchObject({ admitted: false, stoppedBy: 'interrupt' });
    await Promise.all(
      Array.from({ length: 17 }, (_, i) => client.settle(i + 1, { calls: 1, tokens: 3, costUsd: null })),
    );
    expect(service.ledger.report()).toMatchObject({ notSent: 1, spent: { calls: 17, tokens: 51 } });
    expect(service.ledger.inFlight).toBe(0);
    await service.close();
  });

  it('a reserve goes back when unused a while, and with the settle of the worker’s last trial; none with maxReserve 0', async () => {
    const service = await startLedgerServer({});
    const five = async (client: ReturnType<typeof createLedgerClient>) => {
      const ids = (await Promise.all(Array.from({ length: 4 }, () => client.admit(claim)))).map((a) =>
        a.admitted ? a.id : 0,
      );
      const fifth = await client.admit(claim); // asked, with a reserve of 4 when the worker holds one
      return [...ids, fifth.admitted ? fifth.id : 0];
    };
    const spent = { calls: 1, tokens: 1, costUsd: null };

    const idle = createLedgerClient(service.url, { idleReturnMs: 50 });
    const first = await five(idle);
    expect(service.ledger.inFlight).toBe(9);
    for (const id of first.slice(1)) await idle.settle(id, spent);
    await until(() => service.ledger.inFlight === 1); // unused: back, while one trial is still in flight
    await idle.settle(first[0], spent);

    const last = createLedgerClient(service.url, { idleReturnMs: 600_000 });
    const second = await five(last);
    expect(service.ledger.inFlight).toBe(9);
    for (const id of second) await last.settle(id, spent);
    expect(service.ledger.inFlight).toBe(0); // back with the last settle, before it returned
    expect(service.ledger.report().spent).toMatchObject({ calls: 10, tokens: 10 });

    const asking = createLedgerClient(service.url, { maxReserve: 0 });
    await five(asking);
    expect(service.ledger.inFlight).toBe(5);
    await service.close();
  });

  it('a run with neither a limit nor an interrupt has no limit record (its ledger only stood by for Ctrl-C)', async () => {
    const service = await startLedgerServer({});
    expect(limitRecordAt(service.url)).toBeUndefined();
    service.ledger.interrupt();
    expect(limitRecordAt(service.url)).toMatchObject({ limits: {}, stoppedBy: 'interrupt' });
    await service.close();
  });
});

describe('the openai subject’s budget step', () => {
  it('asks before sending: refused trials are not-sent, never requested, never cached; spend is the server’s usage', async () => {
    const server = await serve();
    const dir = await tempDir('cb-ledger-cache-');
    cleanups.push(dir.remove);
    const ledger = new SpendLedger({ maxCalls: 3 });
    const subject = loopbackSubject(server.baseURL, {
      cacheDir: dir.path,
      limiter: { concurrency: 1 },
      spend: { gate: localGate(ledger), prices: {} },
    });
    const requests = [0, 1, 2, 3, 4].map((i) => stepsRequest(3, 100 + i, 0));
    const responses: TrialResponse[] = [];
    for (const request of requests) responses.push(await subject.answer(request));
    expect(responses.map((r) => r.kind)).toEqual(['answer', 'answer', 'answer', 'not-sent', 'not-sent']);
    expect(responses[3]).toMatchObject({
      kind: 'not-sent',
      attempts: 0,
      reason: 'not sent: the spending limit --max-calls 3 calls was reached',
    });
    expect(server.log).toHaveLength(3);
    expect(ledger.report()).toMatchObject({
      spent: { calls: 3, tokens: usageSum(server), costUsd: null },
      stoppedBy: 'maxCalls',
      notSent: 2,
    });

    // a cache hit never asks: a ledger that admits nothing still serves the answered trials, and the refused
    // ones (never cached) are refused again
    const closed = new SpendLedger({});
    closed.interrupt();
    const again = loopbackSubject(server.baseURL, {
      cacheDir: dir.path,
      spend: { gate: localGate(closed), prices: {} },
    });
    const replayed = await Promise.all(requests.map((r) => again.answer(r)));
    expect(replayed.map((r) => (r.kind === 'answer' ? r.cacheHit : r.kind))).toEqual([
      true,
      true,
      true,
      'not-sent',
      'not-sent',
    ]);
    expect(closed.report()).toMatchObject({ notSent: 2, spent: { calls: 0, tokens: 0 } });
    expect(server.log).toHaveLength(3);
  });

  it('counts retries as calls and prices the provider’s tokens at the price table', async () => {
    const server = await serve({
      fault: (_request, { attempt }) => (attempt === 1 ? { kind: 'status', status: 500 } : undefined),
    });
    const price = { input: 0.5, output: 1.5 };
    const ledger = new SpendLedger({ maxCost: 1 });
    const subject = loopbackSubject(server.baseURL, {
      spend: { gate: localGate(ledger), prices: { 'loop-model': price } },
    });
    const responses = await Promise.all([1, 2, 3].map((i) => subject.answer(stepsRequest(4, 200 + i, 0))));
    expect(responses.every((r) => r.kind === 'answer' && r.attempts === 2)).toBe(true);
    const cost = server.log.reduce(
      (sum, r) =>
        sum +
        (r.usage
          ? costOf(
              { prompt: r.usage.promptTokens, cachedPrompt: 0, completion: r.usage.completionTokens, reasoning: 0 },
              price,
            )
          : 0),
      0,
    );
    const report = ledger.report();
    expect(report.spent.calls).toBe(6);
    expect(report.spent.tokens).toBe(usageSum(server));
    expect(report.spent.costUsd).toBeCloseTo(cost, 12);
    expect(report.stoppedBy).toBeNull();
  });

  it('asks under the limiter slot: on an interrupt, trials still queued for the limiter send nothing', async () => {
    const server = await serve({ latency: { medianMs: 150, sigma: 0, seed: 1 } });
    const ledger = new SpendLedger({});
    const subject = loopbackSubject(server.baseURL, {
      limiter: { concurrency: 1 },
      spend: { gate: localGate(ledger), prices: {} },
    });
    const pending = [1, 2, 3, 4].map((i) => subject.answer(stepsRequest(2, 300 + i, 0)));
    while (server.log.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    ledger.interrupt();
    const responses = await Promise.all(pending);
    expect(responses.map((r) => r.kind)).toEqual(['answer', 'not-sent', 'not-sent', 'not-sent']);
    expect(server.log).toHaveLength(1);
    expect(ledger.report()).toMatchObject({ stoppedBy: 'interrupt', notSent: 3, spent: { calls: 1 } });
  });
});

/** A subject that answers like `inner` for its first `sent` calls, then as the ledger does once a limit is hit. */
function limitedSubject(inner: Subject, sent: number, inFlight: { now: number; atRefusal: number[] }): Subject {
  let calls = 0;
  return {
    identity: inner.identity,
    async answer(request: TrialRequest): Promise<TrialResponse> {
      if (calls++ >= sent) {
        inFlight.atRefusal.push(inFlight.now);
        return {
          kind: 'not-sent',
          reason: 'not sent: the spending limit --max-calls 9 calls was reached',
          latencyMs: 0,
          attempts: 0,
        };
      }
      inFlight.now++;
      try {
        return await inner.answer(request);
      } finally {
        inFlight.now--;
      }
    },
  };
}

describe('assays on a refused trial', () => {
  it('a sweep trial the ledger refused is outcome `budget`: missing data, with its reason', async () => {
    const refusing: Subject = {
      identity: { spec: 'test', kind: 'sim', parameters: {} },
      answer: async () => ({
        kind: 'not-sent',
        reason: 'not sent: the run was interrupted',
        latencyMs: 0,
        attempts: 0,
      }),
    };
    const request = stepsRequest(3, 7, 0);
    const record = await runTrial(refusing, {
      task: steps,
      instance: request.instance,
      variant: 'default',
      trialIndex: 0,
    });
    expect(record).toMatchObject({
      outcome: { family: 'ccb', kind: 'budget', issues: ['not sent: the run was interrupted'] },
      usage: null,
      cacheHit: false,
      attempts: 0,
    });
  });

  it('SCC: the ladder stops with no measured CC (a lower bound only), after the trials in flight have landed', async () => {
    const inFlight = { now: 0, atRefusal: [] as number[] };
    const inner = scriptedSubject({ capacity: 200, blank: 0, cut: 0, salt: 1, latencyMs: 5 });
    // the preflight and the first tiers are answered; the ledger refuses the 40th call
    const subject = limitedSubject(inner, 39, inFlight);
    const result = await runSccAssay(subject, { seed: 7, concurrency: 4 });
    expect(result.stopped).toMatchObject({ by: 'budget', at: 'tier', reason: expect.stringMatching(/^not sent/) });
    expect(result).toMatchObject({ ccUpper: null, bounded: false });
    expect(result.cc).toBe(Math.max(0, ...result.tiers.filter((t) => t.passed).map((t) => t.center)));
    // nothing was left running when the assay gave up: its answers in flight are in (the response cache, for a
    // real subject), and no trial was launched after the first refusal
    expect(inFlight.now).toBe(0);
    expect(inFlight.atRefusal.length).toBeGreaterThan(0);
  });

  it('an SCC secondary request the ledger refused is missing data (an error answer), as a transport failure is', async () => {
    const refusing: Subject = {
      identity: { spec: 'test', kind: 'sim', parameters: {} },
      answer: async () => ({
        kind: 'not-sent',
        reason: 'not sent: the run was interrupted',
        latencyMs: 0,
        attempts: 0,
      }),
    };
    const request = stepsRequest(3, 7, 0);
    const asked = await ask(refusing, { ...request, maxOutputTokens: 100 });
    expect(asked).toMatchObject({
      kind: 'error',
      error: 'not sent: the run was interrupted',
      usage: { end: 'not-sent' },
    });
  });
});

describe('the run configuration and its ledger', () => {
  const saved = { ...process.env };
  afterEach(() => {
    for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
    Object.assign(process.env, saved);
  });
  const host = (root: string, closers: (() => unknown)[]) => ({
    config: { root },
    import: <T>(path: string) => import(path) as Promise<T>,
    onClose: (fn: () => unknown) => closers.push(fn),
  });
  const env = (values: Record<string, string>) => {
    for (const key of Object.keys(process.env)) if (key.startsWith('CEILINGBENCH_')) delete process.env[key];
    Object.assign(process.env, { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1', ...values });
  };

  it('a cost limit on a subject without a price is a configuration error before anything is sent', async () => {
    env({ CEILINGBENCH_SUBJECT: 'openai:unpriced', CEILINGBENCH_MAX_COST: '5' });
    const closers: (() => unknown)[] = [];
    const failed = runConfigFor(host(mkdtempSync(join(tmpdir(), 'cb-ledger-root-')), closers));
    await expect(failed).rejects.toBeInstanceOf(ConfigError);
    await expect(failed).rejects.toThrow(/needs a price for openai:unpriced: add prices: \{ 'openai:unpriced'/);
    expect(closers).toHaveLength(0);
  });

  it('a paid subject under a limit gets a ledger, closed with Vitest; an unpaid one gets none', async () => {
    env({ CEILINGBENCH_SUBJECT: 'openai:m', CEILINGBENCH_MAX_CALLS: '10' });
    const closers: (() => unknown)[] = [];
    const config = await runConfigFor(host(mkdtempSync(join(tmpdir(), 'cb-ledger-root-')), closers));
    expect(config.spendLedger).toMatchObject({ interruptible: false });
    expect(ledgerAt(config.spendLedger?.url)?.limits).toEqual({ maxCalls: 10 });
    expect(closers).toHaveLength(1);
    for (const close of closers) await close();
    await expect(fetch(`${config.spendLedger?.url}/admit`, { method: 'POST', body: '{}' })).rejects.toThrow();

    env({ CEILINGBENCH_SUBJECT: 'sim:default', CEILINGBENCH_MAX_CALLS: '10' });
    const unpaid = await runConfigFor(host(mkdtempSync(join(tmpdir(), 'cb-ledger-root-')), []));
    expect(unpaid.spendLedger).toBeUndefined();
  });
});
