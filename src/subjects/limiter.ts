import { LimiterAbortError } from '../errors.js';
import { type AdaptiveBounds, AdaptiveConcurrency, type LeaseOutcome, positive } from './adaptive-concurrency.js';
import { AdaptivePace } from './adaptive-pace.js';

export {
  type AdaptiveBounds,
  AdaptiveConcurrency,
  DEFAULT_ADAPTIVE_BOUNDS,
  type LeaseOutcome,
  PROBE_WINDOWS,
  stepDown,
} from './adaptive-concurrency.js';

/**
 * A process-wide limiter of concurrency, requests per minute and tokens per minute, shared by every subject
 * that talks to the same endpoint (see `sharedLimiter`). FIFO: a request never overtakes an earlier one.
 * Token budgets are charged with an estimate at acquire time (the tokenizer's count of the prompt plus the output
 * budget, limiter-step.ts) and corrected to the reported usage on release. The concurrency is a fixed limit when
 * configured, else adaptive (adaptive-concurrency.ts: a slow start, a concurrency cap found from the in-flight counts
 * of 429s, a queueing server found from latency), and requests are paced (adaptive-pace.ts) at the rate an
 * endpoint's rate limit implies, learned from 429s and the accepted rate, or stated in its `x-ratelimit-*` headers
 * (`learn`). Across processes (Vitest workers) each process has its own limiter: divide the provider's limits by the
 * number of workers, or lower maxWorkers.
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

export interface Lease {
  /**
   * Frees the concurrency slot; `actualTokens` replaces the estimate charged to the token window, `outcome`
   * (default 'other') feeds the adaptive concurrency limit and pace.
   */
  release(actualTokens?: number, outcome?: LeaseOutcome): void;
}

