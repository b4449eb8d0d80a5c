import { describe, expect, it } from 'vitest';
import { RateLimiter } from '../../src/subjects/limiter.js';
import { EndpointGate } from '../../src/subjects/openai/endpoint-gate.js';
import { createOpenAiSubject } from '../../src/subjects/openai/openai-subject.js';
import type { TrialResponse } from '../../src/subjects/subject.js';
import { stepsRequest } from '../support/openai-harness.js';
import { virtualClock } from './virtual-clock.js';

/**
 * The endpoint gate through the whole openai subject, in virtual time: a simulated endpoint (the SDK's fetch)
 * answers by the virtual clock, so a 40 s retryDelay or a 45 s model load is checked by counting requests, not
 * by waiting. 20 trials, 4 in flight, as a CCB cell.
 */
const TRIALS = 20;

type Behaviour = (now: number, trialKey: string) => Response | undefined;

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

const COMPLETION = {
  choices: [{ message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 5, completion_tokens: 1 },
};

let port = 0;

/** Runs TRIALS trials against an endpoint that behaves as `behave` says (undefined: a completion). */
async function cell(behave: Behaviour, trials = TRIALS, concurrency = 4) {
  const { clock, run, now } = virtualClock();
  const log: { at: number; trialKey: string; status: number }[] = [];
  const fetch = async (_url: unknown, init?: RequestInit): Promise<Response> => {
    const trialKey = new Headers(init?.headers).get('x-ceilingbench-trial') ?? '?';
    const response = behave(now(), trialKey) ?? json(200, COMPLETION);
    log.push({ at: now(), trialKey, status: response.status });
    return response;
  };
  const subject = createOpenAiSubject({
    model: 'gate-model',
    // a base URL of its own per case: the gate is process-wide per endpoint and model
    baseURL: `http://gate.invalid:${++port}/v1`,
    apiKey: 'sk-gate',
    clock,
    fetch: fetch as typeof globalThis.fetch,
    limiter: new RateLimiter({ concurrency }),
  });
  const responses: TrialResponse[] = await run(
    Promise.all(Array.from({ length: trials }, (_, i) => subject.answer(stepsRequest(3, 11, i)))),
  );
  const perTrial = new Map<string, number>();
  for (const r of log) perTrial.set(r.trialKey, (perTrial.get(r.trialKey) ?? 0) + 1);
  return { responses, log, perTrial, elapsed: now() };
}

const geminiQuota = (retryDelay: string) =>
  json(429, [
    {
      error: {
        code: 429,
        message: 'You exceeded your current quota, please check your plan and billing details.',
        status: 'RESOURCE_EXHAUSTED',
        details: [
          { '@type': 'type.googleapis.com/google.rpc.QuotaFailure', violations: [{ quotaMetric: 'x' }] },
          { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay },
        ],
      },
    },
  ]);

const loading = () => json(503, { error: { code: 503, message: 'Loading model', type: 'unavailable_error' } });

describe('the endpoint gate (virtual time, the whole subject)', () => {
  it('a Gemini 429 list asking for 40 s: every trial answered with at most 2 requests, about one per wait', async () => {
    const { responses, log, perTrial, elapsed } = await cell((now) =>
      now < 40_000 ? geminiQuota(`${Math.ceil((40_000 - now) / 1000)}s`) : undefined,
    );
    expect(responses.map((r) => r.kind)).toEqual(Array(TRIALS).fill('answer'));
    expect(Math.max(...perTrial.values())).toBeLessThanOrEqual(2);
    // the first 4 in flight, then one probe after the wait, then the rest
    expect(log.filter((r) => r.status === 429)).toHaveLength(4);
    expect(log).toHaveLength(TRIALS + 4);
    expect(log.find((r) => r.status === 200)?.at).toBe(40_000);
    expect(elapsed).toBeGreaterThanOrEqual(40_000);
  });

  it('a model that loads for 45 s (503 "Loading model", no Retry-After): no trial is api, ≤ 2 requests each', async () => {
    const { responses, log, perTrial } = await cell((now) => (now < 45_000 ? loading() : undefined));
    expect(responses.map((r) => r.kind)).toEqual(Array(TRIALS).fill('answer'));
    expect(Math.max(...perTrial.values())).toBeLessThanOrEqual(2);
    const failed = log.filter((r) => r.status === 503);
    // the first 4, then one probe per backoff (1, 2, 4, 8, 16, 30 s): about one request per wait
    expect(failed.length).toBeLessThanOrEqual(4 + 7);
    // after the first requests in flight, one probe at a time, each after a longer wait
    const probes = failed.filter((r) => r.at > 0).map((r) => r.at);
    expect(new Set(probes).size).toBe(probes.length);
    expect(probes).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 32_000]);
  });

  it('one trial alone through a 45 s load: its failed probes are the endpoint’s, not its attempts', async () => {
    const { responses, log } = await cell((now) => (now < 45_000 ? loading() : undefined), 1, 1);
    expect(responses[0]).toMatchObject({ kind: 'answer' });
    expect(log.length).toBeGreaterThan(6); // more than maxAttempts requests, bounded by the 300 s budget instead
    expect(responses[0]?.attempts).toBe(log.length);
  });

  it('Retry-After: 3600 stops the run once with the provider’s reason; no trial sends after it', async () => {
    const { responses, log } = await cell(() =>
      json(429, { error: { message: 'Daily request limit reached', type: 'rate_limit' } }, { 'retry-after': '3600' }),
    );
    expect(log.length).toBeLessThanOrEqual(4);
    expect(responses.every((r) => r.kind === 'error' && r.stopsRun)).toBe(true);
    const messages = new Set(responses.map((r) => (r.kind === 'error' ? r.error : '')));
    expect(messages.size).toBe(1);
    expect([...messages][0]).toMatch(
      /^run stopped \(CB_PROVIDER_FATAL\): the provider asks to wait 3600 s, .*Daily request limit reached — rerun later/,
    );
  });

  it('a request the endpoint keeps refusing while it serves others gives up after maxAttempts (api)', async () => {
    let bad: string | undefined;
    const { responses, perTrial } = await cell((_now, trialKey) => {
      bad ??= trialKey;
      return trialKey === bad ? json(429, { error: { message: 'slow down' } }, { 'retry-after': '0.5' }) : undefined;
    });
    const errors = responses.filter((r) => r.kind === 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ attempts: 6 });
    expect(errors[0]?.kind === 'error' && errors[0].stopsRun).toBeFalsy();
    expect(perTrial.get(bad ?? '')).toBe(6);
  });

  it('an endpoint down for longer than the retry budget stops the run (no trial fails one by one)', async () => {
    const { responses, log, elapsed } = await cell(() => loading());
    expect(responses.every((r) => r.kind === 'error' && r.stopsRun)).toBe(true);
    expect(responses[0]?.kind === 'error' && responses[0].error).toMatch(/the endpoint kept failing for \d+ s/);
    expect(elapsed).toBeLessThanOrEqual(300_000);
    expect(log.length).toBeLessThan(30);
  });
});

