import { afterAll, describe, expect, it } from 'vitest';
import { PyRandom } from '../../src/rng/index.js';
import type { TrialRequest, TrialResponse } from '../../src/subjects/index.js';
import { RateLimiter } from '../../src/subjects/limiter.js';
import {
  type Fault,
  type LoopbackOptions,
  type LoopbackServer,
  startLoopbackServer,
} from '../support/loopback-server.js';
import {
  FAST_RETRY,
  filesUnder,
  loopbackSubject,
  SENTINEL_API_KEY,
  stepsRequest,
  tempDir,
} from '../support/openai-harness.js';
import { simStepsAnswerer } from '../support/sim-over-http.js';
import { fakeClock } from './fake-clock.js';

const servers: LoopbackServer[] = [];
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const server of servers) await server.close();
  for (const cleanup of cleanups) await cleanup();
});

/** A server whose faults can be switched off, to get the fault-free answer of the same trial keys. */
async function serve(fault?: LoopbackOptions['fault'], latency?: LoopbackOptions['latency']) {
  const state = { faults: true };
  const server = await startLoopbackServer({
    answer: simStepsAnswerer(0.8),
    fault: (request, context) => (state.faults ? fault?.(request, context) : undefined),
    latency,
  });
  servers.push(server);
  return Object.assign(server, {
    cleanAnswers: (requests: TrialRequest[]) => {
      state.faults = false;
      return Promise.all(requests.map((r) => loopbackSubject(server.baseURL).answer(r)));
    },
  });
}

const textOf = (r: TrialResponse) =>
  r.kind === 'answer' ? r.text : `${r.kind}: ${r.kind === 'error' ? r.error : r.reason}`;

/** Short request timeouts so that hanging requests time out fast (only where a hang is injected). */
const HANG_RETRY = { ...FAST_RETRY, requestTimeoutMs: 150 };
const retryFor = (fault: Fault) => (fault.kind === 'hang' ? HANG_RETRY : FAST_RETRY);
/** Faults of the endpoint as a whole (retry.ts FaultScope): waited out at the endpoint gate, bounded by time. */
const endpointWide = (fault: Fault) =>
  fault.kind === 'drop' || (fault.kind === 'status' && [429, 502, 503, 504].includes(fault.status));

const TRANSIENT: [string, Fault][] = [
  ['429 with Retry-After', { kind: 'status', status: 429, retryAfter: '0.01' }],
  ['408', { kind: 'status', status: 408 }],
  ['409', { kind: 'status', status: 409 }],
  ['500', { kind: 'status', status: 500 }],
  ['503', { kind: 'status', status: 503 }],
  ['malformed JSON', { kind: 'malformed-json' }],
  ['a non-JSON body', { kind: 'text-body' }],
  ['a dropped connection', { kind: 'drop' }],
  ['a hanging request', { kind: 'hang' }],
];

