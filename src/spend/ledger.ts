import type { SpendAmount, SpendLimitReport, SpendLimits, SpendStop } from '../schema/spend.js';
import type { BatchPassSpend } from './batch-pass.js';

/**
 * The spend ledger of one run: every paid trial asks it before its first request is sent and tells it what the
 * trial spent once its answer (or its failure) is in. Pure accounting, no I/O; one instance lives in the main
 * process (src/spend/ledger-server.ts) and the workers reach it over loopback HTTP (src/spend/ledger-client.ts),
 * so a limit holds across all of a run's processes.
 *
 * The launch rule: a trial is admitted only while the settled spend plus the floor of the trials in flight is
 * below every limit — for calls, settled requests + trials in flight < maxCalls. The floor is what a trial spends
 * at the least once sent (one request, its prompt tokens, their price), so an admitted trial can take the run
 * past a limit only by what it spends above its floor. Hence, with L the last trial admitted and I the trials
 * in flight when it was: spent − limit < Σ_{i ∈ I ∪ {L}} cap_i ≤ (peak trials in flight) × (largest per-trial
 * cap), which is `overshootBound`. A cap is what one trial can spend at most (its retry attempts, prompt + output
 * budget tokens, their price); a trial that spent more than it declared (a prompt longer than its estimate, a
 * provider's re-send) widens the cap to what it spent, so the bound holds by construction.
 *
 * Once a limit refuses a trial (or the run is interrupted) the stop is final: every later trial is refused, so
 * which limit stopped the run, and from when, is one fact.
 */

/** What a trial declares before it is sent. `costUsd` is null when its subject has no price. */
export interface TrialClaim {
  /** The least it spends once sent: 1 request, its prompt tokens, their price. */
  floor: SpendAmount;
  /** The most it can spend: its request attempts, prompt + output-budget tokens, their price. */
  cap: SpendAmount;
}

/** The most trials one loopback request to the ledger carries (a claim is ~150 bytes of JSON). */
export const MAX_LEDGER_BATCH = 256;

/** The most admissions one worker may hold in reserve (./ledger-client.ts): what the overshoot bound may widen by. */
export const MAX_RESERVE = 64;

export type Admission = { admitted: true; id: number } | { admitted: false; stoppedBy: SpendStop; reason: string };

/**
 * The ledger as a worker's subject sees it (src/spend/ledger-client.ts over HTTP, or a SpendLedger in-process):
 * ask before a trial's first request, tell what it spent when it is over.
 */
export interface SpendGate {
  admit(claim: TrialClaim): Promise<Admission>;
  settle(id: number, actual: SpendAmount): Promise<void>;
}

/** A ledger in this process as a gate (tests, and a run without workers). */
export const localGate = (ledger: SpendLedger): SpendGate => ({
  admit: async (claim) => ledger.admit(claim),
  settle: async (id, actual) => ledger.settle(id, actual),
});

const ZERO: SpendAmount = { calls: 0, tokens: 0, costUsd: 0 };

const addCost = (a: number | null, b: number | null): number | null => (a === null || b === null ? null : a + b);
const maxCost = (a: number | null, b: number | null): number | null =>
  a === null || b === null ? null : Math.max(a, b);

const add = (a: SpendAmount, b: SpendAmount): SpendAmount => ({
  calls: a.calls + b.calls,
  tokens: a.tokens + b.tokens,
  costUsd: addCost(a.costUsd, b.costUsd),
});

const widest = (a: SpendAmount, b: SpendAmount): SpendAmount => ({
  calls: Math.max(a.calls, b.calls),
  tokens: Math.max(a.tokens, b.tokens),
  costUsd: maxCost(a.costUsd, b.costUsd),
});

/** The flag each limit is given on the command line, for messages. */
/** The reason of a trial the ledger kept from being sent because the run was interrupted. */
export const NOT_SENT_INTERRUPTED = 'not sent: the run was interrupted';

export const LIMIT_FLAGS: Record<Exclude<SpendStop, 'interrupt'>, string> = {
  maxCost: '--max-cost',
  maxTokens: '--max-tokens',
  maxCalls: '--max-calls',
};

const usd = (x: number): string => `$${x < 1 ? x.toFixed(4) : x.toFixed(2)}`;

function amountText(stop: Exclude<SpendStop, 'interrupt'>, value: number): string {
  if (stop === 'maxCost') return usd(value);
  return `${value.toLocaleString('en-US')} ${stop === 'maxCalls' ? 'calls' : 'tokens'}`;
}

