import type { Subject } from '../../subjects/subject.js';
import { findAttractors, formatAuditOf, tokensPerCountAtCc } from './analyses.js';
import type { LadderOutcome, LadderStep } from './ladder.js';
import { type LadderTrials, toTrial } from './ladder-trials.js';
import type { RunSettings } from './run-settings.js';
import type { SccResult, SccStopped, SccTier } from './schema.js';
import { stoppedCapacity } from './stopped.js';
import type { StoppedTier, TierRun } from './tier.js';
import type { SccTrialRecord, TrialNotSentError } from './trial.js';

/**
 * What a ladder has recorded so far, and how its result is written from it: the preflight (once asked), the
 * judged tiers, the learned budget, and what the early decision saved against the authors' runner.
 */
export class LadderRecord {
  preflight: SccTrialRecord | null = null;
  readonly tiers: SccTier[] = [];
  callsSaved = 0;
  tokensSaved = 0;
  /** Learned budget in force (never decreases). */
  budget: number;

  constructor(
    private readonly settings: RunSettings,
    private readonly seed: number,
    private readonly subject: Subject,
    /** The run's trials: the result counts their calls. */
    private readonly trials: Pick<LadderTrials, 'calls'>,
  ) {
    this.budget = settings.config.maxOutputTokens;
  }

  /** Adds a judged tier, and what its early decision saved: the trials not issued and their mean output tokens. */
  addTier(step: LadderStep, evaluationIndex: number, run: TierRun): void {
    const planned = this.settings.config.samplesPerLength;
    if (run.decidedEarly) {
      this.callsSaved += planned - run.issued;
      const tokens = run.records.flatMap((r) => (r.tokens === null ? [] : [r.tokens]));
      const meanTokens = tokens.length ? tokens.reduce((a, b) => a + b, 0) / tokens.length : 0;
      this.tokensSaved += (planned - run.records.length) * meanTokens;
    }
    this.tiers.push({
      ...placed(step, evaluationIndex, run),
      passed: run.passed,
      parseRate: run.parseRate,
      mape: run.mape,
      issued: run.issued,
      aborted: run.aborted,
      decidedEarly: run.decidedEarly,
      abortRuleStopped: run.abortRuleStopped,
      trials: run.records.map(toTrial),
      abortedUsage: run.abortedUsage,
    });
  }

  /** The authors' finished ladder. */
  measured(outcome: LadderOutcome): SccResult {
    const { cc, ccLower, ccUpper, bounded, errorBar } = outcome;
    return this.result({ skipped: false, skipReason: null, cc, ccLower, ccUpper, bounded, errorBar });
  }

  /** The authors' skipped record (the preflight failed); `tiers` holds the first tier when it ran before it. */
  skipped(): SccResult {
    const { initialLength, stepFraction } = this.settings.config;
    const errorBar = { lower: 0, upper: Math.max(1, Math.trunc(initialLength * stepFraction)) };
    const verdict = { cc: 0, ccLower: 0, ccUpper: initialLength, bounded: false, errorBar };
    return this.result({ skipped: true, skipReason: 'preflight_failed', ...verdict });
  }

  /** The spend ledger's stop inside a tier: the tiers with a verdict, the stopped tier's answered trials. */
  stoppedInTier(step: LadderStep, evaluationIndex: number, run: StoppedTier): SccResult {
    const tier = {
      ...placed(step, evaluationIndex, run),
      issued: run.issued,
      trials: run.records.map(toTrial),
      abortedUsage: run.abortedUsage,
      notSentUsage: run.notSent,
    };
    return this.stopped({ by: 'budget', reason: run.reason, tiers: this.tiers.length, at: 'tier', tier });
  }

  /** The spend ledger's stop at the preflight (asked first, or after a failed first tier). */
  stoppedAtPreflight(error: TrialNotSentError): SccResult {
    const { reason, usage } = error;
    return this.stopped({ by: 'budget', reason, tiers: this.tiers.length, at: 'preflight', usage });
  }

  /** No CC is measured: the capacity the completed tiers show, and where the ladder stopped. */
  private stopped(stopped: SccStopped): SccResult {
    const capacity = stoppedCapacity(this.tiers, this.settings.config.stepFraction);
    return this.result({ skipped: false, skipReason: null, ...capacity }, stopped);
  }

  /** A result: its verdict, then the trials, calls and analyses every result carries (a stopped tier's trials too). */
  private result(verdict: Verdict, stopped?: SccStopped): SccResult {
    const { config, schedule, drawMode, earlyDecision, launchOrder, preflightPolicy } = this.settings;
    const preflight = this.preflight === null ? null : toTrial(this.preflight);
    const stoppedTrials = stopped?.at === 'tier' ? stopped.tier.trials : [];
    const allTrials = [...(preflight ? [preflight] : []), ...this.tiers.flatMap((t) => t.trials), ...stoppedTrials];
    return {
      task: this.settings.plugin.id,
      seed: this.seed,
      config,
      schedule,
      drawMode,
      earlyDecision,
      launchOrder,
      preflightPolicy,
      ...verdict,
      ...(preflight ? { preflight } : {}),
      tiers: this.tiers,
      calls: this.trials.calls,
      callsSaved: this.callsSaved,
      tokensSaved: this.tokensSaved,
      tokensSpent: allTrials.reduce((sum, t) => sum + (t.tokens ?? 0), 0),
      learnedMaxOutputTokens: this.budget,
      attractors: findAttractors(this.tiers, verdict.cc),
      tokensPerCountAtCc: tokensPerCountAtCc(this.tiers, verdict.cc),
      formatAudit: formatAuditOf(this.subject.identity.spec, allTrials),
      ...(stopped ? { stopped } : {}),
    };
  }
}

type Verdict = Pick<SccResult, 'skipped' | 'skipReason' | 'cc' | 'ccLower' | 'ccUpper' | 'bounded' | 'errorBar'>;

/** Where a tier stands on the ladder: the head of its record, stopped or judged. */
const placed = (step: LadderStep, evaluationIndex: number, run: TierRun | StoppedTier) => ({
  evaluationIndex,
  phase: step.phase,
  center: step.center,
  sampleLow: run.sampleLow,
  sampleHigh: run.sampleHigh,
  targets: run.targets,
});
