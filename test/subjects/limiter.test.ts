import { getEventListeners } from 'node:events';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  AdaptiveConcurrency,
  type LeaseOutcome,
  LimiterAbortError,
  type LimiterClock,
  PROBE_WINDOWS,
  RateLimiter,
  sharedLimiter,
  stepDown,
} from '../../src/subjects/limiter.js';

/** A manual clock: timers fire only when the test advances time. */
function manualClock() {
  let now = 0;
  let timers: { at: number; fn: () => void; id: number }[] = [];
  let nextId = 0;
  const clock: LimiterClock = {
    now: () => now,
    setTimeout: (fn, ms) => {
      const id = nextId++;
      timers.push({ at: now + ms, fn, id });
      return id;
    },
    clearTimeout: (id) => {
      timers = timers.filter((t) => t.id !== id);
    },
  };
  const advance = async (ms: number) => {
    now += ms;
    const due = timers.filter((t) => t.at <= now);
    timers = timers.filter((t) => t.at > now);
    for (const t of due) t.fn();
    await Promise.resolve();
  };
  return { clock, advance };
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe('RateLimiter', () => {
  it('never exceeds the concurrency bound and serves FIFO', async () => {
    const limiter = new RateLimiter({ concurrency: 3 });
    let inFlight = 0;
    let peak = 0;
    const order: number[] = [];
    await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        const lease = await limiter.acquire(1);
        order.push(i);
        inFlight++;
        peak = Math.max(peak, inFlight);
        await new Promise((resolve) => setTimeout(resolve, 1 + (i % 3)));
        inFlight--;
        lease.release();
      }),
    );
    expect(peak).toBe(3);
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(limiter.active).toBe(0);
  });

  it('holds requests per minute in a sliding window', async () => {
    const { clock, advance } = manualClock();
    const limiter = new RateLimiter({ concurrency: 100, requestsPerMinute: 2 }, clock);
    const granted: number[] = [];
    for (let i = 0; i < 5; i++) {
      limiter.acquire(0).then((lease) => {
        granted.push(i);
        lease.release();
      });
    }
    await flush();
    expect(granted).toEqual([0, 1]);
    await advance(59_999);
    await flush();
    expect(granted).toEqual([0, 1]);
    await advance(1);
    await flush();
    expect(granted).toEqual([0, 1, 2, 3]);
    await advance(60_000);
    await flush();
    expect(granted).toEqual([0, 1, 2, 3, 4]);
  });

  it('charges tokens per minute, corrected by the actual usage on release', async () => {
    const { clock, advance } = manualClock();
    const limiter = new RateLimiter({ tokensPerMinute: 1000 }, clock);
    const first = await limiter.acquire(900);
    let second = false;
    limiter.acquire(500).then(() => {
      second = true;
    });
    await flush();
    expect(second).toBe(false);
    first.release(100); // the call used far fewer tokens than estimated
    await flush();
    expect(second).toBe(true);
    // a request larger than the whole budget waits for an empty window, then goes alone
    let huge = false;
    limiter.acquire(5000).then(() => {
      huge = true;
    });
    await flush();
    expect(huge).toBe(false);
    await advance(60_000);
    await flush();
    expect(huge).toBe(true);
  });

  it('lets a waiting request be aborted without leaking its place', async () => {
    const limiter = new RateLimiter({ concurrency: 1 });
    const held = await limiter.acquire(1);
    const controller = new AbortController();
    const waiting = limiter.acquire(1, controller.signal);
    const behind = limiter.acquire(1);
    controller.abort();
    await expect(waiting).rejects.toBeInstanceOf(LimiterAbortError);
    expect(limiter.pending).toBe(1);
    held.release();
    (await behind).release();
    expect(limiter.active).toBe(0);
  });

  it('keeps one abort listener per signal however many of its requests wait, and none once they all have slots', async () => {
    const limiter = new RateLimiter({ concurrency: 1 });
    const held = await limiter.acquire(1);
    const shared = new AbortController();
    const other = new AbortController();
    const waiting = Array.from({ length: 20 }, (_, i) =>
      limiter.acquire(1, i % 5 === 0 ? other.signal : shared.signal),
    );
    expect(getEventListeners(shared.signal, 'abort')).toHaveLength(1);
    expect(getEventListeners(other.signal, 'abort')).toHaveLength(1);
    other.abort();
    // every waiter under the aborted signal is rejected and leaves the queue; the others keep their places
    const settled = await Promise.allSettled(waiting.filter((_, i) => i % 5 === 0));
    expect(settled.every((r) => r.status === 'rejected' && r.reason instanceof LimiterAbortError)).toBe(true);
    expect(limiter.pending).toBe(16);
    held.release();
    for (const [i, lease] of waiting.entries()) if (i % 5 !== 0) (await lease).release();
    expect(getEventListeners(shared.signal, 'abort')).toHaveLength(0);
    expect(limiter.active).toBe(0);
  });

  it('is shared process-wide per endpoint', () => {
    expect(sharedLimiter('http://a.test/v1')).toBe(sharedLimiter('http://a.test/v1', { concurrency: 1 }));
    expect(sharedLimiter('http://a.test/v1')).not.toBe(sharedLimiter('http://b.test/v1'));
  });
});

