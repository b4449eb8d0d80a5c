import { PyRandom } from '../../rng/index.js';
import type { Subject } from '../../subjects/subject.js';
import { withResponseChannels } from '../../tasks/final-answer.js';
import type { ReasoningDelimiter } from '../../tasks/reasoning-channels.js';
import type { TaskId } from '../../tasks/registry.js';
import type { AnyTaskPlugin } from '../../tasks/task.js';
import { findAttractors, formatAuditOf, tokensPerCountAtCc } from './analyses.js';
import {
  DEFAULT_SCC_CONFIG,
  type DrawMode,
  type LaunchOrder,
  type PreflightPolicy,
  type SccConfig,
  type Schedule,
  sccConfigSchema,
} from './config.js';
import { LadderSearch } from './ladder.js';
import { LadderTrials, ladderTaskOf, ladderVariantOf, type SccTrialEvent, toTrial } from './ladder-trials.js';
import type { SccResult, SccStopped, SccTier } from './schema.js';
import { stoppedCapacity } from './stopped.js';
import { evaluateTier } from './tier.js';
import { type SccTrialRecord, shouldPromote, TrialNotSentError } from './trial.js';

export type { SccTrialEvent } from './ladder-trials.js';

export interface SccAssayOptions {
  /** Seed of the model's CPython RNG (the authors: 7 + the model's position in the run queue). */
  seed: number;
  /** The user's reasoning delimiters (the run's `reasoningDelimiters`), set aside before a count is read. */
  reasoningDelimiters?: readonly ReasoningDelimiter[];
  /** Caps the doubling (the authors: 20000). */
  maxLength?: number;
  /** Ours: stop and abort a tier's trials once its verdict is settled (default true). */
  earlyDecision?: boolean;
  /**
   * Run every trial the authors' runner would, in their order: earlyDecision false, launchOrder `index`,
   * preflight `first`. Wins over those three options.
   */
  exactPeerCalls?: boolean;
  /** Trials in flight at once under the `pool` schedule (default 4). */
  concurrency?: number;
  /** Default `pool`; `batch-barrier` and `sequential` reproduce the authors' runners. */
  schedule?: Schedule;
  /** Default `largest-first` (ours); `index` is the authors' order. `lazy` draws force `index`. */
  launchOrder?: LaunchOrder;
  /** Default `if-first-tier-fails` (ours); `first` is the authors' (config.ts: PREFLIGHT_POLICIES). */
  preflight?: PreflightPolicy;
  /**
   * Default `upfront`; `lazy` reproduces the old `o1` run: it forces the `sequential` schedule and the `index`
   * order and turns the early decision off, since each would change which targets a tier draws and so every
   * later target.
   */
  drawMode?: DrawMode;
  /**
   * The task plugin the ladder runs on, or a registered task's id: any plugin that declares a `ladder`
   * (src/tasks/ladder.ts). Default: SCC counting.
   */
  task?: TaskId | AnyTaskPlugin;
  /** The plugin's prompt variant (default: its first). */
  variant?: string;
  /** Counting motif id (Table S11): the count task's variant (`variant` wins). */
  motif?: string;
  config?: Partial<SccConfig>;
  signal?: AbortSignal;
  onTrial?: (trial: SccTrialEvent) => void;
}

/**
 * Runs the SCC assay end to end: the ladder with its preflight at 8 (before the first tier, or only after it
 * fails: `preflight`), the analyses. The subject is the only I/O. When the run's spend ledger refuses a call,
 * the ladder stops once the trials in flight have landed and the result says so (`stopped`; ./stopped.ts).
 */
