import { LimiterAbortError } from '../errors.js';

/**
 * A process-wide limiter of concurrency, requests per minute and tokens per minute, shared by every subject
 * that talks to the same endpoint (see `sharedLimiter`). FIFO: a request never overtakes an earlier one.
 * Token budgets are charged with an estimate at acquire time and corrected to the reported usage on
 * release. The concurrency is a fixed limit when configured, else adaptive (`AdaptiveConcurrency`: additive
 * increase below a remembered ceiling, on the rate-limit answers the requests report on release). Across processes (Vitest workers) each process has
 * its own limiter: divide the provider's limits by the number of workers, or lower maxWorkers.
 */

export interface LimiterConfig {
  /** Requests in flight at once, a fixed limit. Unset: adaptive, within `adaptive` (see AdaptiveConcurrency). */
  concurrency?: number;
  /** Bounds of the adaptive limit; ignored when `concurrency` is set. */
  adaptive?: AdaptiveBounds;
  /** Requests started per sliding 60 s window (default unlimited). */
  requestsPerMinute?: number;
  /** Tokens (prompt + completion) charged per sliding 60 s window (default unlimited). */
  tokensPerMinute?: number;
}

export interface LimiterClock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** What a finished request tells an adaptive limiter: answered, refused for its rate, or neither (neutral). */
export type LeaseOutcome = 'success' | 'rate-limited' | 'other';

export interface Lease {
  /**
   * Frees the concurrency slot; `actualTokens` replaces the estimate charged to the token window, `outcome`
   * (default 'other') feeds an adaptive concurrency limit.
   */
  release(actualTokens?: number, outcome?: LeaseOutcome): void;
}

export interface AdaptiveBounds {
  /** The limit to start at (default 4). */
  initial?: number;
  /** Never below this (default 1). */
  min?: number;
  /** Never above this (default 64). */
  max?: number;
}

export const DEFAULT_ADAPTIVE_BOUNDS: Required<AdaptiveBounds> = { initial: 4, min: 1, max: 64 };

/**
 * An adaptive concurrency limit: additive increase, gentle decrease, and a remembered ceiling. Start modest
 * (4 in flight); after a window of successes (as many as the current limit, about one round trip at that limit)
 * allow one more. On a rate-limit answer (a 429) remember the limit that drew it as the ceiling and step down to
 * ⌊0.9 × limit⌋ (at least one less), never below `min`; never above `max`. Below the ceiling the limit grows
 * window by window; reaching the ceiling again takes `PROBE_WINDOWS` windows of successes, so a limit that has
 * found the endpoint's capacity spends most of its time just under it and probes above it rarely (halving, TCP's
 * AIMD, held 0.88–0.90 of a hidden token bucket's rate: BENCHMARKS.md). A 429 one step under the ceiling keeps the
 * ceiling; lower down, the ceiling follows the limit (the capacity fell); once the limit passes the ceiling without a
 * 429, the ceiling is forgotten (the capacity grew). One congestion event steps down once: requests started before the last step (an
 * older epoch) saw the old limit, so their 429s and successes say nothing about the new one and are not counted.
 * Pure and deterministic: the limit is a function of the sequence of (epoch, outcome) reports, with no clock.
 */
export class AdaptiveConcurrency {
  readonly min: number;
  readonly max: number;
  #limit: number;
  #epoch = 0;
  #successes = 0;
  /** The limit at the last congestion event, while the limit has not passed it since. */
  #ceiling: number | undefined = undefined;

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

  /** The limit that drew the last 429, while the limit has not passed it since (undefined: none known). */
  get ceiling(): number | undefined {
    return this.#ceiling;
  }

