import type { CellResult, CellSamples } from '../../schema/cell.js';
import type { TrialExample } from '../../schema/example.js';
import type { TrialRecord } from '../../schema/trial.js';
import { sumBilled } from '../../spend/price.js';
import { clopperPearson, summarizeKStar } from '../../stats/index.js';
import {
  isMissing,
  isMissingKind,
  isSuccess,
  type MissingRule,
  OUTCOME_RECORDS,
  outcomeKinds,
} from '../../tasks/outcome.js';
import type { AnyTaskPlugin, ReadingProfile } from '../../tasks/task.js';

export interface CellIdentity {
  project: string;
  task: AnyTaskPlugin;
  level: number;
  profile: string;
  variant: string;
  /** The output-budget rule, for a task that declares several (`budgets`). */
  budget?: string;
  seedOffset: number;
  maxMissingFraction: number;
  /**
   * The run's missing-data rule (default 'paper'): which trials the cell's sufficiency counts as set aside. Give the
   * rule the sweep's fit uses, so that a cell and its fit agree on what was set aside.
   */
  missing?: MissingRule;
  /** The answer-reading profile the trials were graded with; recorded on the cell when given. */
  reading?: ReadingProfile;
}

/** Trials of a tally the rule sets aside. */
const setAsideIn = (family: CellResult['family'], outcomes: Record<string, number>, rule: MissingRule): number =>
  Object.entries(outcomes).reduce((sum, [kind, n]) => sum + (isMissingKind(family, kind, rule) ? n : 0), 0);

/**
 * k* population: incorrect but parseable trials (Reasoning and Constraint, and puzzle Fail) with a
 * divergence step — the trials where "the step at which the state first decohered" is defined.
 */
export const kStarPopulation = (trials: readonly TrialRecord[]): number[] =>
  trials
    .filter((t) => ['reasoning', 'constraint', 'fail'].includes(t.outcome.kind) && t.outcome.kStar > 0)
    .map((t) => t.outcome.kStar);

/**
 * Aggregates graded trials into a CellResult. Accuracy excludes API and unsent (missing) trials from its denominator.
 * The cell is insufficient when the trials its rule sets aside are more than `maxMissingFraction` of it — Format and
 * Truncation under 'paper' as much as api and budget: set-aside data never passes a gate — or none was answered.
 * `samples` (src/assays/sweep/samples.ts), when some replicates could not differ, is the interval's population.
 */
export function summarizeCell(
  id: CellIdentity,
  trials: TrialRecord[],
  examples?: TrialExample[],
  samples?: CellSamples,
): CellResult {
  const outcomes: Record<string, number> = Object.fromEntries(outcomeKinds(id.task.family).map((k) => [k, 0]));
  for (const t of trials) outcomes[t.outcome.kind] = (outcomes[t.outcome.kind] ?? 0) + 1;
  const missing = trials.filter((t) => isMissing(t.outcome)).length;
  const successes = trials.filter((t) => isSuccess(t.outcome)).length;
  const answered = trials.length - missing;
  const tokens: CellResult['tokens'] = { prompt: 0, completion: 0, reasoning: 0 };
  // an answer without usage has unknown tokens: counted apart, never as 0 (an api trial made no answer)
  const unknownUsage = trials.filter((t) => t.usage === null && !isMissing(t.outcome)).length;
  if (unknownUsage > 0) tokens.unknownUsage = unknownUsage;
  const paid = sumBilled(trials.filter((t) => !t.cacheHit));
  const fromCache = sumBilled(trials.filter((t) => t.cacheHit));
  for (const t of trials) {
    tokens.prompt += t.usage?.promptTokens ?? 0;
    tokens.completion += t.usage?.completionTokens ?? 0;
    tokens.reasoning += t.usage?.reasoningTokens ?? 0;
  }
  tokens.cachedPrompt = paid.cachedPrompt + fromCache.cachedPrompt;
  tokens.paid = paid;
  tokens.fromCache = fromCache;
  const setAside = setAsideIn(id.task.family, outcomes, id.missing ?? 'paper');
  const insufficient = answered === 0 || setAside / Math.max(1, trials.length) > id.maxMissingFraction;
  // the interval's population: the distinct samples when replicates could not differ, else the answered trials
  const sampled = samples ? samples.distinct : answered;
  const sampledSuccesses = samples ? (samples.outcomes[OUTCOME_RECORDS[id.task.family].success] ?? 0) : successes;
  return {
    kind: 'cell',
    project: id.project,
    task: id.task.id,
    family: id.task.family,
    levelKind: id.task.levels.kind,
    level: id.level,
    knob: id.task.levels.knob?.(id.level) ?? null,
    profile: id.profile,
    variant: id.variant,
    ...(id.budget !== undefined ? { budget: id.budget } : {}),
    ...(id.reading !== undefined ? { reading: id.reading } : {}),
    seedOffset: id.seedOffset,
    n: trials.length,
    outcomes,
    successes,
    missing,
    setAside,
    accuracy: answered > 0 ? successes / answered : null,
    ci95: sampled > 0 ? clopperPearson(sampledSuccesses, sampled) : null,
    status: insufficient ? 'insufficient' : 'ok',
    ...(samples ? { samples } : {}),
    kStar: summarizeKStar(kStarPopulation(trials)),
    tfbc: trials.filter((t) => t.outcome.tfbc).length,
    tokens,
    cacheHits: trials.filter((t) => t.cacheHit).length,
    calls: trials.reduce((sum, t) => sum + t.attempts, 0),
    trials,
    ...(examples !== undefined ? { examples } : {}),
  };
}
