import { describe, expect, it } from 'vitest';
import { LimiterAbortError, type LimiterClock, RateLimiter, sharedLimiter } from '../../src/subjects/limiter.js';

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

  it('is shared process-wide per endpoint', () => {
    expect(sharedLimiter('http://a.test/v1')).toBe(sharedLimiter('http://a.test/v1', { concurrency: 1 }));
    expect(sharedLimiter('http://a.test/v1')).not.toBe(sharedLimiter('http://b.test/v1'));
  });
});
