import { z } from 'zod';
import { MISSING_RULES } from '../tasks/outcome.js';
import { kStarSummarySchema } from './cell.js';
import { count, estimateStatusSchema, interval, recordKey } from './common.js';

/** Correct answers out of n counted trials at one depth N. */
export const depthCountSchema = z.object({ depth: z.number(), correct: z.number().int(), n: z.number().int() });

/** Format and Truncation trials (missing data under the 'paper' rule) by what their final answer says. */
export const setAsideSchema = z.object({
  format: count,
  truncation: count,
  /** Of the Format and Truncation trials: a final answer could be read and was right, or wrong; or none was read. */
  finalAnswerCorrect: count,
  finalAnswerWrong: count,
  finalAnswerUnread: count,
  /** Correct trials whose trace could not be read: reported, never TFBC nor a divergence. */
  traceUnreadable: count,
});
export type SetAside = z.infer<typeof setAsideSchema>;

/** A CCB sweep's geometric-decay fit: P(correct | N) = p_d^N (paper 000 §3). */
export const retentionFitSchema = z.object({
  ...recordKey('retention'),
  /** The subject spec that answered (present when the report holds several subjects). */
  subject: z.string().optional(),
  profile: z.string(),
  variant: z.string(),
  /** Which trials count toward p_d: 'paper' (Correct, Reasoning, Constraint) or 'release' (all but API). */
  missing: z.enum(MISSING_RULES),
  status: estimateStatusSchema,
  /** Why the fit is insufficient (absent when ok): too many missing trials, or no trial counted at all. */
  insufficientReason: z.string().optional(),
  counts: z.array(depthCountSchema),
  pd: z.number(),
  ci95: interval,
  profileCi95: interval,
  atLowerBound: z.boolean(),
  /** H_s = ln s / ln p_d in steps; null = unbounded (p_d = 1), in the value or the CI's upper end. */
  horizon: z.record(
    z.string(),
    z.object({ value: z.number().nullable(), ci95: z.tuple([z.number().nullable(), z.number().nullable()]) }),
  ),
  firstDepthBelow: z.record(z.string(), z.number().nullable()),
  logLik: z.number(),
  aic: z.number(),
  bic: z.number(),
  alternatives: z.record(z.string(), z.unknown()),
  kStar: kStarSummarySchema,
  correct: z.number().int(),
  tfbc: z.number().int(),
  tfbcRate: z.number().nullable(),
  /** Rates over all non-API trials, shown beside p_d whichever missing-data rule is used. */
  formatRate: z.number().nullable(),
  truncationRate: z.number().nullable(),
  apiRate: z.number().nullable(),
  /** Trials never sent (outcome `budget`: spending limit reached or run interrupted) / all; present when some. */
  budgetRate: z.number().nullable().optional(),
  /**
   * Refusals (the model declined: graded as its empty answer, Format for CCB) among non-API trials. Present only
   * when at least one trial refused, so that a report without refusals keeps its bytes.
   */
  refusalRate: z.number().optional(),
  /** Absent in reports from before it was kept, or when the cells carried no trials. */
  setAside: setAsideSchema.optional(),
  /**
   * Trials the missing-data rule leaves out of p_d / all trials: api and budget, and under 'paper' Format and
   * Truncation. Shown beside p_d, so that a p_d fitted on what little was counted never reads as a clean one. Absent
   * in reports from before it was kept.
   */
  setAsideRate: z.number().nullable().optional(),
  nTrials: z.number().int(),
});
export type RetentionFit = z.infer<typeof retentionFitSchema>;

/** A puzzle level sweep: accuracy per level and the collapse threshold λ* (paper 001 §1.2). */
export const collapseFitSchema = z.object({
  ...recordKey('collapse'),
  /** The subject spec that answered (present when the report holds several subjects). */
  subject: z.string().optional(),
  status: estimateStatusSchema,
  levels: z.array(
    z.object({
      level: z.number(),
      knob: z.number().nullable(),
      correct: z.number().int(),
      n: z.number().int(),
      accuracy: z.number().nullable(),
      ci95: interval.nullable(),
    }),
  ),
  collapseThreshold: z.object({
    levelIndex: z.number().nullable(),
    knob: z.number().nullable(),
    steepestSlope: z.number().nullable(),
    increasing: z.boolean(),
    ci95: interval.nullable(),
    logistic50: z.number().nullable(),
  }),
});
export type CollapseFit = z.infer<typeof collapseFitSchema>;

/** Paired prompt-variant ablation on the same instances: exact McNemar against the standard prompt. */
export const ablationSchema = z.object({
  ...recordKey('ablation'),
  /** The subject spec that answered (present when the report holds several subjects). */
  subject: z.string().optional(),
  level: z.number(),
  baseline: z.string(),
  comparisons: z.array(
    z.object({
      variant: z.string(),
      pairs: z.number().int(),
      baselineCorrect: z.number().int(),
      variantCorrect: z.number().int(),
      table: z.tuple([z.tuple([z.number(), z.number()]), z.tuple([z.number(), z.number()])]),
      b: z.number().int(),
      c: z.number().int(),
      p: z.number(),
    }),
  ),
});
export type Ablation = z.infer<typeof ablationSchema>;
