import { z } from 'zod';
import { OUTCOME_FAMILIES } from '../tasks/outcome.js';
import { LEVEL_KINDS } from '../tasks/task.js';
import { trialRecordSchema } from './trial.js';

export const interval = z.tuple([z.number(), z.number()]);

export const tokenTotalsSchema = z.object({
  prompt: z.number().int().nonnegative(),
  completion: z.number().int().nonnegative(),
  reasoning: z.number().int().nonnegative(),
});

export const kStarSummarySchema = z.object({
  n: z.number().int().nonnegative(),
  mean: z.number().nullable(),
  median: z.number().nullable(),
  early: z.number().int().nonnegative(),
  mid: z.number().int().nonnegative(),
  late: z.number().int().nonnegative(),
  histogram: z.record(z.string(), z.number().int().nonnegative()),
});

/**
 * One (task, level) cell. `accuracy` = successes / (n − api): API faults are missing data and never
 * in a denominator. `status: 'insufficient'` when too many trials are missing to say anything.
 */
export const cellResultSchema = z.object({
  kind: z.literal('cell'),
  project: z.string(),
  task: z.string(),
  family: z.enum(OUTCOME_FAMILIES),
  levelKind: z.enum(LEVEL_KINDS),
  level: z.number(),
  /** Raw knob value behind the level, where scalar (puzzles). */
  knob: z.number().nullable(),
  profile: z.string(),
  variant: z.string(),
  seedOffset: z.number().int(),
  n: z.number().int().nonnegative(),
  outcomes: z.record(z.string(), z.number().int().nonnegative()),
  successes: z.number().int().nonnegative(),
  missing: z.number().int().nonnegative(),
  accuracy: z.number().nullable(),
  /** Clopper–Pearson 95% interval of `accuracy`. */
  ci95: interval.nullable(),
  status: z.enum(['ok', 'insufficient']),
  kStar: kStarSummarySchema,
  tfbc: z.number().int().nonnegative(),
  tokens: tokenTotalsSchema,
  cacheHits: z.number().int().nonnegative(),
  calls: z.number().int().nonnegative(),
  trials: z.array(trialRecordSchema),
});
export type CellResult = z.infer<typeof cellResultSchema>;