/** Reports `outcomes` one after another, each from a request started in the current epoch. */
function run(limit: AdaptiveConcurrency, outcomes: LeaseOutcome[]): number[] {
  return outcomes.map((outcome) => {
    limit.report(limit.epoch, outcome);
    return limit.limit;
  });
}

describe('adaptive concurrency', () => {
  it('starts at 4 and adds one slot per window of successes (as many as the limit)', () => {
    const limit = new AdaptiveConcurrency();
    expect(limit.limit).toBe(4);
    const trajectory = run(limit, Array(4 + 5 + 6).fill('success'));
    expect(trajectory.slice(0, 4)).toEqual([4, 4, 4, 5]);
    expect(trajectory.slice(4, 9)).toEqual([5, 5, 5, 5, 6]);
    expect(trajectory.at(-1)).toBe(7);
  });

  it('steps down to ⌊0.9 × limit⌋ (at least one less) on a rate-limit answer, never below 1', () => {
    const limit = new AdaptiveConcurrency({ initial: 20 });
    expect(run(limit, ['rate-limited'])).toEqual([18]);
    expect(limit.ceiling).toBe(20);
    const small = new AdaptiveConcurrency({ initial: 5 });
    expect(run(small, Array(6).fill('rate-limited'))).toEqual([4, 3, 2, 1, 1, 1]);
    expect(run(small, ['other', 'success', 'other'])).toEqual([1, 1, 1]); // 'other' is neutral
  });

  it('climbs a window at a time below the ceiling, and takes PROBE_WINDOWS windows to reach it again', () => {
    const limit = new AdaptiveConcurrency({ initial: 10 });
    run(limit, ['rate-limited']); // ceiling 10, limit 9
    run(limit, ['rate-limited']); // a 429 one under the ceiling: noise about the same capacity; ceiling stays 10
    expect([limit.limit, limit.ceiling]).toEqual([8, 10]);
    expect(run(limit, Array(8).fill('success')).at(-1)).toBe(9); // one window of 8 below the ceiling
    const probe = run(limit, Array(9 * PROBE_WINDOWS).fill('success'));
    expect(probe.slice(0, -1).every((l) => l === 9)).toBe(true);
    expect(probe.at(-1)).toBe(10);
    // at the ceiling again: passing it needs the slow window too, and forgets it once passed
    expect(run(limit, Array(10 * PROBE_WINDOWS).fill('success')).at(-1)).toBe(11);
    expect(limit.ceiling).toBeUndefined();
    expect(run(limit, Array(11).fill('success')).at(-1)).toBe(12);
  });

  it('follows a capacity that fell: a 429 below the ceiling (not one under it) lowers the ceiling', () => {
    const limit = new AdaptiveConcurrency({ initial: 10 });
    run(limit, ['rate-limited', 'rate-limited', 'rate-limited']); // 10 → 9 → 8 → 7
    expect([limit.limit, limit.ceiling]).toEqual([7, 8]);
  });

  it('steps down once per congestion event: 429s and successes of requests started before the step are ignored', () => {
    const limit = new AdaptiveConcurrency({ initial: 16 });
    const before = limit.epoch; // 16 requests in flight, all started in this epoch
    limit.report(before, 'rate-limited');
    expect(limit.limit).toBe(14);
    for (let i = 0; i < 15; i++) limit.report(before, i % 2 === 0 ? 'rate-limited' : 'success');
    expect(limit.limit).toBe(14);
    limit.report(limit.epoch, 'rate-limited'); // a request sent under the new limit: a new event
    expect(limit.limit).toBe(12);
  });

  it('never exceeds its upper bound', () => {
    const limit = new AdaptiveConcurrency({ initial: 60, max: 64 });
    run(limit, Array(60 * 10).fill('success'));
    expect(limit.limit).toBe(64);
  });

  it('for any sequence of outcomes: within [min, max], each step +1, stepped down or unchanged, and deterministic', () => {
    const outcome = fc.constantFrom<LeaseOutcome>('success', 'rate-limited', 'other');
    fc.assert(
      fc.property(
        fc.array(fc.tuple(outcome, fc.boolean()), { maxLength: 400 }),
        fc.integer({ min: 1, max: 8 }),
        fc.integer({ min: 8, max: 80 }),
        (steps, min, max) => {
          const trace = (limit: AdaptiveConcurrency) =>
            steps.map(([o, stale]) => {
              const before = limit.limit;
              limit.report(stale ? limit.epoch - 1 : limit.epoch, o);
              const after = limit.limit;
              expect(after).toBeGreaterThanOrEqual(min);
              expect(after).toBeLessThanOrEqual(max);
              expect([before, before + 1, stepDown(before, min)]).toContain(after);
              return after;
            });
          expect(trace(new AdaptiveConcurrency({ min, max }))).toEqual(trace(new AdaptiveConcurrency({ min, max })));
        },
      ),
    );
  });

  it('rejects bounds that cannot hold', () => {
    expect(() => new AdaptiveConcurrency({ min: 0 })).toThrow(RangeError);
    expect(() => new AdaptiveConcurrency({ min: 8, max: 4 })).toThrow(/below/);
    expect(new AdaptiveConcurrency({ initial: 100, max: 10 }).limit).toBe(10);
  });
});