export class SpendLedger {
  readonly limits: SpendLimits;
  #settled: SpendAmount = { ...ZERO };
  readonly #inFlight = new Map<number, TrialClaim>();
  #nextId = 1;
  #peakInFlight = 0;
  #cap: SpendAmount = { ...ZERO };
  #stoppedBy: SpendStop | null = null;
  #notSent = 0;
  readonly #onStop: Array<(stop: SpendStop) => void> = [];

  constructor(limits: SpendLimits = {}) {
    this.limits = { ...limits };
  }

  get stoppedBy(): SpendStop | null {
    return this.#stoppedBy;
  }

  get inFlight(): number {
    return this.#inFlight.size;
  }

  /** Admits a trial (it may now send its requests) or refuses it (it is never sent: outcome `budget`). */
  admit(claim: TrialClaim): Admission {
    if (this.#stoppedBy === null) this.#stop(this.#reached(claim));
    if (this.#stoppedBy !== null) {
      this.#notSent++;
      return { admitted: false, stoppedBy: this.#stoppedBy, reason: this.#reason(this.#stoppedBy) };
    }
    return { admitted: true, id: this.#open(claim) };
  }

  /**
   * Admits up to `count` trials in advance, each as `claim` (a worker's reserve, ./ledger-client.ts: its trials
   * then admit locally, without a round trip under their limiter slot), but only as many as leave every limit
   * unreachable even if every trial in flight, reserved ones included, spent its whole cap: near a limit nothing is
   * reserved and each trial asks on its own, as before. A reserved admission counts in flight from now, at its cap
   * in the bound (peak in flight × cap: so the bound widens by at most a worker's reserve) and at a floor of 0 in
   * the launch rule until a trial takes it (`use`; it may be returned unused, settled at 0: a stopped run has still
   * spent at least its limit). Never refuses, never stops the run.
   */
  reserve(claim: TrialClaim, count: number): number[] {
    if (this.#stoppedBy !== null) return [];
    const cap = widest(this.#cap, claim.cap);
    let worst = this.#settled;
    for (const open of this.#inFlight.values()) worst = add(worst, open.cap);
    const { maxCalls, maxTokens, maxCost: costLimit } = this.limits;
    const fits = (k: number): boolean =>
      (maxCalls === undefined || worst.calls + k * cap.calls < maxCalls) &&
      (maxTokens === undefined || worst.tokens + k * cap.tokens < maxTokens) &&
      (costLimit === undefined ||
        (worst.costUsd !== null && cap.costUsd !== null && worst.costUsd + k * cap.costUsd < costLimit));
    let granted = Math.min(count, MAX_RESERVE);
    while (granted > 0 && !fits(granted)) granted--;
    const reserved: TrialClaim = {
      floor: { calls: 0, tokens: 0, costUsd: claim.floor.costUsd === null ? null : 0 },
      cap: claim.cap,
    };
    return Array.from({ length: granted }, () => this.#open(reserved));
  }

  /**
   * A reserved admission taken by a trial (told by its worker after the trial was sent, without waiting): from now
   * on it counts at that trial's floor in the launch rule, and the trial's cap widens the bound's per-trial cap.
   */
  use(id: number, claim: TrialClaim): void {
    if (!this.#inFlight.has(id)) return; // settled already, or never admitted here
    this.#inFlight.set(id, claim);
    this.#cap = widest(this.#cap, claim.cap);
  }

  /** Resolves once the run is stopped (a limit reached, or an interrupt): the reserves are then returned. */
  whenStopped(): Promise<SpendStop> {
    const stop = this.#stoppedBy;
    return stop !== null ? Promise.resolve(stop) : new Promise((resolve) => this.#onStop.push(resolve));
  }

  #open(claim: TrialClaim): number {
    const id = this.#nextId++;
    this.#inFlight.set(id, claim);
    this.#peakInFlight = Math.max(this.#peakInFlight, this.#inFlight.size);
    this.#cap = widest(this.#cap, claim.cap);
    return id;
  }

  #stop(stop: SpendStop | null): void {
    if (stop === null || this.#stoppedBy !== null) return;
    this.#stoppedBy = stop;
    for (const listener of this.#onStop.splice(0)) listener(stop);
  }

  /** What an admitted trial spent (requests sent, retries included; the provider's tokens; their price). */
  settle(id: number, actual: SpendAmount): void {
    const claim = this.#inFlight.get(id);
    if (!claim) return; // settled already, or never admitted here
    this.#inFlight.delete(id);
    this.#settled = add(this.#settled, actual);
    this.#cap = widest(this.#cap, actual);
  }

  /**
   * What was spent before the run's first trial, outside this ledger (the `run --batch` pass, src/spend/batch-pass.ts):
   * counted against the limits and in the report; a limit that held trials back there stops the run here too.
   */
  spentBefore(pass: BatchPassSpend): void {
    this.#settled = add(this.#settled, pass.spent);
    this.#notSent += pass.notSent;
    this.#stop(pass.stoppedBy);
  }

  /** Stops launching (Ctrl-C): the trials in flight may finish; every later trial is refused. */
  interrupt(): void {
    this.#stop('interrupt');
  }

  /** The limit this claim would be launched past, or null when it may go. */
  #reached(claim: TrialClaim): SpendStop | null {
    const { maxCalls, maxTokens, maxCost: costLimit } = this.limits;
    const committed = this.#committed();
    if (maxCalls !== undefined && committed.calls >= maxCalls) return 'maxCalls';
    if (maxTokens !== undefined && committed.tokens >= maxTokens) return 'maxTokens';
    if (costLimit !== undefined) {
      // an unpriced trial cannot be held to a cost limit (the run's configuration check rules it out)
      if (committed.costUsd === null || claim.floor.costUsd === null) return 'maxCost';
      if (committed.costUsd >= costLimit) return 'maxCost';
    }
    return null;
  }

  /** Settled spend plus the floor of every trial in flight (summed afresh: no float drift from subtracting). */
  #committed(): SpendAmount {
    let committed = this.#settled;
    for (const claim of this.#inFlight.values()) committed = add(committed, claim.floor);
    return committed;
  }

  #reason(stop: SpendStop): string {
    if (stop === 'interrupt') return NOT_SENT_INTERRUPTED;
    const limit = this.limits[stop] as number;
    return `not sent: the spending limit ${LIMIT_FLAGS[stop]} ${amountText(stop, limit)} was reached`;
  }

  /** The report's limit record (spendLimitReportSchema). */
  report(): SpendLimitReport {
    const spent = { ...this.#settled };
    const over = (limit: number | undefined, value: number): number =>
      limit === undefined ? 0 : Math.max(0, value - limit);
    const costOver =
      spent.costUsd === null
        ? null
        : this.limits.maxCost === undefined
          ? 0
          : Math.max(0, spent.costUsd - this.limits.maxCost);
    const peak = this.#peakInFlight;
    return {
      limits: { ...this.limits },
      spent,
      stoppedBy: this.#stoppedBy,
      notSent: this.#notSent,
      overshoot: {
        calls: over(this.limits.maxCalls, spent.calls),
        tokens: over(this.limits.maxTokens, spent.tokens),
        costUsd: costOver,
      },
      overshootBound: {
        calls: peak * this.#cap.calls,
        tokens: peak * this.#cap.tokens,
        costUsd: this.#cap.costUsd === null ? null : peak * this.#cap.costUsd,
      },
    };
  }
}

/**
 * The one line a stopped run ends with: which limit stopped it, spent against the limit, the overshoot and its
 * bound, the trials not sent, and that a rerun resumes from the cache. Null when nothing was stopped.
 */
export function stopLine(report: SpendLimitReport): string | null {
  if (report.stoppedBy === null || report.notSent === 0) return null;
  const { stoppedBy, spent, notSent } = report;
  const trials = `${notSent.toLocaleString('en-US')} trial${notSent === 1 ? '' : 's'} not sent (outcome budget, missing data)`;
  const total =
    `${spent.calls.toLocaleString('en-US')} calls, ${spent.tokens.toLocaleString('en-US')} tokens` +
    (spent.costUsd === null ? '' : `, ${usd(spent.costUsd)}`);
  if (stoppedBy === 'interrupt') {
    return `ceilingbench: interrupted — spent ${total}; ${trials}; rerun to resume from the response cache (answered trials are not paid again)`;
  }
  const limit = report.limits[stoppedBy] as number;
  const value = stoppedBy === 'maxCost' ? (spent.costUsd ?? 0) : stoppedBy === 'maxCalls' ? spent.calls : spent.tokens;
  const over =
    stoppedBy === 'maxCost'
      ? (report.overshoot.costUsd ?? 0)
      : report.overshoot[stoppedBy === 'maxCalls' ? 'calls' : 'tokens'];
  const bound =
    stoppedBy === 'maxCost'
      ? (report.overshootBound.costUsd ?? 0)
      : report.overshootBound[stoppedBy === 'maxCalls' ? 'calls' : 'tokens'];
  return (
    `ceilingbench: stopped by ${LIMIT_FLAGS[stoppedBy]} — spent ${amountText(stoppedBy, value)} of ${amountText(stoppedBy, limit)} ` +
    `(overshoot ${amountText(stoppedBy, over)}, at most ${amountText(stoppedBy, bound)}; run total ${total}); ${trials}; ` +
    'rerun with a larger limit to resume from the response cache (answered trials are not paid again)'
  );
}
