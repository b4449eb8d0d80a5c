import { APIError } from 'openai';
import { describe, expect, it } from 'vitest';
import { countChatTokens } from '../../src/spend/tokenizer.js';
import type { LeaseOutcome } from '../../src/subjects/limiter.js';
import { LimiterAbortError, type LimiterClock, RateLimiter } from '../../src/subjects/limiter.js';
import { attemptUnderLease, requestTokenEstimate, withLease } from '../../src/subjects/openai/limiter-step.js';
import type { AttemptResult } from '../../src/subjects/openai/retry.js';

/** A limiter clock whose time moves only when the test says; timers fire then. */
function manualClock() {
  let now = 0;
  let timers: { at: number; fn: () => void }[] = [];
  const clock: LimiterClock = {
    now: () => now,
    setTimeout: (fn, ms) => {
      const timer = { at: now + ms, fn };
      timers.push(timer);
      return timer;
    },
    clearTimeout: (handle) => {
      timers = timers.filter((t) => t !== handle);
    },
  };
  const advance = (ms: number) => {
    now += ms;
    const due = timers.filter((t) => t.at <= now);
    timers = timers.filter((t) => t.at > now);
    for (const t of due) t.fn();
  };
  return { clock, advance };
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe('the limiter step', () => {
  it('charges a request its messages as the tokenizer counts them (not chars / 4), plus its whole output budget', () => {
    const messages = [
      { role: 'system', content: 'Count the steps.' },
      { role: 'user', content: 'Start at 0. Add 3, then add 7, then subtract 2. What is the total?' },
    ];
    expect(requestTokenEstimate(messages, 100)).toBe(countChatTokens(messages) + 100);
    const charsOver4 = messages.reduce((sum, m) => sum + Math.ceil(m.content.length / 4), 0);
    expect(countChatTokens(messages)).not.toBe(charsOver4);
  });

  it('holds a slot while the request runs, frees it after, charging the tokens used', async () => {
    const { clock, advance } = manualClock();
    const limiter = new RateLimiter({ concurrency: 1, tokensPerMinute: 100 }, clock);
    let release!: () => void;
    const first = withLease(limiter, 90, () => new Promise<string>((r) => (release = () => r('a'))), {
      usedTokens: () => 10, // the estimate was 90, the provider says 10
    });
    await flush();
    expect(limiter.active).toBe(1);
    const second = withLease(limiter, 80, async () => 'b');
    await flush();
    expect(limiter.pending).toBe(1); // one slot
    release();
    expect(await first).toBe('a');
    // 10 + 80 fit the 100 tokens of the window: the corrected charge lets the second in at once
    expect(await second).toBe('b');
    expect(limiter.active).toBe(0);
    // without the correction (90 + 80 > 100) the second would wait for the window to slide
    advance(60_000);
  });

  it('frees its slot when the request throws', async () => {
    const limiter = new RateLimiter({ concurrency: 1 });
    await expect(
      withLease(limiter, 1, async () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(limiter.active).toBe(0);
    expect(await withLease(limiter, 1, async () => 'next')).toBe('next');
  });

  it('reports how long the request queued, by the injected clock', async () => {
    const limiter = new RateLimiter({ concurrency: 1 });
    let now = 0;
    let hold!: () => void;
    const first = withLease(limiter, 1, () => new Promise<void>((r) => (hold = r)));
    const queued: number[] = [];
    const second = withLease(limiter, 1, async () => 'ran', { now: () => now, onQueued: (ms) => queued.push(ms) });
    await flush();
    now = 250;
    hold();
    await first;
    expect(await second).toBe('ran');
    expect(queued).toEqual([250]);
  });

  it('rejects with LimiterAbortError, before running the request, when aborted while queued', async () => {
    const limiter = new RateLimiter({ concurrency: 1 });
    let hold!: () => void;
    const first = withLease(limiter, 1, () => new Promise<void>((r) => (hold = r)));
    const controller = new AbortController();
    let ran = false;
    const second = withLease(
      limiter,
      1,
      async () => {
        ran = true;
      },
      { signal: controller.signal },
    );
    controller.abort();
    await expect(second).rejects.toBeInstanceOf(LimiterAbortError);
    hold();
    await first;
    expect(ran).toBe(false);
    expect([limiter.active, limiter.pending]).toEqual([0, 0]);
  });

  it('tells an adaptive limiter how each request went; a throw is neutral', async () => {
    const limiter = new RateLimiter({}); // no concurrency configured: adaptive, 1 at first
    expect(limiter.concurrency).toBe(1);
    // four answers measure the unloaded latency (then 2), four more add a slot each (slow start)
    for (let i = 0; i < 8; i++) await withLease(limiter, 1, async () => 'ok', { outcome: () => 'success' });
    expect(limiter.concurrency).toBe(6);
    await expect(
      withLease(limiter, 1, async () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    await withLease(limiter, 1, async () => 'no outcome given');
    expect(limiter.concurrency).toBe(6);
    expect(limiter.pace?.rate(performance.now())).toBeUndefined();
    // a 429 at a concurrency the endpoint answers: a rate refusal, which paces the requests
    await withLease(limiter, 1, async () => '429', { outcome: () => 'rate-limited' });
    expect(limiter.concurrency).toBe(6);
    expect(limiter.pace?.rate(performance.now())).toBeGreaterThan(0);
  });
});

describe('attemptUnderLease: what an attempt tells the limiter', () => {
  it('only a trial’s first 429 is a rate refusal; a 500 is sent and neutral; a request never sent gives its slot back', async () => {
    const told: LeaseOutcome[] = [];
    // a limiter that records what each lease is released with
    const limiter = {
      acquire: async () => ({ release: (_tokens?: number, outcome: LeaseOutcome = 'other') => told.push(outcome) }),
    } as unknown as RateLimiter;
    const status = (code: number) =>
      APIError.generate(code, { error: { message: `HTTP ${code}` } }, 'x', new Headers());
    const request = { messages: [{ role: 'user' as const, content: 'hi' }], budget: 10 };
    const attempt = (result: AttemptResult<{ usage?: null }>, refused: { before: boolean }) =>
      attemptUnderLease(limiter, request, async () => result, { refused });
    const trial = { before: false };
    await attempt({ kind: 'failed', error: status(429), sent: true }, trial);
    await attempt({ kind: 'failed', error: status(429), sent: true }, trial); // the same trial, refused again
    await attempt({ kind: 'failed', error: status(500), sent: true }, trial);
    await attempt({ kind: 'deferred' }, trial); // the endpoint closed while it waited for its slot
    await attempt({ kind: 'resend' }, trial); // sent, rejected a default: it used the rate
    await attempt({ kind: 'failed', error: status(429), sent: true }, { before: false }); // another trial
    expect(told).toEqual(['rate-limited', 'refused', 'other', 'unsent', 'other', 'rate-limited']);
  });
});
