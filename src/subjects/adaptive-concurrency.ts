/**
 * What a finished request tells an adaptive limiter: `success` answered; `rate-limited` refused (a 429) and a lesson
 * about the limit; `refused` refused but no lesson (a trial's repeated 429, limiter-step.ts); `other` sent and failed
 * otherwise (a 500, a dropped connection: neutral, but it used the endpoint's rate like an answer); `unsent` never
 * sent (the endpoint gate closed meanwhile, the run stopped): as if never granted.
 */
export type LeaseOutcome = 'success' | 'rate-limited' | 'refused' | 'other' | 'unsent';

export interface AdaptiveBounds {
  /** The limit to start at (default 1: a slow start doubles it per window of answers). */
  initial?: number;
  /** Never below this (default 1). */
  min?: number;
  /** Never above this (default 64). */
  max?: number;
}

export const DEFAULT_ADAPTIVE_BOUNDS: Required<AdaptiveBounds> = { initial: 1, min: 1, max: 64 };

/** What the limiter measured of one finished request. */
export interface LeaseSample {
  /** Requests in flight just after this one was granted, itself included. */
  inFlight: number;
  /** From the grant to the release: the request's own time, not its wait for a slot. */
  latencyMs: number;
}

/**
 * What a 429 says: `concurrency` — it came with more requests in flight than the endpoint has been seen to answer
 * (a concurrency cap: the limit steps under it); `rate` — requests at that concurrency are answered, so the refusal
 * is about the rate (a request or token bucket: the pace slows, adaptive-pace.ts); undefined — not a 429.
 */
export type RefusalKind = 'concurrency' | 'rate' | undefined;

/** Windows of answers before the limit reaches the last ceiling again (a probe above the known capacity). */
export const PROBE_WINDOWS = 20;

/** A window whose mean latency is this many times the unloaded latency means requests queue at the server. */
export const QUEUE_FACTOR = 2;

/** Answers at the count of a slow start's refusal that show it was a rate limit's. */
const TENTATIVE_ANSWERS = 2;

/** Answers at one request in flight that make the unloaded latency known. */
const BASE_SAMPLES = 4;
/** Recent answers whose in-flight counts tell a concurrency cap from a rate limit. */
const RECENT = 64;
/** A 429 at an in-flight count that fewer than this share of recent answers reached is a concurrency refusal. */
const RARE = 0.1;

/** The limit after a concurrency refusal: one less, never below `min`. */
export function stepDown(limit: number, min: number): number {
  return Math.max(min, limit - 1);
}

/**
 * An adaptive concurrency limit. Pure and deterministic: the limit is a function of the sequence of reports, with
 * no clock (latencies are measured by the limiter and reported with each answer).
 *
 * - Slow start: from `initial` (1; the first BASE_SAMPLES answers at 1 in flight measure the unloaded latency), the
 *   limit grows by one per answer (doubling per round trip, one slot at a time, so the first refusal finds it at
 *   most a slot or two above a cap) until the first congestion event; then by one per window of answers (as many
 *   as the limit). A window grows the limit only if the limit was reached in it (a paced sender that never fills
 *   its slots learns nothing about them).
 * - A 429 at an in-flight count that recent answers rarely reached is a concurrency cap: the limit steps to one
 *   under the count that drew it, which becomes the ceiling (a later 429 below that count, sent under the new limit,
 *   shows the refusals were about the rate after all); reaching the ceiling again takes PROBE_WINDOWS
 *   windows, so a limit that found a cap spends most of its time at it and probes above it rarely (one 429 a probe). A 429
 *   at a count that answers reach says nothing about concurrency: it is a rate refusal, for the pace (a ceiling
 *   drawn before it was the rate's: it is forgotten).
 * - A server that queues instead of refusing (a local server answering one request at a time) is seen from latency:
 *   when the mean latency of a window of max(BASE_SAMPLES, limit) answers passes QUEUE_FACTOR × the unloaded latency, more in flight brings no more answers
 *   per second, and the limit falls to what the latency says is being served (limit × unloaded ÷ window latency).
 * - One congestion event steps down once: reports of requests started before the last step (an older epoch) saw
 *   the old limit, so they are not counted against the new one.
 */
