import type { PyRandom } from '../../rng/index.js';
import type { ChainUsage } from '../../schema/chain-usage.js';
import type { DrawMode, LaunchOrder, SccConfig, Schedule } from './config.js';
import type { LadderStep } from './ladder.js';
import { runBatchBarrier } from './schedules/batch-barrier.js';
import { runPool } from './schedules/pool.js';
import { runSequential } from './schedules/sequential.js';
import { summarizeTier, type TierSummary } from './tally.js';
import { TierTargets } from './tier-targets.js';
import { type TierRunner, TierWalk } from './tier-walk.js';
import type { SccTrialRecord } from './trial.js';

export type { TierRunner } from './tier-walk.js';

/**
 * Evaluating one tier (`evaluate_length`, docs/spec/scc.md §5): draw its targets (./tier-targets.ts), launch its
 * trials under one of three schedules (./schedules/*) in one of two launch orders, and judge it. With the early
 * decision, once `tierMustFail` holds no trial is launched and the trials in flight are aborted; trial i always
 * gets target i, whatever the order, so the records that settle an early decision are a subset of the full
 * tier's, the verdict cannot differ from the full tier's (see tally.ts), and the ladder path and CC are unchanged.
 */
export interface TierOptions {
  step: LadderStep;
  config: SccConfig;
  rng: PyRandom;
  drawMode: DrawMode;
  schedule: Schedule;
  launchOrder: LaunchOrder;
  concurrency: number;
  earlyDecision: boolean;
  /** Learned budget in force when the tier starts. */
  budget: number;
  signal?: AbortSignal;
  /**
   * Given, once the tier starts, a function that returns the tier as it stands — stopped, with the trials answered
   * so far (those in flight are issued, without a record) — for a run cut while it runs (runSccAssay's `onCut`).
   */
  asItStands?: (take: (reason: string) => StoppedTier) => void;
}

/** What every tier returns, judged or stopped: where its targets lay, its trials, and the learned budget after it. */
interface TierBase {
  sampleLow: number;
  sampleHigh: number;
  /** Every target drawn for the tier (16 up front, or one per started trial in lazy mode). */
  targets: number[];
  records: SccTrialRecord[];
  /** Trials started (requests issued, aborted ones included). */
  issued: number;
  /** What the trials aborted in flight had used. */
  abortedUsage: ChainUsage[];
  /** Learned budget after the tier (never decreases). */
  budget: number;
}

export interface TierRun extends TierSummary, TierBase {
  /** Trials aborted in flight by the early decision. */
  aborted: number;
  decidedEarly: boolean;
  /** Stopped by the authors' abort rule (an error or exhausted retries after a doubling). */
  abortRuleStopped: boolean;
}

/**
 * A tier the run's spend ledger stopped (it refused one of its trials): it has no verdict. The trials in flight
 * had landed when it returned; `records` are those that answered, `notSent` what the refused trials had used.
 */
export interface StoppedTier extends TierBase {
  kind: 'stopped';
  reason: string;
  notSent: ChainUsage[];
}

/** A tier with its verdict, or one stopped by the spend ledger before it had one. */
export type TierOutcome = (TierRun & { kind: 'evaluated' }) | StoppedTier;

const SCHEDULE_RUNNERS: Record<Schedule, (walk: TierWalk, sequence: number[], options: TierOptions) => Promise<void>> =
  {
    sequential: (walk, sequence) => runSequential(walk, sequence),
    'batch-barrier': (walk, sequence, { config }) => runBatchBarrier(walk, sequence, config.parallelTrialsPerBatch),
    pool: (walk, sequence, { concurrency }) => runPool(walk, sequence, concurrency),
  };

export async function evaluateTier(runner: TierRunner, options: TierOptions): Promise<TierOutcome> {
  const { config } = options;
  const planned = config.samplesPerLength;
  const targets = new TierTargets(options.rng, options.step.center, config.jitterFraction, options.drawMode, planned);
  const sequence = targets.launchSequence(options.launchOrder, planned);
  const rule = { planned, tolerance: config.toleranceFraction, earlyDecision: options.earlyDecision };
  const walk = new TierWalk(runner, targets, rule, options.budget);
  const baseOf = (): TierBase => ({
    sampleLow: targets.low,
    sampleHigh: targets.high,
    targets: targets.drawn,
    records: [...walk.records].sort((a, b) => a.trialIndex - b.trialIndex),
    issued: walk.issued,
    abortedUsage: walk.abortedUsage,
    budget: walk.budget,
  });
  options.asItStands?.((reason) => ({ kind: 'stopped', reason, ...baseOf(), notSent: [] }));
  const onOuterAbort = () => walk.abort();
  options.signal?.addEventListener('abort', onOuterAbort, { once: true });
  try {
    await SCHEDULE_RUNNERS[options.schedule](walk, sequence, options);
  } finally {
    options.signal?.removeEventListener('abort', onOuterAbort);
  }
  if (options.signal?.aborted) throw new Error('SCC assay aborted by the caller');
  // returned once the trials in flight have settled, so their answers are in the response cache
  const base = baseOf();
  const { records } = base;
  if (walk.notSent) return { kind: 'stopped', reason: walk.notSent.reason, ...base, notSent: walk.notSentUsage };
  const summary = summarizeTier(records, config.toleranceFraction);
  if (walk.decidedEarly && summary.passed) throw new Error('internal: early tier decision contradicted the pass rule');
  const { aborted, decidedEarly, abortRuleStopped } = walk;
  return { kind: 'evaluated', ...summary, ...base, aborted, decidedEarly, abortRuleStopped };
}
