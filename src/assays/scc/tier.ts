import type { PyRandom } from '../../rng/index.js';
import type { ChainUsage } from '../../schema/chain-usage.js';
import { drawTarget, targetRange } from '../../tasks/count/targets.js';
import type { DrawMode, LaunchOrder, SccConfig, Schedule } from './config.js';
import type { LadderStep } from './ladder.js';
import { summarizeTier, type TierSummary, tierMustFail } from './tally.js';
import { isAbortWorthy, type SccTrialRecord, shouldPromote, TrialNotSentError } from './trial.js';

/**
 * Evaluating one tier (`evaluate_length`, docs/spec/scc.md §5) under one of three schedules and two launch
 * orders, with the optional early tier decision: once `tierMustFail` holds, stop issuing and abort the trials
 * in flight. Trial i always gets target i, whatever the order; the records that settle an early decision are
 * a subset of the full tier's, so the verdict cannot differ from the full tier's (see tally.ts), and the
 * ladder path and CC are unchanged.
 */
export interface TierRunner {
  /** Runs trial `index` with `target` and `budget`; null when aborted through `signal`. */
  run(index: number, target: number, budget: number, signal: AbortSignal): Promise<SccTrialRecord | null>;
}

export interface TierOptions {
  step: LadderStep;
  config: SccConfig;
  rng: PyRandom;
  drawMode: DrawMode;
  schedule: Schedule;
  /** `largest-first` needs every target before the first trial, so only the `upfront` draw mode allows it. */
  launchOrder: LaunchOrder;
  concurrency: number;
  earlyDecision: boolean;
  /** Learned budget in force when the tier starts. */
  budget: number;
  signal?: AbortSignal;
}

export interface TierRun extends TierSummary {
  sampleLow: number;
  sampleHigh: number;
  /** Every target drawn for the tier (16 up front, or one per started trial in lazy mode). */
  targets: number[];
  records: SccTrialRecord[];
  /** Trials started (requests issued, aborted ones included). */
  issued: number;
  /** Trials aborted in flight by the early decision. */
  aborted: number;
  decidedEarly: boolean;
  /** Stopped by the authors' abort rule (an error or exhausted retries after a doubling). */
  abortRuleStopped: boolean;
  /** Learned budget after the tier (never decreases). */
  budget: number;
}

/**
 * A tier the run's spend ledger stopped (it refused one of its trials): it has no verdict. The trials in flight
 * had landed when it returned; `records` are those that answered, `notSent` what the refused trials had used.
 */
export interface StoppedTier {
  kind: 'stopped';
  reason: string;
  sampleLow: number;
  sampleHigh: number;
  targets: number[];
  records: SccTrialRecord[];
  issued: number;
  notSent: ChainUsage[];
  budget: number;
}

/** A tier with its verdict, or one stopped by the spend ledger before it had one. */
export type TierOutcome = (TierRun & { kind: 'evaluated' }) | StoppedTier;

