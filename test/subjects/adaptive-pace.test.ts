import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  AdaptivePace,
  BACKOFF,
  CUT_SPACING_MS,
  FIRST_GROWTH,
  MIN_WINDOW_MS,
  PLATEAU,
  PROBE_MS,
  RECOVER_MS,
} from '../../src/subjects/adaptive-pace.js';

/**
 * Requests granted and admitted at `perSecond` from `from` ms for `ms` ms, each answered 400 ms later (reported at
 * its grant: the admitted rate counts grants), charged `charge(i)`; returns the time of the last.
 */
function accept(
  pace: AdaptivePace,
  perSecond: number,
  from: number,
  ms: number,
  charge = (_i: number) => 1000,
): number {
  const step = 1000 / perSecond;
  let last = from;
  let i = 0;
  for (let t = from; t < from + ms; t += step) {
    pace.granted(t, charge(i++));
    pace.answered(t, 400);
    last = t;
  }
  return last;
}

describe('the adaptive pace', () => {
  it('none until a rate refusal; a refusal with too few answers to know the accepted rate changes nothing', () => {
    const pace = new AdaptivePace();
    expect(pace.rate(0)).toBeUndefined();
    pace.answered(0, 400);
    pace.refused(pace.epoch, 10, pace.granted(5, 100));
    expect(pace.rate(10)).toBeUndefined();
  });

  it('a refusal slows the sender in proportion: BACKOFF × the accepted rate, whatever that rate', () => {
    for (const perSecond of [2, 10, 40, 250]) {
      const pace = new AdaptivePace();
      const now = accept(pace, perSecond, 0, 6_000);
      pace.refused(pace.epoch, now);
      const rate = pace.rate(now) ?? 0;
      expect(rate / (BACKOFF * perSecond)).toBeGreaterThan(0.97);
      expect(rate / (BACKOFF * perSecond)).toBeLessThan(1.03);
    }
  });

  it('refusals of requests granted before a cut, or within CUT_SPACING_MS of it, do not cut again', () => {
    const pace = new AdaptivePace();
    const now = accept(pace, 10, 0, 6_000);
    const epoch = pace.epoch;
    pace.refused(epoch, now);
    const cut = pace.rate(now);
    pace.refused(epoch, now + 10); // granted before the cut
    pace.refused(pace.epoch, now + CUT_SPACING_MS / 2); // the same event
    expect(pace.rate(now)).toBe(cut);
    expect(pace.epoch).toBe(epoch + 1);
  });

  it('after the first refusal it grows by FIRST_GROWTH a second (the sender was still ramping up)', () => {
    const pace = new AdaptivePace();
    const now = accept(pace, 10, 0, 6_000);
    pace.refused(pace.epoch, now);
    const cut = pace.rate(now) ?? 0;
    expect((pace.rate(now + 5_000) ?? 0) / cut).toBeCloseTo(Math.exp(5 * FIRST_GROWTH), 6);
  });

  it('after a later refusal it grows back to just under the rate refused in RECOVER_MS, stays there, then probes above', () => {
    const pace = new AdaptivePace();
    let now = accept(pace, 10, 0, 6_000);
    pace.refused(pace.epoch, now);
    now = accept(pace, 10, now + 100, 10_000);
    pace.refused(pace.epoch, now); // the second: CUBIC around the accepted 10/s
    const at = (ms: number) => pace.rate(now + ms) ?? 0;
    expect(at(0)).toBeCloseTo(BACKOFF * 10, 1);
    expect(at(RECOVER_MS)).toBeCloseTo(PLATEAU * 10, 1);
    expect(at(RECOVER_MS + 3_000) / 10).toBeLessThan(1); // the plateau, under the rate refused
    expect(at(RECOVER_MS + PROBE_MS) / at(0)).toBeCloseTo(1 / BACKOFF, 6); // back at the rate refused
    expect(at(RECOVER_MS + 3 * PROBE_MS) / 10).toBeGreaterThan(1.5); // a limit that rose is found
    // concave below the accepted rate, convex above it: never decreasing
    for (let ms = 0; ms < 30_000; ms += 500) expect(at(ms + 500)).toBeGreaterThanOrEqual(at(ms));
  });

  it('a probe period above the rate refused with no refusal: the pace grows by FIRST_GROWTH a second from there', () => {
    const pace = new AdaptivePace();
    let now = accept(pace, 10, 0, 6_000);
    pace.refused(pace.epoch, now);
    now = accept(pace, 10, now + 100, 10_000);
    pace.refused(pace.epoch, now);
    const free = RECOVER_MS + 2 * PROBE_MS;
    const at = (ms: number) => pace.rate(now + ms) ?? 0;
    expect(at(free + 10_000) / at(free)).toBeCloseTo(Math.exp(10 * FIRST_GROWTH), 6);
  });

  it('the admitted rate is measured over the time the limits held the sender, not its pauses', () => {
    const pace = new AdaptivePace();
    let now = accept(pace, 10, 0, 6_000);
    pace.refused(pace.epoch, now);
    now = accept(pace, 10, now + 100, 10_000);
    const paused = now + MIN_WINDOW_MS / 2; // half the window with nothing to send (a closed endpoint)
    pace.granted(paused, 1000, false); // granted the moment it asked: the sender was short of work until then
    pace.answered(paused, 400);
    now = accept(pace, 10, paused + 100, MIN_WINDOW_MS / 2);
    pace.refused(pace.epoch, now);
    expect(pace.rate(now) ?? 0).toBeGreaterThan(0.95 * BACKOFF * 10); // not BACKOFF × the 5/s of the whole window
  });

  it('a sender short of work (granted at once most of the window) cuts its pace by BACKOFF, not to its demand', () => {
    const pace = new AdaptivePace();
    let now = accept(pace, 10, 0, 6_000);
    pace.refused(pace.epoch, now);
    now = accept(pace, 10, now + 100, 10_000);
    pace.refused(pace.epoch, now); // the pace is about 10/s
    const before = pace.rate(now + 30_000) ?? 0;
    // then one request a second, each granted the moment it was asked for, and a 429 (a refusal that was not the rate's)
    for (let t = now + 30_000; t < now + 30_000 + 2 * MIN_WINDOW_MS; t += 1000) {
      pace.granted(t, 1000, false);
      pace.answered(t, 400);
    }
    const at = now + 30_000 + 2 * MIN_WINDOW_MS;
    const cut = pace.rate(at) ?? 0;
    pace.refused(pace.epoch, at, pace.granted(at, 1000, false));
    expect(cut).toBeGreaterThan(before);
    expect((pace.rate(at) ?? 0) / cut).toBeCloseTo(BACKOFF, 6);
  });

  it('a window with nothing admitted cuts nothing (a pace of 0 would never send again)', () => {
    const pace = new AdaptivePace();
    let now = accept(pace, 10, 0, 6_000);
    now += 10_000; // the window empties
    for (let k = 0; k < 3; k++, now += 2 * CUT_SPACING_MS) pace.refused(pace.epoch, now, pace.granted(now, 1000));
    expect(pace.rate(now)).toBeUndefined();
  });

  it('refusals that keep their share as the pace falls are the endpoint’s background: they stop cutting it', () => {
    const pace = new AdaptivePace();
    let now = accept(pace, 10, 0, 6_000);
    pace.refused(pace.epoch, now);
    now = accept(pace, 10, now + 100, 10_000);
    pace.refused(pace.epoch, now); // a rate refusal: the pace about 9.5/s
    const settled = pace.rate(now) ?? 0;
    // then one request in ten refused whatever the pace, at the pace the limiter sets
    for (let k = 0; k < 8; k++) {
      const perSecond = pace.rate(now) ?? 1;
      for (let i = 0; i < 15; i++) {
        now += 1000 / perSecond;
        const grant = pace.granted(now, 1000);
        pace.answered(now, 400);
        if (i === 9) pace.refused(pace.epoch, now, grant);
      }
    }
    expect(pace.background).toBeGreaterThan(0);
    expect((pace.rate(now) ?? 0) / settled).toBeGreaterThan(0.9); // not cut by BACKOFF at each of them
  });

  it('a switch to tokens carries every rate it remembers: a background found after it restores the request rate', () => {
    const pace = new AdaptivePace();
    const mixed = (i: number) => (i % 4 === 3 ? 7000 : 5000);
    let now = accept(pace, 10, 0, 6_000, mixed);
    pace.refused(pace.epoch, now);
    now = accept(pace, 10, now + 100, 10_000, mixed);
    pace.refused(pace.epoch, now); // a rate refusal: the pace about 9.5/s, in requests
    const settled = pace.rate(now) ?? 0;
    // six refusals of large requests from an older event: their sizes weigh, they cut nothing
    for (let k = 0; k < 6; k++) pace.refused(-1, now, pace.granted(now, 7000));
    now += 2 * MIN_WINDOW_MS;
    // then the largest request of every fifteen refused whatever the pace: the unit turns to tokens within the streak
    for (let k = 0; k < 8; k++) {
      const perSecond = pace.requestRate(now) ?? 1;
      for (let i = 0; i < 15; i++) {
        now += 1000 / perSecond;
        const grant = pace.granted(now, i === 9 ? 7000 : mixed(i));
        pace.answered(now, 400);
        if (i === 9) pace.refused(pace.epoch, now, grant);
      }
    }
    expect(pace.unit).toBe('tokens');
    expect(pace.background).toBeGreaterThan(0);
    // the pace the streak began at, in requests: not that rate read as tokens per second (1/5000 of it)
    expect((pace.requestRate(now) ?? 0) / settled).toBeGreaterThan(0.5);
  });

  it('a stated rate caps the pace, learned or not; a stated rate withdrawn leaves the learned one', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000 }), fc.integer({ min: 2, max: 100 }), (rpm, perSecond) => {
        const pace = new AdaptivePace();
        pace.state(rpm);
        expect(pace.rate(0)).toBeCloseTo(rpm / 60, 9);
        const now = accept(pace, perSecond, 0, 6_000);
        pace.refused(pace.epoch, now);
        expect(pace.rate(now) ?? 0).toBeLessThanOrEqual(rpm / 60 + 1e-9);
        pace.state(undefined);
        // within one answer of the window's count
        const ratio = (pace.rate(now) ?? 0) / (BACKOFF * perSecond);
        expect(ratio).toBeGreaterThan(0.88);
        expect(ratio).toBeLessThan(1.12);
      }),
    );
  });

  it('the admitted rate counts grants not refused: it does not lag a sender ramping up, nor count its refusals', () => {
    const pace = new AdaptivePace();
    accept(pace, 10, 0, 4_000); // 10/s
    // 20/s granted from 4 s, every other one refused: 10/s admitted, though answers lag by a latency
    for (let i = 0, t = 4_000; i < 60; i++, t += 50) {
      const grant = pace.granted(t, 1000);
      if (i % 2 === 1) pace.refused(-1, t + 1, grant); // of an older event: no cut
    }
    expect(pace.accepted(7_000)).toBeCloseTo(10, 0);
  });

  it('refusals that fall on large requests switch the pace to tokens (a token bucket); of any size, it stays in requests', () => {
    const mixed = (i: number) => (i % 4 === 3 ? 7000 : 5000);
    // a token limit: the refused requests are the large ones
    const tokens = new AdaptivePace();
    let now = accept(tokens, 10, 0, 6_000, mixed);
    for (let k = 0; k < 8; k++) {
      now += 300;
      tokens.refused(tokens.epoch, now, tokens.granted(now, 7000));
    }
    expect(tokens.unit).toBe('tokens');
    expect(tokens.rate(now)).toBeUndefined();
    const perSecond = tokens.requestRate(now) ?? 0;
    // the token pace, in requests at the mean charge, is the request pace it replaced
    expect((tokens.tokenRate(now) ?? 0) / perSecond).toBeGreaterThan(5000);
    expect((tokens.tokenRate(now) ?? 0) / perSecond).toBeLessThan(6000);
    // a request limit: the refusals fall on requests of every size alike
    const requests = new AdaptivePace();
    now = accept(requests, 10, 0, 6_000, mixed);
    for (let k = 0; k < 8; k++) {
      now += 300;
      requests.refused(requests.epoch, now, requests.granted(now, mixed(k)));
    }
    expect(requests.unit).toBe('requests');
    expect(requests.tokenRate(now)).toBeUndefined();
    // requests of one size: nothing to tell, requests
    const uniform = new AdaptivePace();
    now = accept(uniform, 10, 0, 6_000);
    for (let k = 0; k < 8; k++) {
      now += 300;
      uniform.refused(uniform.epoch, now, uniform.granted(now, 1000));
    }
    expect(uniform.unit).toBe('requests');
  });
});
