import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import {
  type Lease,
  LimiterAbortError,
  type LimiterClock,
  RateLimiter,
  sharedLimiter,
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
    const limiter = new RateLimiter({ tokensPerMinute: 1000, concurrency: 4 }, clock);
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
describe('RateLimiter with an adaptive limit', () => {
  it('without a configured concurrency it adapts: one in flight at first, more after answers', async () => {
    const limiter = new RateLimiter();
    expect(limiter.adaptive).toBeDefined();
    expect(limiter.concurrency).toBe(1);
    for (let i = 0; i < 4; i++) (await limiter.acquire(0)).release(undefined, 'success'); // the unloaded latency
    expect(limiter.concurrency).toBe(2);
    (await limiter.acquire(0)).release(undefined, 'success');
    expect(limiter.concurrency).toBe(3); // slow start: one more per answer
  });

  it('a configured concurrency is a fixed limit: outcomes change nothing, and nothing is paced', async () => {
    const limiter = new RateLimiter({ concurrency: 3, adaptive: { initial: 1 } });
    expect(limiter.adaptive).toBeUndefined();
    expect(limiter.pace).toBeUndefined();
    for (const outcome of ['rate-limited', 'success', 'success', 'success', 'success'] as const) {
      (await limiter.acquire(0)).release(undefined, outcome);
    }
    expect(limiter.concurrency).toBe(3);
  });

  it('paces grants to the rate an endpoint states (x-ratelimit-limit-requests), one interval apart', async () => {
    const { clock, advance } = manualClock();
    const limiter = new RateLimiter({ adaptive: { initial: 64 } }, clock);
    limiter.learn({ requestsPerMinute: 600 }); // 10/s: one grant every 100 ms
    const granted: number[] = [];
    for (let i = 0; i < 5; i++) void limiter.acquire(0).then(() => granted.push(clock.now()));
    await flush();
    for (let t = 0; t < 10; t++) {
      await advance(50);
      await flush();
    }
    expect(granted).toEqual([0, 100, 200, 300, 400]);
  });

  it('a grant never sent (the endpoint closed meanwhile) gives its paced slot back: the next request goes at once', async () => {
    const { clock, advance } = manualClock();
    const limiter = new RateLimiter({ adaptive: { initial: 64 } }, clock);
    limiter.learn({ requestsPerMinute: 60 }); // 1/s: one grant a second
    const granted: number[] = [];
    const leases: Lease[] = [];
    for (let i = 0; i < 4; i++)
      void limiter.acquire(0).then((lease) => {
        granted.push(clock.now());
        leases.push(lease);
      });
    await flush();
    leases[0].release(undefined, 'unsent'); // deferred by the endpoint gate: nothing sent
    await flush();
    leases[1].release(undefined, 'unsent');
    await flush();
    expect(granted).toEqual([0, 0, 0]); // two slots given back: the third goes at once, not 2 s later
    leases[2].release(undefined, 'success'); // sent: its slot is used
    await flush();
    await advance(500);
    await flush();
    expect(granted).toEqual([0, 0, 0]);
    await advance(500);
    await flush();
    expect(granted).toEqual([0, 0, 0, 1000]);
  }, 10_000);

  it('a request that failed otherwise (a 500, a drop) or a repeated 429 used the rate: the next cut counts it admitted', async () => {
    const { clock, advance } = manualClock();
    const limiter = new RateLimiter({ adaptive: { initial: 8 } }, clock);
    // 10/s for 4 s, one request in two failing with a 500 or a dropped connection (one in ten a trial's repeated
    // 429, which holds the next grant for a slot), then a rate refusal
    for (let i = 0; i < 40; i++) {
      let lease: Lease | undefined;
      void limiter.acquire(0).then((l) => {
        lease = l;
      });
      await flush();
      for (let t = 0; !lease && t < 20; t++) {
        await advance(10);
        await flush();
      }
      await advance(100);
      lease?.release(undefined, i % 2 === 0 ? 'success' : i % 10 === 1 ? 'refused' : 'other');
    }
    (await limiter.acquire(0)).release(undefined, 'rate-limited');
    // cut to 0.95 × the ~10/s sent, not × the ~5/s answered
    expect(limiter.pace?.rate(clock.now()) ?? 0).toBeGreaterThan(0.95 * 10 * 0.8);
  }, 10_000);

  it('a 429 holds the next grant one interval of the pace; a trial’s repeated 429 holds nothing', async () => {
    const { clock, advance } = manualClock();
    const limiter = new RateLimiter({ adaptive: { initial: 8 } }, clock);
    for (let i = 0; i < 40; i++) {
      const lease = await limiter.acquire(0);
      await advance(100);
      lease.release(undefined, 'success');
    }
    (await limiter.acquire(0)).release(undefined, 'rate-limited'); // the pace: about 9.5/s
    await advance(10_000); // nothing sent for a while: one request in the window
    const granted: number[] = [];
    const next = async (outcome: 'refused' | 'rate-limited') => {
      let lease: Lease | undefined;
      void limiter.acquire(0).then((l) => {
        lease = l;
        granted.push(clock.now());
      });
      await flush();
      for (let t = 0; !lease && t < 500; t++) {
        await advance(10);
        await flush();
      }
      lease?.release(undefined, outcome);
    };
    await next('refused');
    await next('refused'); // not held: the pace's own interval, not one window (1 ÷ the one request in it)
    await next('rate-limited'); // of the same event as the cut: held one interval of the pace
    await next('refused');
    expect(granted[1] - granted[0]).toBeLessThanOrEqual(120);
    expect(granted[3] - granted[2]).toBeLessThanOrEqual(120);
  }, 10_000);

  it('paces the tokenizer-counted charges to the tokens per minute an endpoint states', async () => {
    const { clock, advance } = manualClock();
    const limiter = new RateLimiter({ adaptive: { initial: 64 } }, clock);
    limiter.learn({ tokensPerMinute: 60_000 }); // 1000 tokens/s
    const granted: number[] = [];
    for (const tokens of [500, 2000, 1000]) void limiter.acquire(tokens).then(() => granted.push(clock.now()));
    await flush();
    for (let t = 0; t < 80; t++) {
      await advance(50);
      await flush();
    }
    // each grant waits for the charge before it: 500 tokens = 0.5 s, 2000 = 2 s
    expect(granted).toEqual([0, 500, 2500]);
  });

  it('a rate refusal (a 429 at a concurrency answers reach) paces the grants at 0.95 × the accepted rate', async () => {
    const { clock, advance } = manualClock();
    const limiter = new RateLimiter({ adaptive: { initial: 8 } }, clock);
    // 40 answers at 4 in flight, one every 100 ms (10/s), then a 429 at 4 in flight (the other three never sent)
    for (let i = 0; i < 40; i++) {
      const leases = [await limiter.acquire(0), await limiter.acquire(0), await limiter.acquire(0)];
      const lease = await limiter.acquire(0);
      await advance(100);
      lease.release(undefined, 'success');
      for (const l of leases) l.release(undefined, 'unsent');
    }
    const before = limiter.concurrency;
    (await limiter.acquire(0)).release(undefined, 'rate-limited'); // alone in flight: 1 ÷ 100 ms sustains 10/s too
    const rate = limiter.pace?.rate(clock.now());
    // the admitted rate counts grants in the (first refusal's 1 s) window: within one grant of the 10 there
    expect(rate).toBeGreaterThan(0.95 * 10 * 0.89);
    expect(rate).toBeLessThan(0.95 * 10 * 1.11);
    expect(limiter.concurrency).toBe(before); // not a concurrency refusal
  });

  it('once a rate limit shows (the slow start’s refusal answered one window later), the pace binds, not the concurrency', async () => {
    const { clock, advance } = manualClock();
    const limiter = new RateLimiter({ adaptive: { initial: 3 } }, clock);
    const round = async (n: number, last: 'success' | 'rate-limited' = 'success') => {
      const leases: Lease[] = [];
      for (let i = 0; i < n; i++) void limiter.acquire(1000).then((lease) => leases.push(lease));
      for (let t = 0; t < 100 && leases.length < n; t++) {
        await advance(100); // a grant held after a refusal waits for its slot
        await flush();
      }
      expect(leases.length).toBe(n);
      await advance(2_000); // a 2 s latency
      for (const [i, lease] of leases.entries()) lease.release(undefined, i === n - 1 ? last : 'success');
      await flush();
    };
    await round(2);
    await round(3, 'rate-limited'); // refused at 3 in flight, nothing answered there yet: a cap, for now
    expect(limiter.concurrency).toBe(2);
    await round(2); // one window: the count is tried again
    expect(limiter.concurrency).toBe(3);
    await round(3);
    await round(3); // answered at 3 (twice): the refusal was the rate's
    expect(limiter.adaptive?.rateLimited).toBe(true);
    await round(4, 'rate-limited'); // now a rate refusal: paced
    const paced = limiter.pace?.requestRate(clock.now()) ?? 0;
    expect(paced).toBeGreaterThan(0);
    // Little's law at the mean latency, with headroom: the concurrency does not bind the pace
    expect(limiter.concurrency).toBeGreaterThanOrEqual(Math.ceil(1.5 * paced * 2));
  });
});