export async function evaluateTier(runner: TierRunner, options: TierOptions): Promise<TierOutcome> {
  const { config, rng, step } = options;
  const K = config.samplesPerLength;
  const { low, high } = targetRange(step.center, config.jitterFraction);
  const targets: number[] = [];
  if (options.drawMode === 'upfront') for (let i = 0; i < K; i++) targets.push(rng.randint(low, high));
  const targetFor = (index: number): number => {
    if (options.drawMode === 'upfront') return targets[index];
    const target = drawTarget(rng, step.center, config.jitterFraction);
    targets.push(target);
    return target;
  };
  if (options.launchOrder === 'largest-first' && options.drawMode !== 'upfront')
    throw new RangeError("launch order 'largest-first' needs the 'upfront' draw mode");
  /** Trial indices in launch order; a stable sort keeps equal targets by index. */
  const sequence = Array.from({ length: K }, (_, i) => i);
  if (options.launchOrder === 'largest-first') sequence.sort((a, b) => targets[b] - targets[a]);

  const controller = new AbortController();
  const onOuterAbort = () => controller.abort();
  options.signal?.addEventListener('abort', onOuterAbort, { once: true });
  const records: SccTrialRecord[] = [];
  let budget = options.budget;
  let issued = 0;
  let aborted = 0;
  let decidedEarly = false;
  let abortRuleStopped = false;
  /** The first trial the run's spend ledger refused: no further launch, and the tier has no verdict. */
  let notSent: TrialNotSentError | undefined;
  const notSentUsage: ChainUsage[] = [];
  const stopped = () => decidedEarly || abortRuleStopped || notSent !== undefined || controller.signal.aborted;

  const launch = async (index: number, trialBudget: number): Promise<SccTrialRecord | null> => {
    issued++;
    let record: SccTrialRecord | null;
    try {
      record = await runner.run(index, targetFor(index), trialBudget, controller.signal);
    } catch (error) {
      if (!(error instanceof TrialNotSentError)) throw error;
      notSent ??= error;
      notSentUsage.push(error.usage);
      return null;
    }
    if (record === null) aborted++;
    return record;
  };
  /** Bookkeeping after results are in (one at a time, or a sorted batch). */
  const absorb = (batch: SccTrialRecord[]) => {
    for (const record of batch) {
      records.push(record);
      if (shouldPromote(record, budget)) budget = record.finalMaxOutputTokens;
      if (isAbortWorthy(record)) abortRuleStopped = true;
    }
    if (options.earlyDecision && !decidedEarly && tierMustFail(records, K, config.toleranceFraction)) {
      if (!abortRuleStopped) decidedEarly = true;
      controller.abort();
    }
  };
  /** Early decision inside a parallel batch: checked on every completion, before the batch is absorbed. */
  const watch = (done: SccTrialRecord[]) => {
    if (options.earlyDecision && !decidedEarly && tierMustFail([...records, ...done], K, config.toleranceFraction)) {
      decidedEarly = true;
      controller.abort();
    }
  };

  try {
    if (options.schedule === 'sequential') {
      for (let i = 0; i < K && !stopped(); i++) {
        const record = await launch(sequence[i], budget);
        if (record) absorb([record]);
      }
    } else if (options.schedule === 'batch-barrier') {
      const first = await launch(sequence[0], budget);
      if (first) absorb([first]);
      for (let start = 1; start < K && !stopped(); start += config.parallelTrialsPerBatch) {
        const batchBudget = budget;
        const indices = sequence.slice(start, start + config.parallelTrialsPerBatch);
        const done: SccTrialRecord[] = [];
        const results = await Promise.all(
          indices.map(async (index) => {
            const record = await launch(index, batchBudget);
            if (record) {
              done.push(record);
              watch(done);
            }
            return record;
          }),
        );
        absorb(results.filter((r): r is SccTrialRecord => r !== null).sort((a, b) => a.trialIndex - b.trialIndex));
      }
    } else {
      let next = 0;
      const worker = async () => {
        while (next < K && !stopped()) {
          const record = await launch(sequence[next++], budget);
          if (record) absorb([record]);
        }
      };
      await Promise.all(Array.from({ length: Math.max(1, Math.min(options.concurrency, K)) }, worker));
    }
  } finally {
    options.signal?.removeEventListener('abort', onOuterAbort);
  }
  if (options.signal?.aborted) throw new Error('SCC assay aborted by the caller');
  records.sort((a, b) => a.trialIndex - b.trialIndex);
  // returned once the trials in flight have settled, so their answers are in the response cache
  if (notSent)
    return {
      kind: 'stopped',
      reason: notSent.reason,
      sampleLow: low,
      sampleHigh: high,
      targets,
      records,
      issued,
      notSent: notSentUsage,
      budget,
    };
  const summary = summarizeTier(records, config.toleranceFraction);
  if (decidedEarly && summary.passed) throw new Error('internal: early tier decision contradicted the pass rule');
  return {
    kind: 'evaluated',
    ...summary,
    sampleLow: low,
    sampleHigh: high,
    targets,
    records,
    issued,
    aborted,
    decidedEarly,
    abortRuleStopped,
    budget,
  };
}
