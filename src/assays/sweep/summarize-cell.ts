import type { CellResult } from '../../schema/cell.js';
import type { TrialExample } from '../../schema/example.js';
import type { TrialRecord } from '../../schema/trial.js';
import { sumBilled } from '../../spend/price.js';
import { clopperPearson, summarizeKStar } from '../../stats/index.js';
import { isMissing, isSuccess, outcomeKinds } from '../../tasks/outcome.js';
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
  /** The answer-reading profile the trials were graded with; recorded on the cell when given. */
  reading?: ReadingProfile;
}

/**
 * k* population: incorrect but parseable trials (Reasoning and Constraint, and puzzle Fail) with a
 * divergence step — the trials where "the step at which the state first decohered" is defined.
 */
export const kStarPopulation = (trials: readonly TrialRecord[]): number[] =>
  trials
    .filter((t) => ['reasoning', 'constraint', 'fail'].includes(t.outcome.kind) && t.outcome.kStar > 0)
    .map((t) => t.outcome.kStar);

/** Aggregates graded trials into a CellResult. Accuracy excludes API (missing) trials from its denominator. */
export function summarizeCell(id: CellIdentity, trials: TrialRecord[], examples?: TrialExample[]): CellResult {
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
  const insufficient = answered === 0 || missing / Math.max(1, trials.length) > id.maxMissingFraction;
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
    accuracy: answered > 0 ? successes / answered : null,
    ci95: answered > 0 ? clopperPearson(successes, answered) : null,
    status: insufficient ? 'insufficient' : 'ok',
    kStar: summarizeKStar(kStarPopulation(trials)),
    tfbc: trials.filter((t) => t.outcome.tfbc).length,
    tokens,
    cacheHits: trials.filter((t) => t.cacheHit).length,
    calls: trials.reduce((sum, t) => sum + t.attempts, 0),
    trials,
    ...(examples !== undefined ? { examples } : {}),
  };
}
