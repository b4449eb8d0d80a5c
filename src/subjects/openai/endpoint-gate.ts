import { onAbort } from './abort-fanout.js';

/** Time as the gate sees it: retry.ts's RetryClock (declared here too, so the two modules import no cycle). */
export interface GateClock {
  now(): number;
  /** Resolves true after `ms`, or false as soon as `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<boolean>;
}

/**
 * The backoff of one endpoint (and model), shared by all its trials: when the endpoint answers with an
 * endpoint-wide transient fault (a 429, a 502/503/504, "Loading model", a refused connection), it is closed for
 * the wait the provider asked for (else our own backoff); its trials wait here together, before they take a
 * limiter slot, and when the wait is over ONE of them is sent as a probe while the rest keep waiting for its
 * answer: an answer opens the endpoint to all, another fault closes it again. So a 40 s retryDelay or a 45 s
 * model load costs about one request per wait, not one per trial.
 *
 * The faults of one outage (from its first fault to the next answer) are retried within `retryMaxMs`
 * (CEILINGBENCH_RETRY_MAX_MS). A wait the provider asks for that is longer than what is left of it
 * (`Retry-After: 3600`, a daily limit) or an outage that outlasts it stops the run (`stop`): no request could
 * succeed in time, and a rerun resumes from the response cache.
 *
 * The failed probes of an endpoint that has not answered once yet (a server still loading its model) are the
 * endpoint's, not the trial's: they do not count against the trial's attempts (`counts: false`); once it has
 * answered, every failure counts, so a request the endpoint refuses while it serves others still gives up.
 */
export interface GatePolicy {
  /** Own backoff after the first fault without a provider wait; doubles per failed probe. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** The time budget of one outage (CEILINGBENCH_RETRY_MAX_MS). */
  retryMaxMs: number;
}

export const DEFAULT_RETRY_MAX_MS = 300_000;

/** What `pass` lets a trial do. */
export type Pass =
  /** Send; `probe`: the one request sent after a wait. */
  | { kind: 'go'; probe: boolean; trial: object }
  /** The gate stopped the run (`reason`); send nothing. */
  | { kind: 'stopped'; reason: string }
  | { kind: 'aborted' }
  /** The wait is longer than the trial's remaining time. */
  | { kind: 'late'; waitMs: number };

/** How a request that passed the gate ended, for the gate. */
export type GateReport =
  /** A completion: the endpoint works. */
  | { kind: 'answered' }
  /** An endpoint-wide transient fault; `waitMs` is the wait the provider asked for, if it did. */
  | { kind: 'busy'; reason: string; waitMs?: number }
  /** Any other answer (a 4xx, a malformed body): the endpoint is reachable. */
  | { kind: 'reachable' }
  /** Says nothing about the endpoint (aborted, timed out, never sent). */
  | { kind: 'none' };

export type GateVerdict = { kind: 'retry'; counts: boolean } | { kind: 'stop'; reason: string };

const seconds = (ms: number): string => `${(ms / 1000).toFixed(ms < 1_000 ? 2 : ms < 10_000 ? 1 : 0)} s`;

interface Deferred {
  promise: Promise<void>;
  resolve: () => void;
}

const deferred = (): Deferred => {
  let resolve = () => {};
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
};

export class EndpointGate {
  #state: 'open' | 'closed' | 'probing' = 'open';
  /** No request before this time (while closed). */
  #until = 0;
  /** Failed probes in a row: the exponent of the own backoff. */
  #failedProbes = 0;
  /** First fault of the current outage. */
  #outageSince: number | undefined;
  #answeredOnce = false;
  /**
   * The gate's stop, until the wait it was about is over: the subject that met it stops for good (run-stop.ts),
   * while a later run in the same process (watch mode) may try the endpoint again.
   */
  #stop: { reason: string; until: number } | undefined;
  /** Settles when the probe in flight has been reported (or the gate stops). */
  #probe: Deferred | undefined;
  /** The trial whose probe failed last: it lets another waiting trial probe next (the probes rotate). */
  #lastFailedProbe: object | undefined;
  /** Trials that met a fault in this outage: while a trial that has not sleeps, they let it probe. */
  #failed = new WeakSet<object>();
  /** Trials sleeping out the wait now, and those of them that have not met a fault in this outage. */
  #sleepers = 0;
  #freshSleepers = 0;
  /** Settles when a probe starts or no trial sleeps any more: what a trial that let others probe waits for. */
  #nextProbe: Deferred | undefined;

  constructor(
    private readonly policy: GatePolicy,
    private readonly clock: GateClock,
  ) {}

  get stopped(): string | undefined {
    return this.#stop?.reason;
  }

  /** Whether trials pass at once (no wait, no probe, no stop). */
  get open(): boolean {
    return this.#state === 'open' && this.#stop === undefined;
  }