describe('RateLimiter with an adaptive limit', () => {
  it('without a configured concurrency it adapts: grants up to the limit, more after successes, fewer after a 429', async () => {
    const limiter = new RateLimiter();
    expect(limiter.adaptive).toBeDefined();
    const leases = await Promise.all(Array.from({ length: 4 }, () => limiter.acquire(0)));
    let fifth = false;
    const pending = limiter.acquire(0).then((lease) => {
      fifth = true;
      return lease;
    });
    await flush();
    expect([limiter.active, limiter.pending, fifth]).toEqual([4, 1, false]);
    for (const lease of leases) lease.release(undefined, 'success'); // a window of 4 successes: limit 5
    await flush();
    expect(fifth).toBe(true);
    expect(limiter.concurrency).toBe(5);
    // five in flight under the new epoch; one 429 steps down to 4, and the others' later 429s do not step again
    const more = await Promise.all(Array.from({ length: 4 }, () => limiter.acquire(0)));
    (await pending).release(undefined, 'rate-limited');
    expect(limiter.concurrency).toBe(4);
    for (const lease of more) lease.release(undefined, 'rate-limited');
    expect(limiter.concurrency).toBe(4);
    expect(limiter.active).toBe(0);
    // the next four run at once, a queued waits for a slot
    const next = await Promise.all(Array.from({ length: 4 }, () => limiter.acquire(0)));
    let queued = false;
    limiter.acquire(0).then((lease) => {
      queued = true;
      lease.release();
    });
    await flush();
    expect(queued).toBe(false);
    for (const lease of next) lease.release();
    await flush();
    expect(queued).toBe(true);
  });

  it('a configured concurrency is a fixed limit: outcomes change nothing', async () => {
    const limiter = new RateLimiter({ concurrency: 3, adaptive: { initial: 1 } });
    expect(limiter.adaptive).toBeUndefined();
    for (const outcome of ['rate-limited', 'success', 'success', 'success', 'success'] as const) {
      (await limiter.acquire(0)).release(undefined, outcome);
    }
    expect(limiter.concurrency).toBe(3);
  });
});