export class AdaptiveConcurrency {
  readonly min: number;
  readonly max: number;
  #limit: number;
  #epoch = 0;
  #slowStart = true;
  #successes = 0;
  #reached = false;
  /** The latency window: answers of this epoch and their summed latency. */
  #latencySum = 0;
  #latencyCount = 0;
  /** The in-flight count that drew the last concurrency refusal, while the limit has not passed it since. */
  #ceiling: number | undefined = undefined;
  /**
   * A ceiling drawn in the slow start, and answers at or above it since: a slow start sends twice what it is
   * answered, so its first 429 may be a rate limit's at half the concurrency the rate needs; the ceiling is tried
   * again after one window, and TENTATIVE_ANSWERS answers there show it was the rate's.
   */
  #tentative: { at: number; answers: number } | undefined = undefined;
  /** The endpoint was seen to refuse at a concurrency it answers: its limit is a rate (the pace binds, not this). */
  #rateLimited = false;
  /** Latencies of answers with one request in flight (the unloaded latency), the latest BASE_SAMPLES × 4. */
  readonly #base: number[] = [];
  /** In-flight counts of the latest RECENT answers. */
  readonly #recent: number[] = [];

  constructor(bounds: AdaptiveBounds = {}) {
    const b = { ...DEFAULT_ADAPTIVE_BOUNDS, ...bounds };
    this.min = Math.floor(positive(b.min, 'adaptive.min'));
    this.max = Math.floor(positive(b.max, 'adaptive.max'));
    if (this.max < this.min) throw new RangeError(`limiter adaptive.max (${b.max}) is below adaptive.min (${b.min})`);
    this.#limit = Math.min(this.max, Math.max(this.min, Math.floor(positive(b.initial, 'adaptive.initial'))));
  }

  /** Requests allowed in flight now. */
  get limit(): number {
    return this.#limit;
  }

  /** The epoch a request starting now belongs to: it changes at every step down. */
  get epoch(): number {
    return this.#epoch;
  }

  /** The in-flight count that drew the last concurrency refusal, while the limit has not passed it (undefined: none). */
  get ceiling(): number | undefined {
    return this.#ceiling;
  }

  /**
   * Whether the endpoint has shown a rate limit: a 429 below the count of a concurrency refusal, or answers at the
   * count a slow start's 429 came at. Its 429s are then all the rate's; the limiter keeps this limit above what
   * the pace needs in flight (limiter.ts).
   */
  get rateLimited(): boolean {
    return this.#rateLimited;
  }

  /** The mean latency of answers at one request in flight, once BASE_SAMPLES are known. */
  get unloadedLatencyMs(): number | undefined {
    return this.#base.length >= BASE_SAMPLES ? mean(this.#base) : undefined;
  }