interface Waiter {
  tokens: number;
  /** It was not granted the moment it asked: the limits held it (adaptive-pace.ts measures the rate over that time). */
  held?: boolean;
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
/** In flight allowed over what a learned pace keeps in flight, once the endpoint's limit is known to be a rate. */
export const PACED_HEADROOM = 1.5;
/** How late a paced grant may be and its schedule still kept (timers fire late on a loaded machine). */
const CATCH_UP_MS = 100;

/**
 * The next slot of a paced schedule after a grant at `now`: one interval after the slot the grant was due at, when
 * it came at most CATCH_UP_MS late (late timers do not lose the time), else one interval after `now` (a sender
 * that was idle gets no burst for it).
 */
function nextSlot(due: number, now: number, interval: number): number {
  return (now - due <= CATCH_UP_MS ? Math.max(due, now - interval) : now) + interval;
}

const systemClock: LimiterClock = {
  now: () => performance.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export { LimiterAbortError };

/** Rate limits an endpoint states in its headers (x-ratelimit-limit-requests / -tokens), per minute. */
export interface StatedLimits {
  requestsPerMinute?: number;
  tokensPerMinute?: number;
}

export class RateLimiter {
  /** The fixed concurrency, or undefined when it adapts. */
  private readonly fixed: number | undefined;
  /** Present when the concurrency adapts (no `concurrency` configured). */
  readonly adaptive: AdaptiveConcurrency | undefined;
  /** The pace of the requests (learned from 429s or stated by the endpoint); adaptive limiters only. */
  readonly pace: AdaptivePace | undefined;
  private readonly rpm: number;
  private readonly tpm: number;
  /** Tokens per second the endpoint states (x-ratelimit-limit-tokens ÷ 60): the grants' charges are paced to it. */
  private statedTokensPerSecond: number | undefined;
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
  /** The paced schedules (a theoretical arrival time per pace, GCRA): no grant before them. */
  private nextRequestAt = Number.NEGATIVE_INFINITY;
  private nextTokensAt = Number.NEGATIVE_INFINITY;
  /** When a request was last answered (undefined: never). */
  private lastAnswer: number | undefined;

  constructor(
    config: LimiterConfig = {},
    private readonly clock: LimiterClock = systemClock,
  ) {
    this.fixed = config.concurrency === undefined ? undefined : positive(config.concurrency, 'concurrency');
    this.adaptive = this.fixed === undefined ? new AdaptiveConcurrency(config.adaptive) : undefined;
    this.pace = this.fixed === undefined ? new AdaptivePace() : undefined;
    this.rpm = positive(config.requestsPerMinute ?? Number.POSITIVE_INFINITY, 'requestsPerMinute');
    this.tpm = positive(config.tokensPerMinute ?? Number.POSITIVE_INFINITY, 'tokensPerMinute');
  }

  get pending(): number {
    return this.queue.length;
  }

  get active(): number {
    return this.inFlight;
  }

  /**
   * Requests allowed in flight now: the fixed concurrency, or the adaptive limit's current value — and, once the
   * endpoint has shown a rate limit, at least PACED_HEADROOM × what the learned pace keeps in flight at the mean
   * latency (Little's law), so that the pace binds and not the concurrency (at 2 s latency a 10/s limit needs ~20).
   */
  get concurrency(): number {
    if (this.fixed !== undefined) return this.fixed;
    const adaptive = this.adaptive;
    if (!adaptive) return 1;
    if (!adaptive.rateLimited || !this.pace) return adaptive.limit;
    const perSecond = this.pace.requestRate(this.clock.now());
    if (perSecond === undefined) return adaptive.limit;
    const needed = Math.ceil((PACED_HEADROOM * perSecond * this.pace.meanLatencyMs) / 1000);
    return Math.min(adaptive.max, Math.max(adaptive.limit, needed));
  }

  /** Milliseconds since a request was last answered (infinite: none ever was). */
  sinceAnswerMs(): number {
    return this.lastAnswer === undefined ? Number.POSITIVE_INFINITY : this.clock.now() - this.lastAnswer;
  }

  /**
   * The limits the endpoint states in its headers: the requests are paced to them (an adaptive limiter only; a
   * configured limit is the user's word).
   */
  learn(limits: StatedLimits): void {
    if (!this.pace) return;
    if (limits.requestsPerMinute !== undefined) this.pace.state(limits.requestsPerMinute);
    if (limits.tokensPerMinute !== undefined) {
      this.statedTokensPerSecond = limits.tokensPerMinute > 0 ? limits.tokensPerMinute / 60 : undefined;
    }
  }

  /**
   * The endpoint closed for all its trials (the endpoint gate): when it reopens, the backlog goes at half the
   * adaptive limit and climbs again, never all at once.
   */
  congested(): void {
    this.adaptive?.halve();
  }

  /** Waits for a slot; rejects with LimiterAbortError if `signal` aborts first. */
  acquire(tokens: number, signal?: AbortSignal): Promise<Lease> {
    if (signal?.aborted) return Promise.reject(new LimiterAbortError());
    return new Promise<Lease>((resolve, reject) => {
      const waiter: Waiter = { tokens: Math.max(0, tokens), resolve, reject, signal };
      if (signal) this.watch(signal, waiter);
      this.queue.push(waiter);
      this.pump();
      waiter.held = true; // still waiting, or granted just now (then unread)
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
      const waitMs = Math.max(this.windowWait(now, head.tokens), this.nextRequestAt - now, this.nextTokensAt - now);
      if (waitMs > 0) {
        this.timer = this.clock.setTimeout(() => {
          this.timer = undefined;
          this.pump();
        }, waitMs);
        return;
      }
      this.queue.shift();
      this.unwatch(head);
      head.resolve(this.grant(now, head.tokens, head.held === true));
    }
  }

  /**
   * Advances the paced schedules past a grant at `now`: the next grant is one interval later (`nextSlot`). Returns
   * the intervals it advanced them by (a grant never sent gives them back).
   */
  private schedule(now: number, tokens: number): { requests: number; tokens: number } {
    const advanced = { requests: 0, tokens: 0 };
    const rate = this.pace?.rate(now);
    if (rate !== undefined) {
      const before = this.nextRequestAt;
      this.nextRequestAt = nextSlot(this.nextRequestAt, now, 1000 / rate);
      advanced.requests = this.nextRequestAt - Math.max(before, now);
    }
    const learned = this.pace?.tokenRate(now);
    const stated = this.statedTokensPerSecond;
    const tokensPerSecond = learned === undefined || (stated !== undefined && stated < learned) ? stated : learned;
    if (tokensPerSecond !== undefined && tokens > 0) {
      const before = this.nextTokensAt;
      this.nextTokensAt = nextSlot(this.nextTokensAt, now, (1000 * tokens) / tokensPerSecond);
      advanced.tokens = this.nextTokensAt - Math.max(before, now);
    }
    return advanced;
  }

  private grant(now: number, tokens: number, held: boolean): Lease {
    this.inFlight++;
    this.starts.push(now);
    const advanced = this.schedule(now, tokens);
    const charge: Charge = { at: now, tokens };
    this.charges.push(charge);
    const epoch = this.adaptive?.epoch ?? 0;
    const paceEpoch = this.pace?.epoch ?? 0;
    const paced = this.pace?.granted(now, tokens, held);
    const inFlight = this.inFlight;
    let released = false;
    return {
      release: (actualTokens?: number, outcome: LeaseOutcome = 'other') => {
        if (released) return;
        released = true;
        if (outcome === 'unsent') {
          // never sent (the endpoint gate closed while it waited, the run stopped): as if never granted — its place
          // in the windows and the paced schedules goes back (else a closed gate's deferred trials, granted and
          // sent back one after another, would use up the pace's slots and hold the requests that do go)
          charge.tokens = 0;
          const start = this.starts.indexOf(now);
          if (start >= 0) this.starts.splice(start, 1);
          this.nextRequestAt -= advanced.requests;
          this.nextTokensAt -= advanced.tokens;
          this.pace?.forget(paced);
          this.inFlight--;
          this.pump();
          return;
        }
        if (actualTokens !== undefined && Number.isFinite(actualTokens)) charge.tokens = Math.max(0, actualTokens);
        const at = this.clock.now();
        const sample = { inFlight, latencyMs: at - now };
        if (outcome === 'success') {
          this.lastAnswer = at;
          this.pace?.answered(at, sample.latencyMs);
        }
        // a 429 of a request granted before the last cut of the pace belongs to that cut's event: it says nothing
        // of the concurrency either
        const stale = outcome === 'rate-limited' && this.pace !== undefined && paceEpoch !== this.pace.epoch;
        const refusal = stale ? 'rate' : this.adaptive?.report(epoch, outcome, sample);
        if (refusal === 'rate') this.pace?.refused(paceEpoch, at, paced);
        // a concurrency refusal was not admitted; a request that failed otherwise (a 500, a dropped connection) or a
        // trial's repeated 429 (not the rate's, limiter-step.ts) used its place in the pace as an answer does: counted
        // as not admitted, they would pull the rate measured, and the next cut, down to the answers among them
        else if (outcome === 'rate-limited') this.pace?.dropped(paced);
        if (outcome === 'rate-limited') this.holdAfterRefusal(at);
        this.inFlight--;
        this.pump();
      },
    };
  }

  /**
   * A refused request frees its slot within milliseconds: granted again at once, it would be refused again, and the
   * next, a cascade of 429s before the pace is cut. The next grant waits one interval of the pace (the accepted rate
   * before there is one). Not after a trial's repeated 429 (not the rate's): with few requests in the window the
   * rate they make is that of the holds themselves — a hold of one window per retry, retries spaced by it.
   */
  private holdAfterRefusal(now: number): void {
    const perSecond = this.pace?.requestRate(now) ?? this.pace?.accepted(now);
    if (perSecond !== undefined && perSecond > 0) {
      this.nextRequestAt = Math.max(this.nextRequestAt, now + 1000 / perSecond);
    }
  }

  private expire(now: number): void {
    while (this.starts.length > 0 && this.starts[0] <= now - WINDOW_MS) this.starts.shift();
    while (this.charges.length > 0 && this.charges[0].at <= now - WINDOW_MS) this.charges.shift();
  }

  /** Milliseconds until the request and token windows admit one more request of `tokens`. */
  private windowWait(now: number, tokens: number): number {
    let wait = 0;
    if (this.starts.length >= this.rpm) wait = Math.max(wait, this.starts[0] + WINDOW_MS - now);
    if (this.tpm === Number.POSITIVE_INFINITY) return wait;
    // A single request larger than the whole token budget waits for an empty window, then goes alone.
    let used = this.charges.reduce((sum, c) => sum + c.tokens, 0);
    for (let i = 0; used + tokens > this.tpm && i < this.charges.length; i++) {
      wait = Math.max(wait, this.charges[i].at + WINDOW_MS - now);
      used -= this.charges[i].tokens;
    }
    return wait;
  }
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
