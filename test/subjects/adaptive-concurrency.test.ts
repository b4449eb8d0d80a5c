import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  AdaptiveConcurrency,
  type LeaseOutcome,
  PROBE_WINDOWS,
  QUEUE_FACTOR,
} from '../../src/subjects/adaptive-concurrency.js';

/**
 * The adaptive concurrency limit, driven by reports as the limiter makes them (in-flight count at the grant, latency
 * from the grant to the release). Pure: no clock, the limit is a function of the reports.
 */

/** `n` answers of the current epoch at `inFlight`, each taking `latencyMs`. */
function answers(limit: AdaptiveConcurrency, n: number, inFlight = limit.limit, latencyMs = 400): number[] {
  return Array.from({ length: n }, () => {
    limit.report(limit.epoch, 'success', { inFlight: Math.min(inFlight, limit.limit), latencyMs });
    return limit.limit;
  });
}

/**
 * A confirmed cap at `at` in flight: the slow start refused there, one window later the count was tried again and
 * refused again (limit at - 1, ceiling at).
 */
function capped(at: number): AdaptiveConcurrency {
  const limit = new AdaptiveConcurrency({ initial: at });
  expect(limit.report(limit.epoch, 'rate-limited', { inFlight: at, latencyMs: 5 })).toBe('concurrency');
  answers(limit, at - 1); // one window: the limit tries the count again
  expect(limit.limit).toBe(at);
  expect(limit.report(limit.epoch, 'rate-limited', { inFlight: at, latencyMs: 5 })).toBe('concurrency');
  return limit;
}

