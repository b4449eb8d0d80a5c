import { z } from 'zod';
import { OUTCOME_FAMILIES } from '../tasks/outcome.js';
import { LEVEL_KINDS, READING_PROFILES } from '../tasks/task.js';
import { count, estimateStatusSchema, interval, recordKey } from './common.js';
import { trialExampleSchema } from './example.js';
import { trialRecordSchema } from './trial.js';

/**
 * Tokens of a set of trials as billed: `cachedPrompt` is the part of `prompt` the provider served from its prompt
 * cache, `reasoning` the part of `completion` the model spent reasoning (providers count it inside the completion).
 */
export const billedTokensSchema = z.object({
  prompt: count,
  cachedPrompt: count,
  completion: count,
  reasoning: count,
});

/**
 * Token sums over the trials whose provider reported usage. `unknownUsage`: answered trials whose provider sent
 * none (their tokens are unknown, not 0, and are not in the sums); present only when there are such trials.
 * `paid`: the trials answered by requests sent in this run; `fromCache`: the trials answered from ceilingbench's
 * response cache, which sent nothing and cost nothing in this run. (The three are absent in a report written
 * before ceilingbench kept them.)
 */
export const tokenTotalsSchema = z.object({
  prompt: count,
  completion: count,
  reasoning: count,
  unknownUsage: count.optional(),
  /** Of `prompt`: served from the provider's prompt cache. */
  cachedPrompt: count.optional(),
  paid: billedTokensSchema.optional(),
  fromCache: billedTokensSchema.optional(),
});

export const kStarSummarySchema = z.object({
  n: count,
  mean: z.number().nullable(),
  median: z.number().nullable(),
  early: count,
  mid: count,
  late: count,
  histogram: z.record(z.string(), count),
});

/**
 * Replicates that could not differ (docs/outputs.md, "Replicates"): the trials of a cell that asked the same instance
 * and got the byte-identical response, under deterministic sampling (temperature 0, or every replicate of the
 * instance answered identically), are one sample, not several. `outcomes` tallies the distinct samples by outcome
 * kind, as the cell's `outcomes` tallies its trials; the cell's `ci95` and the sweep's fit are computed on it.
 */
export const cellSamplesSchema = z.object({
  /** Why the replicates are taken as one sample: the subject was asked at temperature 0, or they all answered alike. */
  reason: z.enum(['temperature 0', 'identical answers']),
  /** Distinct samples among the answered trials (api and budget trials are in no sample). */
  distinct: count,
  /** The answered trials they stand for. */
  trials: count,
  outcomes: z.record(z.string(), count),
});
export type CellSamples = z.infer<typeof cellSamplesSchema>;

/**
 * One (task, level) cell. `accuracy` = successes / (n − api − budget): API faults and unsent trials are missing data
 * and never in a denominator. `status: 'insufficient'` when the trials set aside are more than the run's
 * `maxMissingFraction` of the cell, or no trial was answered.
 */
export const cellResultSchema = z.object({
  ...recordKey('cell'),
  /** The subject spec that answered (present when the report holds several subjects). */
  subject: z.string().optional(),
  family: z.enum(OUTCOME_FAMILIES),
  levelKind: z.enum(LEVEL_KINDS),
  level: z.number(),
  /** Raw knob value behind the level, where scalar (puzzles). */
  knob: z.number().nullable(),
  profile: z.string(),
  variant: z.string(),
  /** The output-budget rule of the cell, for a task with several (puzzles: fixed | per-level). */
  budget: z.string().optional(),
  /**
   * The answer-reading profile the cell's trials were graded with (docs/outputs.md, "Two reading profiles"):
   * 'final', the symmetric rule, or 'authors', a paper's own precedence. Absent in reports written before it was
   * kept, whose CCB cells were graded with the release's precedence.
   */
  reading: z.enum(READING_PROFILES).optional(),
  seedOffset: z.number().int(),
  n: count,
  outcomes: z.record(z.string(), count),
  successes: count,
  missing: count,
  /**
   * Trials left out of the counted data under the run's missing-data rule: `missing` (api, budget), and under
   * `missing: 'paper'` the family's set-aside kinds (CCB Format and Truncation; src/tasks/outcome.ts). Absent in
   * reports written before ceilingbench kept it (read it as `missing` there).
   */
  setAside: count.optional(),
  accuracy: z.number().nullable(),
  /** Clopper–Pearson 95% interval of `accuracy`. */
  ci95: interval.nullable(),
  status: estimateStatusSchema,
  /** Present only when some replicates could not differ (see cellSamplesSchema): the interval's population. */
  samples: cellSamplesSchema.optional(),
  kStar: kStarSummarySchema,
  tfbc: count,
  tokens: tokenTotalsSchema,
  cacheHits: count,
  calls: count,
  trials: z.array(trialRecordSchema),
  /**
   * A bounded sample of the cell's trials with what the model wrote (src/schema/example.ts): up to `examples` per
   * outcome kind, failing kinds first, each kind's first trials in trial order. Absent when examples are off, and
   * in reports written before ceilingbench kept them.
   */
  examples: z.array(trialExampleSchema).optional(),
});
export type CellResult = z.infer<typeof cellResultSchema>;
