import type { ChainUsage } from '../../schema/chain-usage.js';
import { tierMustFail } from './tally.js';
import type { TierTargets } from './tier-targets.js';
import { isAbortWorthy, type SccTrialRecord, shouldPromote, TrialNotSentError, type TrialOutcome } from './trial.js';

/** The port through which a tier asks its trials (./ladder-trials.ts binds it to the subject and the plugin). */
export interface TierRunner {
  /** Runs trial `index` with `target` and `budget`; aborted when `signal` aborts before it has landed. */
  run(index: number, target: number, budget: number, signal: AbortSignal): Promise<TrialOutcome>;
}

export interface WalkRule {
  /** Trials the tier plans (K). */
  planned: number;
  tolerance: number;
  /** Ours: stop issuing and abort the trials in flight once `tierMustFail` holds. */
  earlyDecision: boolean;
}

/**
 * The state of one tier while its trials land, whatever the schedule (./schedules/*): the records, the learned
 * budget, what was issued and aborted, and the three reasons to stop launching — the early decision, the authors'
 * abort rule, and the spend ledger's refusal. A schedule only chooses when to `launch` and when to `absorb`.
 */
export class TierWalk {
  readonly records: SccTrialRecord[] = [];
  /** What the trials aborted in flight had used (their records are dropped, their calls were made). */
  readonly abortedUsage: ChainUsage[] = [];
  /** What the trials the spend ledger refused had used before the refused call. */
  readonly notSentUsage: ChainUsage[] = [];
  /** The first trial the run's spend ledger refused: no further launch, and the tier has no verdict. */
  notSent: TrialNotSentError | undefined;
  issued = 0;
  aborted = 0;
  decidedEarly = false;
  /** Stopped by the authors' abort rule (an error or exhausted retries after a doubling). */
  abortRuleStopped = false;
  private readonly controller = new AbortController();

  constructor(
    private readonly runner: TierRunner,
    private readonly targets: TierTargets,
    readonly rule: WalkRule,
    /** Learned budget in force (never decreases). */
    public budget: number,
  ) {}

  /** Aborts the trials in flight (the caller's signal did). */
  abort(): void {
    this.controller.abort();
  }

  stopped(): boolean {
    return this.decidedEarly || this.abortRuleStopped || this.notSent !== undefined || this.controller.signal.aborted;
  }

  /** Runs trial `index` at `budget`: its record, or null when it was aborted or refused. */
  async launch(index: number, budget: number): Promise<SccTrialRecord | null> {
    this.issued++;
    let outcome: TrialOutcome;
    try {
      outcome = await this.runner.run(index, this.targets.for(index), budget, this.controller.signal);
    } catch (error) {
      if (!(error instanceof TrialNotSentError)) throw error;
      this.notSent ??= error;
      this.notSentUsage.push(error.usage);
      return null;
    }
    if (outcome.kind === 'answered') return outcome.record;
    this.aborted++;
    if (outcome.usage) this.abortedUsage.push(outcome.usage);
    return null;
  }

  /** Bookkeeping once results are in (one at a time, or a batch sorted by index): promotion, abort rule, decision. */
  absorb(batch: readonly SccTrialRecord[]): void {
    for (const record of batch) {
      this.records.push(record);
      if (shouldPromote(record, this.budget)) this.budget = record.finalMaxOutputTokens;
      if (isAbortWorthy(record)) this.abortRuleStopped = true;
    }
    if (this.mustFail(this.records)) {
      if (!this.abortRuleStopped) this.decidedEarly = true;
      this.controller.abort();
    }
  }

  /** The early decision inside a parallel batch: checked on every completion, before the batch is absorbed. */
  watch(done: readonly SccTrialRecord[]): void {
    if (this.mustFail([...this.records, ...done])) {
      this.decidedEarly = true;
      this.controller.abort();
    }
  }

  private mustFail(records: readonly SccTrialRecord[]): boolean {
    const { earlyDecision, planned, tolerance } = this.rule;
    return earlyDecision && !this.decidedEarly && tierMustFail(records, planned, tolerance);
  }
}
