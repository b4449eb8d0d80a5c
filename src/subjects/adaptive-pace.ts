/**
 * The pace of an endpoint whose limit is a rate (a request or token bucket): the requests — or tokens — per second
 * the limit implies, learned from the rate the endpoint accepted and from the rate-limit headers it sends. Pure:
 * every method takes the time; no timer.
 *
 * - A rate refusal (a 429 that adaptive-concurrency.ts calls `rate`) sets the pace to BACKOFF × the rate the endpoint
 *   admitted over the last window (a few latencies), or the pace refused if lower: a 429 slows the sender in
 *   proportion to what the limit admits, it does not stop it. The admitted rate is that of the requests granted in
 *   the window and not refused (a 429 comes back at once, so a request still in flight was admitted): unlike the
 *   rate of answers, it does not lag a sender that is still ramping up by a latency. One refusal event slows once:
 *   429s of requests granted before the cut (an older epoch), or within CUT_SPACING_MS of it, are of the same
 *   event. With fewer than MIN_ANSWERS answers the latency, and so the window, is unknown and the pace is left as it
 *   is (the concurrency limit answers for the start). A request that failed otherwise (a 500, a dropped connection)
 *   was admitted; one never sent is forgotten (`forget`).
 * - The admitted rate is measured over the time the sender's limits held it (a request granted the moment it asked
 *   ends a gap in which the sender was short of work). A sender short of work for most of the window (held under
 *   BUSY_SHARE of it) admitted its demand, not what the limit allows: its refusal cuts the pace itself by BACKOFF.
 * - The unit: requests, unless refusals fall on the larger requests (a token bucket refuses a request its level
 *   cannot cover: the mean log of a refused request's admission charge over the mean charge, over the last
 *   BIAS_SAMPLES refusals, above TOKEN_BIAS): then tokens, each request charged its admission estimate (the
 *   tokenizer's count of the prompt plus the output budget, as a provider charges it), so a run of large requests is
 *   paced to the tokens it costs. Back to requests when refusals fall on the smaller ones. Requests of one size make
 *   the two the same.
 * - Between refusals the pace grows as TCP CUBIC grows its window: back to just under the rate refused within
 *   RECOVER_MS, nearly flat there for several seconds (the bucket refills), back at the rate refused PROBE_MS later,
 *   then faster and faster above it (a limit that rose is found); after one more PROBE_MS with no refusal, by
 *   FIRST_GROWTH per second (the rate refused was not the limit's). After the first refusal, whose accepted rate was
 *   that of a sender still ramping up, it grows by FIRST_GROWTH per second until the next one.
 * - A rate the endpoint states (`x-ratelimit-limit-requests` per minute) caps the pace: the sender never goes above
 *   it, so a stated limit costs no 429 at all.
 */
export const BACKOFF = 0.95;
/** After a refusal, the pace is back at PLATEAU × the rate refused this long after it (CUBIC's K). */
export const RECOVER_MS = 5_000;
/**
 * Where the pace levels off after a refusal, × the rate refused: a little under it, so that the bucket refills
 * while the pace is level (back at the rate itself, the pace was refused again every RECOVER_MS: 2% of requests).
 */
export const PLATEAU = 0.98;
/**
 * After the plateau begins, the pace is back at the rate refused this much later, and grows above it from there
 * (slowly: a small bucket's burst absorbs little, and each time the pace passes the limit costs a 429).
 */
export const PROBE_MS = 15_000;
/** Relative growth of the pace per second after the first refusal. */
export const FIRST_GROWTH = 0.1;
/** The window of the accepted rate: at least this, and at least WINDOW_LATENCIES mean latencies. */
export const MIN_WINDOW_MS = 3_000;
const WINDOW_LATENCIES = 3;
/** The window of the first refusal's admitted rate: at least this, two mean latencies and FIRST_GRANTS grants. */
const FIRST_WINDOW_MS = 1_000;
const FIRST_GRANTS = 10;
const MIN_ANSWERS = 4;
/** Refusals closer than this to the last cut are of the same event (a token bucket refuses a cluster of big requests). */
export const CUT_SPACING_MS = 1_000;
/**
 * Refusals that do not track the rate: cuts in a row, each made while the pace was still recovering from the one
 * before (below the rate refused), after which the refused share of the window is still at least STREAK_HOLD × the
 * share at the first of them. A rate limit's refusals stop once the pace is under it (one cut to the admitted rate
 * gets there); refusals that go on at the same share as the pace falls are the endpoint's background (a 429 sent at
 * random, a request it refuses whatever the pace).
 */
