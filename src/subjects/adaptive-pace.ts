/**
 * The pace of an endpoint whose limit is a rate (a request or token bucket): the requests per second the limit
 * implies, learned from the rate the endpoint accepted and from the rate-limit headers it sends. Pure: every
 * method takes the time; no timer.
 *
 * - A rate refusal (a 429 that adaptive-concurrency.ts calls `rate`) sets the pace to BACKOFF × the rate answers
 *   were accepted at over the last window (a few latencies), or the pace refused if lower: a 429 slows the sender in
 *   proportion to what the limit admits, it does not stop it. One refusal event slows once: 429s of requests granted
 *   before the cut (an older epoch), or within CUT_SPACING_MS of it, are of the same event. With fewer than MIN_ANSWERS answers in the window the accepted rate
 *   is unknown and the pace is left as it is (the concurrency limit answers for the start).
 * - Between refusals the pace grows as TCP CUBIC grows its window: back to just under the rate refused within
 *   RECOVER_MS, flat there for a few seconds (a bucket's burst absorbs the slight excess for seconds before one 429), then
 *   faster and faster above it (a limit that rose is found). After the first refusal, whose accepted rate was that
 *   of a sender still ramping up, it grows by FIRST_GROWTH per second until the next one.
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
/** Relative growth of the pace per second after the first refusal. */
export const FIRST_GROWTH = 0.1;
/** The window of the accepted rate: at least this, and at least WINDOW_LATENCIES mean latencies. */
export const MIN_WINDOW_MS = 3_000;
const WINDOW_LATENCIES = 3;
const MIN_ANSWERS = 4;
/** Refusals closer than this to the last cut are of the same event (a token bucket refuses a cluster of big requests). */
export const CUT_SPACING_MS = 1_000;

export class AdaptivePace {
  /** The last cut: when, the pace it set, the rate accepted then; undefined before the first refusal. */
  #cut: { at: number; pace: number; accepted: number; first: boolean; since: number } | undefined;
  #stated: number | undefined;
  #epoch = 0;
  /** Completion times of recent answers. */
  readonly #answers: number[] = [];
  #meanLatency = 0;
  #firstAt: number | undefined;

  /** Requests per second the sender may start at `now`, or undefined (no pace: only the concurrency limit). */
  rate(now: number): number | undefined {
    const learned = this.#learned(now);
    if (learned === undefined) return this.#stated;
    return this.#stated === undefined ? learned : Math.min(learned, this.#stated);
  }

  #learned(now: number): number | undefined {
    const cut = this.#cut;
    if (!cut) return undefined;
    const t = Math.max(0, now - cut.at) / 1000;
    if (cut.first) return cut.pace * Math.exp(FIRST_GROWTH * t);
    // CUBIC: pace(0) = the cut, pace(K) = just under the rate refused, concave before K, convex after
    const k = RECOVER_MS / 1000;
    const plateau = PLATEAU * cut.accepted;
    const c = Math.max(0, plateau - cut.pace) / k ** 3;
    return Math.min(cut.accepted * 1e3, plateau + c * (t - k) ** 3);
  }

  /** The epoch a request granted now belongs to: it changes at every cut. */
  get epoch(): number {
    return this.#epoch;
  }

  /** The window the accepted rate is measured over, in ms. */
  get windowMs(): number {
    return Math.max(MIN_WINDOW_MS, WINDOW_LATENCIES * this.#meanLatency);
  }

  /** Answers per second accepted over the window ending `now`, or undefined with fewer than MIN_ANSWERS. */
  accepted(now: number): number | undefined {
    this.#expire(now);
    if (this.#answers.length < MIN_ANSWERS) return undefined;
    // the window, or since the first answer (and its latency before it) while the window is not yet full
    const span = Math.min(this.windowMs, now - (this.#firstAt ?? now) + this.#meanLatency);
    return (this.#answers.length * 1000) / Math.max(span, 1);
  }

  /** An answer completed at `now` after `latencyMs`. */
  answered(now: number, latencyMs: number): void {
    this.#meanLatency = this.#meanLatency === 0 ? latencyMs : 0.9 * this.#meanLatency + 0.1 * latencyMs;
    this.#answers.push(now);
    this.#firstAt ??= now;
    this.#expire(now);
  }

  /**
   * A rate refusal at `now` of a request granted in `epoch` with `inFlight` requests in flight: at least the rate
   * that concurrency sustains at the mean latency (Little's law) was sent, so the pace is not cut below BACKOFF × it
   * (answers lag sends by a latency: a sender still ramping up has accepted less than it sends).
   */
  refused(epoch: number, now: number, inFlight = 0): void {
    if (epoch !== this.#epoch) return;
    if (this.#cut && now - this.#cut.at < CUT_SPACING_MS) return;
    const measured = this.accepted(now);
    if (measured === undefined) return;
    // refused at the pace it had: the limit is below that, whatever a burst let the window accept
    const sustained = this.#meanLatency > 0 ? (inFlight * 1000) / this.#meanLatency : 0;
    const accepted = Math.min(Math.max(measured, sustained), this.#learned(now) ?? Number.POSITIVE_INFINITY);
    const pace = BACKOFF * accepted;
    // the refusals of the first window are all the first's: the sender was still ramping up
    const first = this.#cut === undefined || (this.#cut.first && now - this.#cut.since < this.windowMs);
    this.#cut = { at: now, pace, accepted, first, since: first ? (this.#cut?.since ?? now) : now };
    this.#epoch++;
  }
  /** The endpoint states its request limit per minute (undefined: it stopped saying). */
  state(requestsPerMinute: number | undefined): void {
    this.#stated = requestsPerMinute !== undefined && requestsPerMinute > 0 ? requestsPerMinute / 60 : undefined;
  }

  #expire(now: number): void {
    const from = now - this.windowMs;
    while (this.#answers.length > 0 && this.#answers[0] <= from) this.#answers.shift();
  }
}