describe('fault injection', () => {
  it.each(TRANSIENT)('%s twice, then success: a retried answer, identical to the fault-free one', async (_, fault) => {
    const server = await serve((_request, { attempt }) => (attempt <= 2 ? fault : undefined));
    const request = stepsRequest(5, 77, 3);
    const response = await loopbackSubject(server.baseURL, { retry: retryFor(fault) }).answer(request);
    expect(response).toMatchObject({ kind: 'answer', attempts: 3, cacheHit: false });
    expect(server.log.map((r) => r.outcome)).toEqual([fault.kind, fault.kind, 'answered']);
    expect(server.repeats()).toBe(0);
    const [clean] = await server.cleanAnswers([request]);
    expect(textOf(response)).toBe(textOf(clean));
  });

  it.each(TRANSIENT.filter(([, f]) => !endpointWide(f)))(
    '%s forever: an error response after the bounded attempts, never cached',
    async (_, fault) => {
      const server = await serve(() => fault);
      const dir = await tempDir('cb-faults-');
      cleanups.push(dir.remove);
      const response = await loopbackSubject(server.baseURL, { retry: retryFor(fault), cacheDir: dir.path }).answer(
        stepsRequest(4, 1, 0),
      );
      expect(response).toMatchObject({ kind: 'error', attempts: FAST_RETRY.maxAttempts });
      if (response.kind === 'error') expect(response.error).toMatch(/gave up after 5 attempts/);
      expect(server.log).toHaveLength(FAST_RETRY.maxAttempts);
      expect(await filesUnder(dir.path)).toEqual([]);
    },
  );

  it.each(TRANSIENT.filter(([, f]) => endpointWide(f)))(
    '%s forever from an endpoint that never answered: retried for the retry budget, then the run stops once',
    async (_, fault) => {
      const server = await serve(() => fault);
      const dir = await tempDir('cb-faults-');
      cleanups.push(dir.remove);
      const subject = loopbackSubject(server.baseURL, { retry: retryFor(fault), cacheDir: dir.path });
      const response = await subject.answer(stepsRequest(4, 1, 0));
      expect(response).toMatchObject({ kind: 'error', stopsRun: true });
      if (response.kind === 'error') {
        expect(response.error).toMatch(
          /run stopped \(CB_PROVIDER_FATAL\): the endpoint kept failing for .*RETRY_MAX_MS=300/,
        );
      }
      // the probes of an endpoint that never answered are bounded by time, not by the trial's attempts
      expect(response.attempts).toBe(server.log.length);
      const sent = server.log.length;
      const later = await subject.answer(stepsRequest(4, 1, 1));
      expect(later).toMatchObject({ kind: 'error', stopsRun: true, attempts: 0 });
      expect(server.log).toHaveLength(sent);
      expect(await filesUnder(dir.path)).toEqual([]);
    },
  );

  it.each([400, 401, 404, 422])('HTTP %i is not retried', async (status) => {
    const server = await serve(() => ({ kind: 'status', status }));
    const response = await loopbackSubject(server.baseURL).answer(stepsRequest(2, 1, 0));
    expect(response).toMatchObject({ kind: 'error', attempts: 1 });
    if (response.kind === 'error') expect(response.error).toMatch(new RegExp(`HTTP ${status}`));
  });

  it('honours Retry-After over its own (2 ms) backoff', async () => {
    const server = await serve((_r, { attempt }) =>
      attempt === 1 ? { kind: 'status', status: 429, retryAfter: '0.2' } : undefined,
    );
    const clock = fakeClock();
    const response = await loopbackSubject(server.baseURL, { clock }).answer(stepsRequest(2, 1, 0));
    expect(response).toMatchObject({ kind: 'answer', attempts: 2 });
    expect(clock.sleeps).toEqual([200]); // the server's wait, not the 2 ms backoff
  });

  it('stops the run at once when Retry-After exceeds the retry budget, with the provider’s reason', async () => {
    const server = await serve(() => ({ kind: 'status', status: 429, retryAfter: '3600', message: 'Daily limit' }));
    const clock = fakeClock();
    const response = await loopbackSubject(server.baseURL, { clock }).answer(stepsRequest(2, 1, 0));
    expect(response).toMatchObject({ kind: 'error', attempts: 1, stopsRun: true });
    if (response.kind === 'error') {
      expect(response.error).toMatch(/asks to wait 3600 s, longer than the retry budget allows.*429 Daily limit/);
      expect(response.error).toMatch(/rerun later/);
    }
    expect(clock.sleeps).toEqual([]); // no wait at all
    expect(server.log).toHaveLength(1);
  });

  it('stops within the total time budget even when attempts remain', async () => {
    // Hanging requests time out after 50 ms, so at most ~6 fit the 300 ms; the loop's time arithmetic itself is
    // checked with a fake clock in retry-loop.test.ts.
    const server = await serve(() => ({ kind: 'hang' }));
    const response = await loopbackSubject(server.baseURL, {
      retry: { ...FAST_RETRY, maxAttempts: 100, requestTimeoutMs: 50, maxTotalMs: 300 },
    }).answer(stepsRequest(2, 1, 0));
    expect(response.kind).toBe('error');
    if (response.kind === 'error') expect(response.error).toMatch(/time budget/);
    expect(response.attempts).toBeLessThan(10);
    // the last attempt is cut short by the budget, on a loaded machine before the server has read it
    expect(server.log.length).toBeLessThanOrEqual(response.attempts);
    expect(server.log.length).toBeGreaterThanOrEqual(response.attempts - 1);
  });

  it('a seeded storm of mixed faults: every trial ends answered or error, no crash, no double count', async () => {
    const schedule = new PyRandom('fault-storm');
    const faults: (Fault | undefined)[] = Array.from({ length: 400 }, () => {
      const u = schedule.random();
      if (u < 0.55) return undefined;
      return [
        { kind: 'status', status: 429, retryAfter: '0.005' },
        { kind: 'status', status: 500 },
        { kind: 'status', status: 502 },
        { kind: 'malformed-json' },
        { kind: 'drop' },
        { kind: 'hang' },
        { kind: 'text-body' },
      ][schedule.randbelow(7)] as Fault;
    });
    const server = await serve((_r, { serial }) => faults[(serial - 1) % faults.length], {
      medianMs: 3,
      sigma: 0.8,
      seed: 9,
    });
    const dir = await tempDir('cb-storm-');
    cleanups.push(dir.remove);
    // The request timeout is 40× the latency cap, so only injected hangs time out: a request the server
    // answered is never abandoned and re-sent (that would be a real double charge, which no client can see).
    // At 300 ms, a loaded machine (load 7 on 2 cores) stalled this process's event loop past the timer while
    // the answer sat in the socket: the timer phase runs before the poll phase, so the answer was abandoned.
    const subject = loopbackSubject(server.baseURL, {
      retry: { ...FAST_RETRY, requestTimeoutMs: 1_200, maxTotalMs: 20_000 },
      cacheDir: dir.path,
      limiter: { concurrency: 6 },
    });
    const requests = Array.from({ length: 60 }, (_, i) => stepsRequest(4, 100 + (i % 15), Math.floor(i / 15)));
    const responses = await Promise.all(requests.map((r) => subject.answer(r)));

    const answered = responses.filter((r) => r.kind === 'answer');
    expect(answered.length + responses.filter((r) => r.kind === 'error').length).toBe(60);
    expect(answered.length).toBeGreaterThan(50);
    // no double count: one successful call per trial, and the attempts reported add up to the requests seen
    if (server.repeats() > 0) {
      const keys = new Set(server.log.filter((r) => r.repeat).map((r) => r.trialKey));
      for (const k of keys) {
        const first = server.log.find((r) => r.trialKey === k) as unknown as { port: number };
        console.log(
          JSON.stringify(
            server.log
              .filter((r) => r.trialKey === k || (r as unknown as { port: number }).port === first.port)
              .map((r) => ({ ...r, trialKey: r.trialKey.slice(0, 6) })),
          ),
        );
      }
    }
    expect(server.repeats()).toBe(0);
    const successes = server.log.filter((r) => r.outcome === 'answered');
    expect(new Set(successes.map((r) => r.trialKey)).size).toBe(successes.length);
    expect(responses.reduce((sum, r) => sum + r.attempts, 0)).toBe(server.log.length);
    // only answers were cached
    expect((await filesUnder(dir.path)).filter((f) => f.endsWith('.json'))).toHaveLength(answered.length);
    // every answer is the fault-free answer of its own trial
    const clean = await server.cleanAnswers(requests);
    responses.forEach((r, i) => {
      if (r.kind === 'answer') expect(r.text).toBe(textOf(clean[i]));
    });
  });

  it('frees its limiter slot on every path (a one-slot limiter never deadlocks)', { timeout: 5000 }, async () => {
    const server = await serve((_r, { serial }) => (serial % 2 === 0 ? { kind: 'status', status: 500 } : undefined));
    const limiter = new RateLimiter({ concurrency: 1 });
    const subject = loopbackSubject(server.baseURL, { limiter, retry: { ...FAST_RETRY, maxTotalMs: 1 } });
    const responses = await Promise.all(Array.from({ length: 6 }, (_, i) => subject.answer(stepsRequest(2, i, 0))));
    expect(responses).toHaveLength(6);
    expect(limiter.active).toBe(0);
    expect(limiter.pending).toBe(0);
  });

  it('redacts the API key from error texts a provider echoes back', async () => {
    const server = await startLoopbackServer({
      answer: () => ({ text: '' }),
      fault: (request) => ({ kind: 'status', status: 401, message: `bad key ${request.authorization}` }),
    });
    servers.push(server);
    const response = await loopbackSubject(server.baseURL).answer(stepsRequest(2, 1, 0));
    expect(response.kind).toBe('error');
    if (response.kind === 'error') {
      expect(response.error).toMatch(/bad key Bearer \*\*\*/);
      expect(response.error).not.toContain(SENTINEL_API_KEY);
    }
  });
});