export const STREAK_CUTS = 3;
export const STREAK_HOLD = 0.5;
/** Once a background share is known, a refusal cuts the pace only when the window's refused share is above this × it, plus BACKGROUND_SLACK. */
export const BACKGROUND_MARGIN = 1.5;
export const BACKGROUND_SLACK = 0.01;
/**
 * A sender that its limits (the pace, the concurrency) held for under this share of the window was short of work:
 * a refusal cuts its pace by BACKOFF, not to the rate it admitted. Held longer, its rate is measured over the time
 * it was held (a closed endpoint's pause is not the limit's).
 */
export const BUSY_SHARE = 0.5;
/** Refusals whose sizes tell the unit, and the fewest that do. */
const BIAS_SAMPLES = 8;
const MIN_BIAS_SAMPLES = BIAS_SAMPLES;
/** Refused requests this much larger than the mean (mean log ratio) mean a token limit; this much smaller, a request limit. */
export const TOKEN_BIAS = 0.1;
const REQUEST_BIAS = -0.03;

/** What a pace counts. */
export type PaceUnit = 'requests' | 'tokens';

/** A granted request as the pace tracks it. */
export interface PaceGrant {
  at: number;
  /** Its admission charge, tokens. */
  charge: number;
  /** Not refused (yet): a request in flight was admitted (a refusal comes back at once). */
  admitted: boolean;
  /** Refused for the rate (a 429 the concurrency limit called `rate`). */
  refused?: boolean;
  /**
   * It waited for its grant (the limits held it): the time since the grant before it was spent pushing against them.
   * Granted the moment it asked, the sender was short of work since then (not part of the rate's time).
   */
  held: boolean;
}

/** The last cut: when, the pace it set and the rate admitted then (in the unit of the pace). */
interface Cut {
  at: number;
  pace: number;
  accepted: number;
  first: boolean;
  since: number;
}

export class AdaptivePace {
  /** The last cut, in the unit of the pace: when, the pace it set, the rate admitted then; undefined before the first refusal. */
  #cut: Cut | undefined;
  /** Cuts in a row made while recovering: the cut before the first of them, and the refused share then. */
  #streak: { before: Cut; share: number; cuts: number } | undefined;
  /** The refused share the endpoint shows whatever the pace (undefined: none seen). */
  #background: number | undefined;
  #stated: number | undefined;
  #epoch = 0;
  #unit: PaceUnit = 'requests';
  /** Requests granted over the window (and a little more): when, their charge, whether the endpoint admitted them. */
  readonly #grants: PaceGrant[] = [];
  #firstGrantAt: number | undefined;
  #answers = 0;
  #meanLatency = 0;
  /** The mean admission charge of granted requests (exponentially weighted). */
  #meanCharge = 0;
  /** log(charge ÷ mean charge) of the latest refused requests. */
  readonly #bias: number[] = [];

  /** Requests per second the sender may start at `now`, or undefined (no pace of requests). */
  rate(now: number): number | undefined {
    const learned = this.#unit === 'requests' ? this.#learned(now) : undefined;
    if (learned === undefined) return this.#stated;
    return this.#stated === undefined ? learned : Math.min(learned, this.#stated);
  }

  /** Tokens (admission charges) per second the sender may start at `now`, or undefined (no pace of tokens). */
  tokenRate(now: number): number | undefined {
    return this.#unit === 'tokens' ? this.#learned(now) : undefined;
  }

  /** The learned pace in requests per second, whatever its unit (a token pace ÷ the mean charge), or undefined. */
  requestRate(now: number): number | undefined {
    const learned = this.#learned(now);
    if (learned === undefined || this.#unit === 'requests') return learned;
    return this.#meanCharge > 0 ? learned / this.#meanCharge : undefined;
  }

  /** What the pace counts: requests, or tokens (the requests' admission charges). */
  get unit(): PaceUnit {
    return this.#unit;
  }

  /** The mean latency of answers (exponentially weighted), ms; 0 before the first. */
  get meanLatencyMs(): number {
    return this.#meanLatency;
  }

  #learned(now: number): number | undefined {
    const cut = this.#cut;
    if (!cut) return undefined;
    const t = Math.max(0, now - cut.at) / 1000;
    if (cut.first) return cut.pace * Math.exp(FIRST_GROWTH * t);
    // CUBIC: pace(0) = the cut, pace(K) = just under the rate refused, concave before K; then convex, slower, back
    // at the rate refused PROBE_MS after K and above it from there (a limit that rose is found)
    const k = RECOVER_MS / 1000;
    const plateau = PLATEAU * cut.accepted;
    if (t <= k) return plateau - Math.max(0, plateau - cut.pace) * ((k - t) / k) ** 3;
    const probe = PROBE_MS / 1000;
    const cubic = (at: number) => plateau + (cut.accepted - plateau) * ((at - k) / probe) ** 3;
    // a probe period above the rate refused and no refusal: that rate was not the limit's (a refusal that was not
    // the rate's, a cut while the sender was short of work, a limit that rose): the pace grows by FIRST_GROWTH a
    // second from there, as after the first refusal, rather than on the cubic's slow curve
    const free = k + 2 * probe;
    const pace = t <= free ? cubic(t) : cubic(free) * Math.exp(FIRST_GROWTH * (t - free));
    return Math.min(cut.accepted * 1e3, pace);
  }