  /** Successes needed before the next step up: one window, or `PROBE_WINDOWS` to reach the ceiling again. */
  get #window(): number {
    const probing = this.#ceiling !== undefined && this.#limit + 1 >= this.#ceiling;
    return this.#limit * (probing ? PROBE_WINDOWS : 1);
  }

  /** A request that started in `epoch` finished with `outcome`. */
  report(epoch: number, outcome: LeaseOutcome): void {
    if (epoch !== this.#epoch || outcome === 'other') return;
    if (outcome === 'rate-limited') {
      // a 429 just under the ceiling is noise about the same capacity (a token bucket's arrivals bunch): the ceiling
      // stays, so the limit climbs back in one window; any lower, the capacity fell and the ceiling follows it
      if (this.#ceiling === undefined || this.#limit + 1 !== this.#ceiling) this.#ceiling = this.#limit;
      this.#limit = stepDown(this.#limit, this.min);
      this.#successes = 0;
      this.#epoch++;
      return;
    }
    if (++this.#successes >= this.#window) {
      this.#successes = 0;
      this.#limit = Math.min(this.max, this.#limit + 1);
      if (this.#ceiling !== undefined && this.#limit > this.#ceiling) this.#ceiling = undefined;
    }
  }
}

/** Windows of successes before the limit reaches the last ceiling again (a probe above the known capacity). */
export const PROBE_WINDOWS = 12;

/** The limit after a congestion event: ⌊0.9 × limit⌋, at least one less, never below `min`. */
export function stepDown(limit: number, min: number): number {
  return Math.max(min, Math.min(limit - 1, Math.floor(limit * 0.9)));
}

interface Waiter {
  tokens: number;
  resolve: (lease: Lease) => void;
  reject: (error: Error) => void;
  signal?: AbortSignal;
}

/** The one abort listener the limiter keeps on a signal, and the waiters queued under that signal. */
interface Watch {
  waiters: Set<Waiter>;
  onAbort: () => void;
}

interface Charge {
  at: number;
  tokens: number;
}

const WINDOW_MS = 60_000;

const systemClock: LimiterClock = {
  now: () => performance.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export { LimiterAbortError };

export class RateLimiter {
  /** The fixed concurrency, or undefined when it adapts. */
  private readonly fixed: number | undefined;
  /** Present when the concurrency adapts (no `concurrency` configured). */
  readonly adaptive: AdaptiveConcurrency | undefined;
  private readonly rpm: number;
  private readonly tpm: number;
  private inFlight = 0;
  private readonly queue: Waiter[] = [];
  /**
   * One listener per signal, however many of its requests wait: a cell's trials share their test's signal, and a
   * listener per waiter (more than 10 when a cell has more trials in flight than the endpoint's concurrency) drew
   * Node's MaxListenersExceededWarning.
   */
  private readonly watches = new Map<AbortSignal, Watch>();
  private readonly starts: number[] = [];
  private readonly charges: Charge[] = [];
  private timer: unknown = undefined;

  constructor(
    config: LimiterConfig = {},
    private readonly clock: LimiterClock = systemClock,
  ) {
    this.fixed = config.concurrency === undefined ? undefined : positive(config.concurrency, 'concurrency');
    this.adaptive = this.fixed === undefined ? new AdaptiveConcurrency(config.adaptive) : undefined;
    this.rpm = positive(config.requestsPerMinute ?? Number.POSITIVE_INFINITY, 'requestsPerMinute');
    this.tpm = positive(config.tokensPerMinute ?? Number.POSITIVE_INFINITY, 'tokensPerMinute');
  }

  get pending(): number {
    return this.queue.length;
  }

  get active(): number {
    return this.inFlight;
  }

  /** Requests allowed in flight now: the fixed concurrency, or the adaptive limit's current value. */
  get concurrency(): number {
    return this.fixed ?? this.adaptive?.limit ?? 1;
  }

  /** Waits for a slot; rejects with LimiterAbortError if `signal` aborts first. */
  acquire(tokens: number, signal?: AbortSignal): Promise<Lease> {
    if (signal?.aborted) return Promise.reject(new LimiterAbortError());
    return new Promise<Lease>((resolve, reject) => {
      const waiter: Waiter = { tokens: Math.max(0, tokens), resolve, reject, signal };
      if (signal) this.watch(signal, waiter);
      this.queue.push(waiter);
      this.pump();
    });
  }

  private watch(signal: AbortSignal, waiter: Waiter): void {
    let watch = this.watches.get(signal);
    if (!watch) {
      const waiters = new Set<Waiter>();
      const onAbort = () => {
        this.watches.delete(signal);
        for (let i = this.queue.length - 1; i >= 0; i--) if (waiters.has(this.queue[i])) this.queue.splice(i, 1);
        for (const w of waiters) w.reject(new LimiterAbortError());
        this.pump();
      };
      watch = { waiters, onAbort };
      this.watches.set(signal, watch);
      signal.addEventListener('abort', onAbort, { once: true });
    }
    watch.waiters.add(waiter);
  }

  /** A waiter leaves the queue with a slot: its signal's listener goes when no other waiter needs it. */
  private unwatch(waiter: Waiter): void {
    const signal = waiter.signal;
    const watch = signal ? this.watches.get(signal) : undefined;
    if (!signal || !watch) return;
    watch.waiters.delete(waiter);
    if (watch.waiters.size > 0) return;
    signal.removeEventListener('abort', watch.onAbort);
    this.watches.delete(signal);
  }

  private pump(): void {
    if (this.timer !== undefined) {
      this.clock.clearTimeout(this.timer);
      this.timer = undefined;
    }
    while (this.queue.length > 0) {
      const now = this.clock.now();
      this.expire(now);
      const head = this.queue[0];
      if (this.inFlight >= this.concurrency) return; // a release will pump again
      const waitMs = this.windowWait(now, head.tokens);
      if (waitMs > 0) {
        this.timer = this.clock.setTimeout(() => {
          this.timer = undefined;
          this.pump();
        }, waitMs);
        return;
      }
      this.queue.shift();
      this.unwatch(head);
      head.resolve(this.grant(now, head.tokens));
    }
  }

  private grant(now: number, tokens: number): Lease {
    this.inFlight++;
    this.starts.push(now);
    const charge: Charge = { at: now, tokens };
    this.charges.push(charge);
    const epoch = this.adaptive?.epoch ?? 0;
    let released = false;
    return {
      release: (actualTokens?: number, outcome: LeaseOutcome = 'other') => {
        if (released) return;
        released = true;
        if (actualTokens !== undefined && Number.isFinite(actualTokens)) charge.tokens = Math.max(0, actualTokens);
        this.adaptive?.report(epoch, outcome);
        this.inFlight--;
        this.pump();
      },
    };
  }

  private expire(now: number): void {
    while (this.starts.length > 0 && this.starts[0] <= now - WINDOW_MS) this.starts.shift();
    while (this.charges.length > 0 && this.charges[0].at <= now - WINDOW_MS) this.charges.shift();
  }

  /** Milliseconds until the request and token windows admit one more request of `tokens`. */
  private windowWait(now: number, tokens: number): number {
    let wait = 0;
    if (this.starts.length >= this.rpm) wait = Math.max(wait, this.starts[0] + WINDOW_MS - now);
    // A single request larger than the whole token budget waits for an empty window, then goes alone.
    let used = this.charges.reduce((sum, c) => sum + c.tokens, 0);
    for (let i = 0; used + tokens > this.tpm && i < this.charges.length; i++) {
      wait = Math.max(wait, this.charges[i].at + WINDOW_MS - now);
      used -= this.charges[i].tokens;
    }
    return wait;
  }
}

function positive(value: number, name: string): number {
  if (!(value > 0)) throw new RangeError(`limiter ${name} must be positive (got ${value})`);
  return value;
}

const registryKey = Symbol.for('ceilingbench.subjects.limiters');
type Registry = Map<string, RateLimiter>;

/**
 * The process-wide limiter for `key` (an endpoint identity). The first caller's config creates it;
 * later callers share that instance whatever config they pass. No `concurrency` in that config: adaptive.
 */
export function sharedLimiter(key: string, config: LimiterConfig = {}): RateLimiter {
  const holder = globalThis as { [registryKey]?: Registry };
  holder[registryKey] ??= new Map();
  const registry = holder[registryKey];
  let limiter = registry.get(key);
  if (!limiter) {
    limiter = new RateLimiter(config);
    registry.set(key, limiter);
  }
  return limiter;
}