describe('the endpoint gate alone', () => {
  const policy = { baseDelayMs: 1_000, maxDelayMs: 30_000, retryMaxMs: 300_000 };

  it('a stop lasts as long as the wait it was about: a later run in the same process may try again', async () => {
    const { clock, run } = virtualClock();
    const gate = new EndpointGate(policy, clock);
    const forever = () => Number.POSITIVE_INFINITY;
    const first = await gate.pass(undefined, forever);
    expect(first).toMatchObject({ kind: 'go', probe: false });
    expect(gate.report(first, { kind: 'busy', reason: 'daily', waitMs: 3_600_000 })).toEqual({
      kind: 'stop',
      reason: expect.stringMatching(/asks to wait 3600 s.*: daily$/),
    });
    expect(await gate.pass(undefined, forever)).toMatchObject({ kind: 'stopped' });
    await run(clock.sleep(3_600_000));
    expect(await gate.pass(undefined, forever)).toMatchObject({ kind: 'go', probe: false });
  });

  it('a wait longer than the trial’s remaining time is `late`; an aborted trial leaves at once', async () => {
    const { clock } = virtualClock();
    const gate = new EndpointGate(policy, clock);
    const pass = await gate.pass(undefined, () => 1e9);
    gate.report(pass, { kind: 'busy', reason: 'busy', waitMs: 40_000 });
    expect(await gate.pass(undefined, () => 10_000)).toEqual({ kind: 'late', waitMs: 40_000 });
    const aborted = new AbortController();
    aborted.abort();
    expect(await gate.pass(aborted.signal, () => 1e9)).toEqual({ kind: 'aborted' });
  });

  it('a probe that says nothing (aborted, timed out) hands the probe to the next trial at once', async () => {
    const { clock, run } = virtualClock();
    const gate = new EndpointGate(policy, clock);
    const first = await gate.pass(undefined, () => 1e9);
    gate.report(first, { kind: 'busy', reason: 'loading' });
    const waitA = gate.pass(undefined, () => 1e9, {});
    const waitB = gate.pass(undefined, () => 1e9, {});
    const probe = await run(waitA);
    expect(probe).toMatchObject({ kind: 'go', probe: true });
    // the other trial waits for the probe's answer; a probe that says nothing hands the probe on
    gate.report(probe, { kind: 'none' });
    expect(await run(waitB)).toMatchObject({ kind: 'go', probe: true });
  });
});
