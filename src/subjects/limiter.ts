import { LimiterAbortError } from '../errors.js';

/**
 * A process-wide limiter of concurrency, requests per minute and tokens per minute, shared by every subject
 * that talks to the same endpoint (see `sharedLimiter`). FIFO: a request never overtakes an earlier one.
 * Token budgets are charged with an estimate at acquire time and corrected to the reported usage on
 * release. Across processes (Vitest workers) each process has its own limiter: divide the provider's
 * limits by the number of workers, or lower maxWorkers.
 */

export interface LimiterConfig {
  /** Requests in flight at once (default 8). */
  concurrency?: number;
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
  /** Frees the concurrency slot; `actualTokens` replaces the estimate charged to the token window. */
  release(actualTokens?: number): void;
}

interface Waiter {
  tokens: number;
  resolve: (lease: Lease) => void;
  reject: (error: Error) => void;
  signal?: AbortSignal;
  onAbort?: () => void;
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
  private readonly concurrency: number;
  private readonly rpm: number;
  private readonly tpm: number;
  private inFlight = 0;
  private readonly queue: Waiter[] = [];
  private readonly starts: number[] = [];
  private readonly charges: Charge[] = [];
  private timer: unknown = undefined;

  constructor(
    config: LimiterConfig = {},
    private readonly clock: LimiterClock = systemClock,
  ) {
    this.concurrency = positive(config.concurrency ?? 8, 'concurrency');
    this.rpm = positive(config.requestsPerMinute ?? Number.POSITIVE_INFINITY, 'requestsPerMinute');
    this.tpm = positive(config.tokensPerMinute ?? Number.POSITIVE_INFINITY, 'tokensPerMinute');
  }

  get pending(): number {
    return this.queue.length;
  }

  get active(): number {
    return this.inFlight;
  }

  /** Waits for a slot; rejects with LimiterAbortError if `signal` aborts first. */
  acquire(tokens: number, signal?: AbortSignal): Promise<Lease> {
    if (signal?.aborted) return Promise.reject(new LimiterAbortError());
    return new Promise<Lease>((resolve, reject) => {
      const waiter: Waiter = { tokens: Math.max(0, tokens), resolve, reject, signal };
      if (signal) {
        waiter.onAbort = () => {
          const index = this.queue.indexOf(waiter);
          if (index >= 0) this.queue.splice(index, 1);
          reject(new LimiterAbortError());
          this.pump();
        };
        signal.addEventListener('abort', waiter.onAbort, { once: true });
      }
      this.queue.push(waiter);
      this.pump();
    });
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
      if (head.signal && head.onAbort) head.signal.removeEventListener('abort', head.onAbort);
      head.resolve(this.grant(now, head.tokens));
    }
  }

  private grant(now: number, tokens: number): Lease {
    this.inFlight++;
    this.starts.push(now);
    const charge: Charge = { at: now, tokens };
    this.charges.push(charge);
    let released = false;
    return {
      release: (actualTokens?: number) => {
        if (released) return;
        released = true;
        if (actualTokens !== undefined && Number.isFinite(actualTokens)) charge.tokens = Math.max(0, actualTokens);
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
 * later callers share that instance whatever config they pass.
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
