import { z } from 'zod';
import { interval } from '../schema/common.js';
import { gateResultSchema } from '../schema/gate.js';
import { provenanceSchema } from '../schema/provenance.js';

/** How large a change must be, beyond statistical support, to count as a regression. */
export const tolerancesSchema = z.object({
  /** Absolute p_d drop. */
  retention: z.number(),
  /** Absolute accuracy drop of a cell. */
  accuracy: z.number(),
  /** Relative counting-capacity drop. */
  countingCapacity: z.number(),
  /** Absolute TFBC-rate rise. */
  tfbcRate: z.number(),
  /** Family-wise significance level. */
  alpha: z.number(),
});
export type Tolerances = z.infer<typeof tolerancesSchema>;

export const COMPARED_METRICS = ['p_d', 'accuracy', 'counting_capacity', 'collapse_threshold', 'tfbc_rate'] as const;
export type ComparedMetric = (typeof COMPARED_METRICS)[number];

/**
 * The baseline record a row speaks for: a fit (variant, no level), a cell (variant and level), or a collapse fit
 * or SCC ladder (neither). `where` is the same said for a reader.
 */
const recordRef = {
  metric: z.enum(COMPARED_METRICS),
  project: z.string(),
  task: z.string(),
  variant: z.string().nullable(),
  level: z.number().nullable(),
  where: z.string(),
};

export const metricComparisonSchema = z.object({
  ...recordRef,
  baseline: z.number().nullable(),
  candidate: z.number().nullable(),
  difference: z.number().nullable(),
  ci95: interval.nullable(),
  p: z.number().nullable(),
  regression: z.boolean(),
  reason: z.string(),
  /** p_d: the baseline levels the row compares (all of them, or the common ones after a refit). */
  levels: z.array(z.number()).optional(),
});
export type MetricComparison = z.infer<typeof metricComparisonSchema>;

/**
 * Why a baseline record was not compared:
 * - absent: the candidate ran no such project, task, variant or level;
 * - other-levels: the two fits' level sets differ (the baseline levels the candidate lacks), or none is common;
 * - insufficient: a side has too many missing trials (the harness's rule: missing / n > maxMissingFraction);
 * - stopped: an SCC ladder stopped before it measured a CC;
 * - no-answered-trials: a side has no answered trial at all (every trial api or budget);
 * - no-estimate: a side has data but no estimate to compare (flat accuracy: no λ*; no correct answer: no TFBC rate);
 * - other-rule: the two fits count p_d under different missing-data rules ('paper', 'release').
 */
export const NOT_COMPARED_KINDS = [
  'absent',
  'other-levels',
  'insufficient',
  'stopped',
  'no-answered-trials',
  'no-estimate',
  'other-rule',
] as const;
export type NotComparedKind = (typeof NOT_COMPARED_KINDS)[number];

/** A baseline record, or part of one, that the comparison did not look at: the gate fails on it. */
export const notComparedSchema = z.object({
  ...recordRef,
  kind: z.enum(NOT_COMPARED_KINDS),
  /** For a reader, naming the side and what it lacks. */
  reason: z.string(),
  /** p_d: the baseline levels this entry leaves uncompared (a fit's rows and entries partition its levels). */
  levels: z.array(z.number()).optional(),
});
export type NotCompared = z.infer<typeof notComparedSchema>;

/** A candidate record the baseline has no counterpart of: shown, never gated. */
export const newRecordSchema = z.object(recordRef);
export type NewRecord = z.infer<typeof newRecordSchema>;

export const comparisonSchema = z.object({
  baseline: z.string(),
  candidate: z.string(),
  /**
   * What produced each side's numbers (src/schema/provenance.ts), what differs between them (a sentence each), and
   * the verdict line's warning when one side is simulated or replayed and the other live (null: none).
   */
  provenance: z.object({
    baseline: provenanceSchema,
    candidate: provenanceSchema,
    differences: z.array(z.string()),
    warning: z.string().nullable(),
  }),
  tolerances: tolerancesSchema,
  /**
   * Which baseline records were in scope: `only` the projects named by --only (null: the whole baseline), and the
   * baseline's projects in and out of scope.
   */
  scope: z.object({
    only: z.array(z.string()).nullable(),
    projects: z.array(z.string()),
    excluded: z.array(z.string()),
  }),
  metrics: z.array(metricComparisonSchema),
  regressions: z.array(metricComparisonSchema),
  /** Not compared, so not shown free of regression: the gate fails on them as on a regression. */
  notCompared: z.array(notComparedSchema),
  newInCandidate: z.array(newRecordSchema),
  /**
   * The candidate run's own gates in scope (a ceilingbench.json's; none for a saved baseline), decided again from
   * what it stored by the run's verdict (src/gates decideVerdict): a hard one failed or not evaluated fails compare.
   */
  candidateGates: z.array(gateResultSchema),
  /** No regression, nothing left uncompared and no hard gate of the candidate failed: the only passing verdict. */
  passed: z.boolean(),
});
export type Comparison = z.infer<typeof comparisonSchema>;