  /**
   * Waits until the trial may send (or the gate stops, `signal` aborts, the wait outlasts `remainingMs()`).
   * `trial` identifies the caller across its attempts, so that a trial whose probe failed lets another probe.
   */
  async pass(signal: AbortSignal | undefined, remainingMs: () => number, trial: object = {}): Promise<Pass> {
    for (;;) {
      if (this.#stop !== undefined && this.clock.now() >= this.#stop.until) {
        this.#stop = undefined;
        this.#open();
      }
      if (this.#stop !== undefined) return { kind: 'stopped', reason: this.#stop.reason };
      if (signal?.aborted) return { kind: 'aborted' };
      if (this.#state === 'open') return { kind: 'go', probe: false, trial };
      if (this.#state === 'probing') {
        if (this.#probe) await this.#waitFor(this.#probe, signal);
        continue;
      }
      const waitMs = this.#until - this.clock.now();
      if (waitMs <= 0) {
        const yields =
          (this.#failed.has(trial) && this.#freshSleepers > 0) ||
          (trial === this.#lastFailedProbe && this.#sleepers > 0);
        if (yields) {
          this.#nextProbe ??= deferred();
          await this.#waitFor(this.#nextProbe, signal);
          continue;
        }
        this.#state = 'probing';
        this.#probe = deferred();
        this.#lastFailedProbe = undefined;
        this.#settle('next');
        return { kind: 'go', probe: true, trial };
      }
      if (waitMs > remainingMs()) return { kind: 'late', waitMs };
      // a stop meanwhile is seen when the wait is over (the wait was the provider's, or ours, shorter than the budget)
      const fresh = !this.#failed.has(trial);
      this.#sleepers++;
      if (fresh) this.#freshSleepers++;
      try {
        await this.clock.sleep(waitMs, signal);
      } finally {
        this.#sleepers--;
        if (fresh) this.#freshSleepers--;
        if (this.#sleepers === 0 || (fresh && this.#freshSleepers === 0)) this.#settle('next');
      }
    }
  }

  /** Whether a trial that passed may still send now it holds a limiter slot (the endpoint may have closed meanwhile). */
  admits(pass: Pass): boolean {
    return pass.kind === 'go' && (pass.probe || (this.#state === 'open' && this.#stop === undefined));
  }

  /** Tells the gate how a request that passed ended. Every `go` pass is reported exactly once. */
  report(pass: Pass, report: GateReport): GateVerdict {
    const probe = pass.kind === 'go' && pass.probe;
    if (report.kind !== 'busy') {
      if (report.kind === 'answered') {
        this.#answeredOnce = true;
        this.#outageSince = undefined;
      }
      if (probe) {
        if (report.kind === 'none') this.#close(0);
        else this.#open();
      }
      return { kind: 'retry', counts: true };
    }
    const now = this.clock.now();
    this.#outageSince ??= now;
    if (pass.kind === 'go') this.#failed.add(pass.trial);
    if (pass.kind === 'go' && pass.probe) {
      this.#failedProbes++;
      this.#lastFailedProbe = pass.trial;
    }
    const own = Math.min(this.policy.maxDelayMs, this.policy.baseDelayMs * 2 ** Math.max(0, this.#failedProbes - 1));
    // the provider's wait is honoured as asked (it knows when its limit resets); else the own backoff
    const delay = report.waitMs ?? own;
    const left = this.#outageSince + this.policy.retryMaxMs - now;
    const budget = `CEILINGBENCH_RETRY_MAX_MS=${this.policy.retryMaxMs}`;
    const lasted = now - this.#outageSince;
    // a wait asked for that alone outlasts the budget (a daily limit), or an outage that has used it up
    if (report.waitMs !== undefined && report.waitMs > left && report.waitMs >= lasted) {
      return this.#halt(
        `the provider asks to wait ${seconds(report.waitMs)}, longer than the retry budget allows (${budget}, ` +
          `${seconds(Math.max(0, left))} left): ${report.reason}`,
        now + report.waitMs,
      );
    }
    if (delay > left) {
      return this.#halt(`the endpoint kept failing for ${seconds(lasted)} (${budget}): ${report.reason}`, now + delay);
    }
    this.#until = Math.max(this.#until, now + delay);
    if (this.#state === 'open') this.#state = 'closed';
    if (probe) this.#close(this.#until - now);
    return { kind: 'retry', counts: this.#answeredOnce };
  }

  #open(): void {
    this.#state = 'open';
    this.#failed = new WeakSet();
    this.#failedProbes = 0;
    this.#outageSince = undefined;
    this.#settle('probe');
  }

  #close(waitMs: number): void {
    this.#state = 'closed';
    this.#until = Math.max(this.#until, this.clock.now() + waitMs);
    this.#settle('probe');
  }

  #halt(reason: string, until: number): GateVerdict {
    this.#stop ??= { reason, until };
    this.#settle('probe');
    this.#settle('next');
    return { kind: 'stop', reason: this.#stop.reason };
  }

  #settle(which: 'probe' | 'next'): void {
    const waiting = which === 'probe' ? this.#probe : this.#nextProbe;
    if (which === 'probe') this.#probe = undefined;
    else this.#nextProbe = undefined;
    waiting?.resolve();
  }

  async #waitFor(event: Deferred, signal: AbortSignal | undefined): Promise<void> {
    if (signal?.aborted) return;
    if (!signal) return event.promise;
    await new Promise<void>((resolve) => {
      const undo = onAbort(signal, resolve);
      void event.promise.then(() => {
        undo();
        resolve();
      });
    });
  }
}

const registryKey = Symbol.for('ceilingbench.subjects.endpoint-gates');
type Registry = Map<string, EndpointGate>;

/** The process-wide gate of `key` (endpoint identity and model); the first caller's policy and clock create it. */
export function sharedGate(key: string, policy: GatePolicy, clock: GateClock): EndpointGate {
  const holder = globalThis as { [registryKey]?: Registry };
  holder[registryKey] ??= new Map();
  const registry = holder[registryKey];
  let gate = registry.get(key);
  if (!gate) {
    gate = new EndpointGate(policy, clock);
    registry.set(key, gate);
  }
  return gate;
}