export async function runSccAssay(subject: Subject, options: SccAssayOptions): Promise<SccResult> {
  const config = sccConfigSchema.parse({
    ...DEFAULT_SCC_CONFIG,
    ...options.config,
    ...(options.maxLength !== undefined ? { maxLength: options.maxLength } : {}),
  });
  // the registered plugin, reading the run's own reasoning delimiters too
  const plugin = withResponseChannels(ladderTaskOf(options.task), options.reasoningDelimiters ?? []);
  const task = plugin.id;
  const variant = ladderVariantOf(plugin, options.variant ?? options.motif);
  const drawMode = options.drawMode ?? 'upfront';
  // Lazy draws follow the trials that start, so only the old one-at-a-time runner reproduces them.
  const schedule = drawMode === 'lazy' ? 'sequential' : (options.schedule ?? 'pool');
  const earlyDecision = !options.exactPeerCalls && (options.earlyDecision ?? true) && drawMode === 'upfront';
  const launchOrder: LaunchOrder =
    options.exactPeerCalls || drawMode === 'lazy' ? 'index' : (options.launchOrder ?? 'largest-first');
  const preflightPolicy: PreflightPolicy = options.exactPeerCalls
    ? 'first'
    : (options.preflight ?? 'if-first-tier-fails');
  const concurrency = options.concurrency ?? 4;
  if (!Number.isInteger(concurrency) || concurrency < 1)
    throw new RangeError(`concurrency must be a positive integer, got ${concurrency}`);
  if (!Number.isSafeInteger(options.seed)) throw new RangeError(`seed must be a safe integer, got ${options.seed}`);

  const trials = new LadderTrials({
    task: plugin,
    variant,
    subject,
    seed: options.seed,
    retryMaxOutputTokens: config.retryMaxOutputTokens,
    onTrial: options.onTrial,
  });
  const outerSignal = options.signal ?? new AbortController().signal;
  // Always at the configured budget, wherever it runs: the authors ask it before any budget was learned.
  const runPreflight = async (): Promise<SccTrialRecord | TrialNotSentError> => {
    let record: SccTrialRecord | null;
    try {
      record = await trials
        .at('preflight', -1, config.preflightLength)
        .run(0, config.preflightLength, config.maxOutputTokens, outerSignal);
    } catch (error) {
      if (error instanceof TrialNotSentError) return error;
      throw error;
    }
    if (record === null) throw new Error('SCC assay aborted by the caller during the preflight');
    return record;
  };
  const base = {
    task,
    seed: options.seed,
    config,
    schedule,
    drawMode,
    earlyDecision,
    launchOrder,
    preflightPolicy,
  };
  let callsSaved = 0;
  let tokensSaved = 0;
  type Verdict = Pick<SccResult, 'skipped' | 'skipReason' | 'cc' | 'ccLower' | 'ccUpper' | 'bounded' | 'errorBar'>;
  /** A result: its verdict, then the trials, calls and analyses every result carries (a stopped tier's trials too). */
  const resultOf = (
    verdict: Verdict,
    preRecord: SccTrialRecord | null,
    tiers: SccTier[],
    learned: number,
    stopped?: SccStopped,
  ): SccResult => {
    const preflight = preRecord === null ? null : toTrial(preRecord);
    const stoppedTrials = stopped?.at === 'tier' ? stopped.tier.trials : [];
    const allTrials = [...(preflight ? [preflight] : []), ...tiers.flatMap((t) => t.trials), ...stoppedTrials];
    return {
      ...base,
      ...verdict,
      ...(preflight ? { preflight } : {}),
      tiers,
      calls: trials.calls,
      callsSaved,
      tokensSaved,
      tokensSpent: allTrials.reduce((sum, t) => sum + (t.tokens ?? 0), 0),
      learnedMaxOutputTokens: learned,
      attractors: findAttractors(tiers, verdict.cc),
      tokensPerCountAtCc: tokensPerCountAtCc(tiers, verdict.cc),
      formatAudit: formatAuditOf(subject.identity.spec, allTrials),
      ...(stopped ? { stopped } : {}),
    };
  };
  /** The authors' skipped record; `tiers` holds the first tier when it ran before the preflight. */
  const skippedResult = (preRecord: SccTrialRecord, tiers: SccTier[], learned: number): SccResult =>
    resultOf(
      {
        skipped: true,
        skipReason: 'preflight_failed',
        cc: 0,
        ccLower: 0,
        ccUpper: config.initialLength,
        bounded: false,
        errorBar: { lower: 0, upper: Math.max(1, Math.trunc(config.initialLength * config.stepFraction)) },
      },
      preRecord,
      tiers,
      learned,
    );
  const failedPreflight = (record: SccTrialRecord) => record.parsed === null || record.status === 'error';
  /** The spend ledger's stop: the tiers with a verdict, the stopped tier's answered trials; no CC measured. */
  const stoppedResult = (
    stopped: SccStopped,
    preRecord: SccTrialRecord | null,
    tiers: SccTier[],
    learned: number,
  ): SccResult =>
    resultOf(
      { skipped: false, skipReason: null, ...stoppedCapacity(tiers, config.stepFraction) },
      preRecord,
      tiers,
      learned,
      stopped,
    );
  const stopAtPreflight = (error: TrialNotSentError, tiers: SccTier[], learned: number): SccResult =>
    stoppedResult(
      { by: 'budget', reason: error.reason, tiers: tiers.length, at: 'preflight', usage: error.usage },
      null,
      tiers,
      learned,
    );

  let preRecord: SccTrialRecord | null = null;
  if (preflightPolicy === 'first') {
    const pre = await runPreflight();
    if (pre instanceof TrialNotSentError) return stopAtPreflight(pre, [], config.maxOutputTokens);
    preRecord = pre;
    if (failedPreflight(preRecord)) return skippedResult(preRecord, [], config.maxOutputTokens);
  }

  let budget =
    preRecord !== null && shouldPromote(preRecord, config.maxOutputTokens)
      ? preRecord.finalMaxOutputTokens
      : config.maxOutputTokens;
  const rng = new PyRandom(options.seed);
  const search = new LadderSearch(config);
  const tiers: SccTier[] = [];
  for (let step = search.next(); step; step = search.next()) {
    const evaluationIndex = tiers.length;
    const run = await evaluateTier(trials.at(step.phase, evaluationIndex, step.center), {
      step,
      config,
      rng,
      drawMode,
      schedule,
      launchOrder,
      concurrency,
      earlyDecision,
      budget,
      signal: options.signal,
    });
    budget = Math.max(budget, run.budget);
    // where the tier stands on the ladder: the head of its record, stopped or judged
    const placed = {
      evaluationIndex,
      phase: step.phase,
      center: step.center,
      sampleLow: run.sampleLow,
      sampleHigh: run.sampleHigh,
      targets: run.targets,
    };
    if (run.kind === 'stopped') {
      const tier = {
        ...placed,
        issued: run.issued,
        trials: run.records.map(toTrial),
        abortedUsage: trials.abortedAt(evaluationIndex),
        notSentUsage: run.notSent,
      };
      const stopped: SccStopped = { by: 'budget', reason: run.reason, tiers: tiers.length, at: 'tier', tier };
      return stoppedResult(stopped, preRecord, tiers, budget);
    }
    search.record(run.passed);
    if (run.decidedEarly) {
      const completed = run.records.length;
      callsSaved += config.samplesPerLength - run.issued;
      const tokens = run.records.flatMap((r) => (r.tokens === null ? [] : [r.tokens]));
      const meanTokens = tokens.length ? tokens.reduce((a, b) => a + b, 0) / tokens.length : 0;
      tokensSaved += (config.samplesPerLength - completed) * meanTokens;
    }
    tiers.push({
      ...placed,
      passed: run.passed,
      parseRate: run.parseRate,
      mape: run.mape,
      issued: run.issued,
      aborted: run.aborted,
      decidedEarly: run.decidedEarly,
      abortRuleStopped: run.abortRuleStopped,
      trials: run.records.map(toTrial),
      abortedUsage: trials.abortedAt(evaluationIndex),
    });
  }
  const outcome = search.result();
  // Deferred preflight: once the first tier has failed the ladder has ended with CC 0, and the preflight only
  // chooses between the two records the authors would write for it (skipped, or failed at the first tier).
  if (preRecord === null && !tiers[0].passed) {
    const pre = await runPreflight();
    if (pre instanceof TrialNotSentError) return stopAtPreflight(pre, tiers, budget);
    preRecord = pre;
    if (failedPreflight(preRecord)) return skippedResult(preRecord, tiers, budget);
  }
  if (preRecord === null) callsSaved++;
  const { cc, ccLower, ccUpper, bounded, errorBar } = outcome;
  return resultOf(
    { skipped: false, skipReason: null, cc, ccLower, ccUpper, bounded, errorBar },
    preRecord,
    tiers,
    budget,
  );
}