describe('adaptive concurrency', () => {
  it('starts at one in flight, measures the unloaded latency, then adds a slot per answer (slow start)', () => {
    const limit = new AdaptiveConcurrency();
    expect(limit.limit).toBe(1);
    expect(answers(limit, 4, 1)).toEqual([1, 1, 1, 2]);
    expect(limit.unloadedLatencyMs).toBe(400);
    expect(answers(limit, 3)).toEqual([3, 4, 5]);
  });

  it('a 429 at an in-flight count no answer reached is a cap: one under it, and it becomes the ceiling', () => {
    const limit = new AdaptiveConcurrency({ initial: 1 });
    answers(limit, 4, 1);
    answers(limit, 6); // slow start to 8
    expect(limit.limit).toBe(8);
    expect(limit.report(limit.epoch, 'rate-limited', { inFlight: 7, latencyMs: 5 })).toBe('concurrency');
    expect([limit.limit, limit.ceiling]).toEqual([6, 7]);
  });

  it('after the first refusal: a slot per window of answers, PROBE_WINDOWS windows to reach the ceiling again', () => {
    const limit = capped(9); // limit 8, ceiling 9
    expect([limit.limit, limit.ceiling]).toEqual([8, 9]);
    const probe = answers(limit, 8 * PROBE_WINDOWS);
    expect(probe.slice(0, -1).every((l) => l === 8)).toBe(true);
    expect(probe.at(-1)).toBe(9);
    expect(limit.ceiling).toBeUndefined(); // reached without a refusal: the capacity grew
    expect(answers(limit, 9).at(-1)).toBe(10);
  });

  it('a window grows the limit only if the limit was reached in it (a paced sender does not fill its slots)', () => {
    const limit = capped(10);
    expect(answers(limit, 40, 5).at(-1)).toBe(9);
    expect(answers(limit, 9, 9).at(-1)).toBe(9); // probing: PROBE_WINDOWS windows
  });

  it('a second refusal below the count of the first, under the new limit, is the rate’s (a slow start overshot a bucket)', () => {
    const limit = capped(8); // 7, ceiling 8
    expect(limit.rateLimited).toBe(false);
    expect(limit.report(limit.epoch, 'rate-limited', { inFlight: 6, latencyMs: 5 })).toBe('rate');
    expect([limit.limit, limit.ceiling, limit.rateLimited]).toEqual([7, undefined, true]);
    // from then on every 429 is the rate's
    expect(limit.report(limit.epoch, 'rate-limited', { inFlight: 30, latencyMs: 5 })).toBe('rate');
  });

  it('the slow start’s refusal is tried again after one window: answers at that count show it was a rate limit’s', () => {
    // a slow start sends twice what it is answered: a 10/s bucket refuses it at half the 20 in flight it needs
    const limit = new AdaptiveConcurrency({ initial: 11 });
    expect(limit.report(limit.epoch, 'rate-limited', { inFlight: 11, latencyMs: 5 })).toBe('concurrency');
    expect([limit.limit, limit.ceiling]).toEqual([10, 11]);
    answers(limit, 10); // one window, not PROBE_WINDOWS
    expect(limit.limit).toBe(11);
    answers(limit, 2, 11); // answered at 11: the refusal was the rate's
    expect([limit.ceiling, limit.rateLimited]).toEqual([undefined, true]);
    expect(answers(limit, 3).at(-1)).toBeGreaterThan(12); // slow start again: the pace will bind
    expect(limit.report(limit.epoch, 'rate-limited', { inFlight: 14, latencyMs: 5 })).toBe('rate');
  });

  it('a 429 at a count answers reach is a rate refusal: the limit stays, a ceiling drawn before is forgotten', () => {
    const limit = capped(6); // limit 5, ceiling 6
    answers(limit, 20, 5);
    expect(limit.report(limit.epoch, 'rate-limited', { inFlight: 5, latencyMs: 5 })).toBe('rate');
    expect([limit.limit, limit.ceiling]).toEqual([5, undefined]);
  });

  it('a server that queues (latency grows with what is in flight) brings the limit down to what it serves', () => {
    const limit = new AdaptiveConcurrency();
    answers(limit, 4, 1, 400); // unloaded: 400 ms
    // one at a time: at n in flight a request waits for the n - 1 ahead of it
    for (let i = 0; i < 200; i++) {
      const n = limit.limit;
      limit.report(limit.epoch, 'success', { inFlight: n, latencyMs: 400 * n });
    }
    expect(limit.limit).toBeLessThanOrEqual(QUEUE_FACTOR);
  });

  it('latency that does not grow with concurrency never lowers the limit (a cloud endpoint)', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: 0.5, max: 1.9, noNaN: true }), { minLength: 50, maxLength: 300 }), (xs) => {
        const limit = new AdaptiveConcurrency();
        answers(limit, 4, 1, 400);
        let previous = limit.limit;
        for (const x of xs) {
          limit.report(limit.epoch, 'success', { inFlight: limit.limit, latencyMs: 400 * x });
          expect(limit.limit).toBeGreaterThanOrEqual(previous);
          previous = limit.limit;
        }
      }),
    );
  });

  it('one congestion event steps down once: reports of requests granted before the step are not counted', () => {
    const limit = capped(16); // 15, ceiling 16
    const before = limit.epoch - 1;
    limit.report(before, 'rate-limited', { inFlight: 16, latencyMs: 5 });
    for (let i = 0; i < 40; i++) limit.report(before, 'success', { inFlight: 15, latencyMs: 400 });
    expect(limit.limit).toBe(15);
  });

  it('halves once the endpoint closed (its backlog ramps), never below min', () => {
    const limit = capped(21);
    limit.halve();
    expect(limit.limit).toBe(10);
    const one = new AdaptiveConcurrency({ initial: 1 });
    one.halve();
    expect(one.limit).toBe(1);
  });

  it('for any reports: within [min, max], each step +1 or down, deterministic', () => {
    const outcome = fc.constantFrom<LeaseOutcome>('success', 'rate-limited', 'other');
    fc.assert(
      fc.property(
        fc.array(fc.tuple(outcome, fc.boolean(), fc.integer({ min: 1, max: 80 }), fc.integer({ min: 1, max: 5000 })), {
          maxLength: 400,
        }),
        fc.integer({ min: 1, max: 8 }),
        fc.integer({ min: 8, max: 80 }),
        (steps, min, max) => {
          const trace = (limit: AdaptiveConcurrency) =>
            steps.map(([o, stale, inFlight, latencyMs]) => {
              const before = limit.limit;
              limit.report(stale ? limit.epoch - 1 : limit.epoch, o, { inFlight, latencyMs });
              const after = limit.limit;
              expect(after).toBeGreaterThanOrEqual(min);
              expect(after).toBeLessThanOrEqual(max);
              expect(after <= before || after === before + 1).toBe(true);
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