  /** Answers needed in the current window. */
  get #window(): number {
    if (this.#limit === 1 && this.#base.length < BASE_SAMPLES) return BASE_SAMPLES;
    if (this.#slowStart) return 1;
    const probing = this.#ceiling !== undefined && this.#limit + 1 >= this.#ceiling && this.#tentative === undefined;
    return this.#limit * (probing ? PROBE_WINDOWS : 1);
  }

  /**
   * A request that started in `epoch` finished with `outcome`; `sample` is what the limiter measured of it (without
   * one, a 429 counts as a concurrency refusal at the current limit). Returns what a 429 said.
   */
  report(epoch: number, outcome: LeaseOutcome, sample?: LeaseSample): RefusalKind {
    if (outcome !== 'success' && outcome !== 'rate-limited') return undefined;
    if (outcome === 'rate-limited') {
      const at = sample?.inFlight ?? this.#limit;
      const answeredThere = this.#recent.filter((n) => n >= at).length;
      // a refusal below the count that drew the last one, though the limit stepped under that: not a cap at that
      // count (the endpoint refuses at any concurrency: a rate, drained as a slow start overshot it)
      const below = epoch === this.#epoch && this.#ceiling !== undefined && at < this.#ceiling;
      const rate =
        this.#rateLimited || below || (this.#recent.length >= 8 && answeredThere >= RARE * this.#recent.length);
      if (rate) {
        // the endpoint answers at this concurrency: a ceiling drawn by earlier refusals was the rate's, not a cap
        if (below) this.#rateLimited = true;
        this.#ceiling = undefined;
        this.#tentative = undefined;
        this.#slowStart = false;
        return 'rate';
      }
      if (epoch === this.#epoch) {
        const slowStart = this.#slowStart;
        this.#congested(Math.min(at, this.#limit), stepDown(Math.min(at, this.#limit), this.min));
        // the slow start's first refusal is tried again after one window; a second at the same count confirms a cap
        this.#tentative = slowStart ? { at: Math.min(at, this.#limit + 1), answers: 0 } : undefined;
      }
      return 'concurrency';
    }
    if (sample) {
      this.#recent.push(sample.inFlight);
      if (this.#recent.length > RECENT) this.#recent.shift();
      if (sample.inFlight <= 1) {
        this.#base.push(sample.latencyMs);
        if (this.#base.length > BASE_SAMPLES * 4) this.#base.shift();
      }
    }
    if (this.#tentative && sample && sample.inFlight >= this.#tentative.at) {
      // answered at the count the slow start was refused at: that refusal was a rate limit's, not a cap
      if (++this.#tentative.answers >= TENTATIVE_ANSWERS) {
        this.#tentative = undefined;
        this.#ceiling = undefined;
        this.#rateLimited = true;
        this.#slowStart = true; // the pace will bind: the limit climbs to what it needs
      }
    }
    if (epoch !== this.#epoch) return undefined;
    if (sample && this.#queueing(sample.latencyMs)) return undefined;
    this.#successes++;
    if (!sample || sample.inFlight >= this.#limit) this.#reached = true;
    if (this.#successes < this.#window) return undefined;
    const reached = this.#reached;
    this.#successes = 0;
    this.#reached = false;
    if (!reached && !this.#slowStart) return undefined;
    this.#limit = Math.min(this.max, this.#limit + 1);
    // the count that was refused is answered now: the capacity grew (a tentative ceiling is kept until answers
    // there, or a second refusal, say what it was)
    if (this.#ceiling !== undefined && this.#limit >= this.#ceiling && this.#tentative === undefined) {
      this.#ceiling = undefined;
    }
    return undefined;
  }

  /**
   * Adds an answer's latency to the latency window (max(BASE_SAMPLES, limit) answers of this epoch, BASE_SAMPLES in the slow start); at the window's
   * end, whether its mean says requests queue at the server, and if so the limit falls to what is being served
   * (about limit × unloaded ÷ latency at once).
   */
  #queueing(latencyMs: number): boolean {
    this.#latencySum += latencyMs;
    this.#latencyCount++;
    // in the slow start the limit grows by one an answer: a window of BASE_SAMPLES answers, else it would never end
    if (this.#latencyCount < (this.#slowStart ? BASE_SAMPLES : Math.max(BASE_SAMPLES, this.#limit))) return false;
    const windowMean = this.#latencySum / this.#latencyCount;
    this.#latencySum = 0;
    this.#latencyCount = 0;
    const unloaded = this.unloadedLatencyMs;
    if (unloaded === undefined || this.#limit <= 1 || windowMean <= QUEUE_FACTOR * unloaded) return false;
    const served = Math.floor((this.#limit * unloaded) / windowMean);
    this.#congested(this.#limit, Math.max(this.min, Math.min(this.#limit - 1, served)));
    return true;
  }

  /**
   * An endpoint-wide outage (the endpoint gate closed): when it reopens, its backlog goes at half the limit (never
   * below `min`) and the limit climbs again, rather than all at once.
   */
  halve(): void {
    const next = Math.max(this.min, Math.ceil(this.#limit / 2));
    if (next === this.#limit) return;
    // the epoch stays: the requests in flight still report on the endpoint (a 429 among them is a refusal)
    this.#limit = next;
    this.#resetWindows();
  }

  /** A congestion event at `at` in flight: the limit becomes `next` and the ceiling follows. */
  #congested(at: number, next: number): void {
    // the capacity is below `at`: the limit probes it again only after PROBE_WINDOWS windows (a capacity that fell
    // moves the ceiling down with it)
    this.#ceiling = at;
    this.#limit = next;
    this.#slowStart = false;
    this.#resetWindows();
    this.#epoch++;
  }

  #resetWindows(): void {
    this.#successes = 0;
    this.#reached = false;
    this.#latencySum = 0;
    this.#latencyCount = 0;
  }
}

const mean = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;

export function positive(value: number, name: string): number {
  if (!(value > 0)) throw new RangeError(`limiter ${name} must be positive (got ${value})`);
  return value;
}