  /** The epoch a request granted now belongs to: it changes at every cut. */
  get epoch(): number {
    return this.#epoch;
  }

  /** The window the admitted rate is measured over, in ms. */
  get windowMs(): number {
    return Math.max(MIN_WINDOW_MS, WINDOW_LATENCIES * this.#meanLatency);
  }

  /** A request of admission charge `charge` (tokens) granted at `now`: the handle to report it by. */
  granted(now: number, charge = 0, held = true): PaceGrant {
    const grant: PaceGrant = { at: now, charge: Math.max(0, charge), admitted: true, held };
    this.#grants.push(grant);
    this.#firstGrantAt ??= now;
    this.#meanCharge =
      this.#meanCharge === 0 ? grant.charge : this.#meanCharge + (grant.charge - this.#meanCharge) / 64;
    this.#expire(now);
    return grant;
  }

  /**
   * Requests (and tokens) per second the endpoint admitted over the window ending `now`, undefined before
   * MIN_ANSWERS answers; `pushing`: the limits held the sender for at least BUSY_SHARE of the window (it was not
   * short of work), and then the rates are over that time only.
   */
  admitted(now: number, windowMs = this.windowMs): { requests: number; tokens: number; pushing: boolean } | undefined {
    this.#expire(now);
    if (this.#answers < MIN_ANSWERS) return undefined;
    // the window, or since the first grant while the window is not yet full
    // never fewer than the last FIRST_GRANTS grants (a short window at a low rate holds one or two)
    const recent = this.#grants.at(-FIRST_GRANTS - 1)?.at ?? now - this.windowMs;
    const from = Math.min(now - Math.min(windowMs, this.windowMs), recent);
    const start = Math.max(from, this.#firstGrantAt ?? now);
    // the time the sender was held by its limits: the window less the gaps that ended in a grant made at once (the
    // sender had no request waiting: a closed endpoint, trials waiting out a retry's backoff)
    let idle = 0;
    let previous = start;
    let requests = 0;
    let tokens = 0;
    for (const g of this.#grants) {
      if (g.at <= from) continue;
      if (!g.held) idle += Math.max(0, g.at - Math.max(previous, start));
      previous = g.at;
      if (!g.admitted) continue;
      requests++;
      tokens += g.charge;
    }
    const span = Math.max(1, now - start);
    const pushing = span - idle >= BUSY_SHARE * span;
    const time = pushing ? Math.max(1, span - idle) : span;
    return { requests: (requests * 1000) / time, tokens: (tokens * 1000) / time, pushing };
  }

  /** Requests per second admitted over the window ending `now`, or undefined before MIN_ANSWERS answers. */
  accepted(now: number): number | undefined {
    return this.admitted(now)?.requests;
  }

  /** An answer completed at `now` after `latencyMs`. */
  answered(now: number, latencyMs: number): void {
    this.#meanLatency = this.#meanLatency === 0 ? latencyMs : 0.9 * this.#meanLatency + 0.1 * latencyMs;
    this.#answers++;
    this.#expire(now);
  }

  /** A granted request that the endpoint refused for a reason other than its rate (a cap, a trial's repeated 429). */
  dropped(grant: PaceGrant | undefined): void {
    if (grant) grant.admitted = false;
  }

  /** A granted request that was never sent: as if never granted. */
  forget(grant: PaceGrant | undefined): void {
    const i = grant ? this.#grants.indexOf(grant) : -1;
    if (i >= 0) this.#grants.splice(i, 1);
  }

  /**
   * A rate refusal at `now` of `grant`, granted in `epoch`: the request was not admitted; its size tells the unit;
   * and, unless the refusal belongs to the last cut's event, the pace is cut to BACKOFF × the admitted rate.
   */
  refused(epoch: number, now: number, grant?: PaceGrant): void {
    if (grant) {
      grant.admitted = false;
      grant.refused = true;
      this.#weigh(grant.charge);
    }
    if (epoch !== this.#epoch) return;
    if (this.#cut && now - this.#cut.at < CUT_SPACING_MS) return;
    const share = this.refusedShare(now);
    // refusals at the endpoint's background share say nothing of the rate
    if (this.#background !== undefined && share <= BACKGROUND_MARGIN * this.#background + BACKGROUND_SLACK) return;
    // the refusals of the first window are all the first's: the sender was still ramping up
    const first = this.#cut === undefined || (this.#cut.first && now - this.#cut.since < this.windowMs);
    // a sender still ramping up (a slow start doubles per round trip) is measured over its last round trips only
    const admitted = this.admitted(now, first ? Math.max(FIRST_WINDOW_MS, 2 * this.#meanLatency) : this.windowMs);
    if (admitted === undefined) return;
    const measured = this.#unit === 'tokens' ? admitted.tokens : admitted.requests;
    // nothing admitted over the window: the refusals say nothing of a rate (a request refused whatever the pace, a
    // limit that admits nothing now); a pace of 0 would never send again — the retry policy's waits answer for it
    if (!(measured > 0)) return;
    // refused at the pace it had: the limit is below that, whatever a burst let the window admit
    const learned = this.#learned(now) ?? Number.POSITIVE_INFINITY;
    // a sender short of work most of the window (few trials pending, most waiting out a retry's backoff or a closed
    // endpoint) admitted what it had to send, not what the limit allows: the refusal cuts its pace by BACKOFF, not to
    // that rate (a cut to it would hold the sender there for minutes once the work comes back)
    const idle = !admitted.pushing && learned < Number.POSITIVE_INFINITY;
    const accepted = idle ? learned : Math.min(measured, learned);
    const pace = BACKOFF * accepted;
    const before = this.#cut;
    // recovering: the pace is still below the rate the last cut found refused (CUBIC's K plus its probe)
    const recovering = before !== undefined && !before.first && now - before.at < RECOVER_MS + PROBE_MS;
    if (!recovering || before === undefined) this.#streak = undefined;
    else {
      this.#streak ??= { before, share, cuts: 0 };
      this.#streak.cuts++;
      if (this.#streak.cuts >= STREAK_CUTS && share >= STREAK_HOLD * this.#streak.share) {
        // the refusals did not fall as the pace did: they are not the rate's — the pace goes back to where the
        // streak began, and refusals at this share no longer cut it
        this.#background = Math.max(share, this.#background ?? 0);
        this.#cut = this.#streak.before;
        this.#streak = undefined;
        this.#epoch++;
        return;
      }
    }
    this.#cut = { at: now, pace, accepted, first, since: first ? (before?.since ?? now) : now };
    this.#epoch++;
  }

  /** The share of the requests granted over the window ending `now` that were refused for the rate. */
  refusedShare(now: number): number {
    this.#expire(now);
    let granted = 0;
    let refused = 0;
    for (const g of this.#grants) {
      granted++;
      if (g.refused) refused++;
    }
    return granted === 0 ? 0 : refused / granted;
  }

  /** The refused share the endpoint showed whatever the pace, or undefined (none seen). */
  get background(): number | undefined {
    return this.#background;
  }

  /** A refused request's charge against the mean: refusals that fall on large requests mean the limit counts tokens. */
  #weigh(charge: number): void {
    if (!(charge > 0) || !(this.#meanCharge > 0)) return;
    this.#bias.push(Math.log(charge / this.#meanCharge));
    if (this.#bias.length > BIAS_SAMPLES) this.#bias.shift();
    if (this.#bias.length < MIN_BIAS_SAMPLES) return;
    const bias = this.#bias.reduce((a, b) => a + b, 0) / this.#bias.length;
    const unit: PaceUnit = bias > TOKEN_BIAS ? 'tokens' : bias < REQUEST_BIAS ? 'requests' : this.#unit;
    if (unit === this.#unit) return;
    // the pace carries over at the mean charge: the same rate, counted in the other unit
    // — every rate it remembers: the last cut and the cut a streak began at (a background found later goes back to
    // it; left in requests, a pace of 10 requests a second came back as 10 tokens a second: one request a minute)
    const factor = unit === 'tokens' ? this.#meanCharge : 1 / this.#meanCharge;
    const convert = (cut: Cut): Cut => ({ ...cut, pace: cut.pace * factor, accepted: cut.accepted * factor });
    if (this.#cut) this.#cut = convert(this.#cut);
    if (this.#streak) this.#streak = { ...this.#streak, before: convert(this.#streak.before) };
    this.#unit = unit;
  }

  /** The endpoint states its request limit per minute (undefined: it stopped saying). */
  state(requestsPerMinute: number | undefined): void {
    this.#stated = requestsPerMinute !== undefined && requestsPerMinute > 0 ? requestsPerMinute / 60 : undefined;
  }

  #expire(now: number): void {
    const from = now - this.windowMs;
    while (this.#grants.length > 0 && this.#grants[0].at <= from) this.#grants.shift();
  }
}
