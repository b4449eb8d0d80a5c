import { z } from 'zod';
import { cellKey, count, estimateStatusSchema, interval } from './common.js';
import { retentionFitSchema } from './fit.js';
import { provenanceSchema } from './provenance.js';
import { sccRecordSchema } from './report.js';
import { subjectIdentitySchema } from './subject.js';

/**
 * baselines/<name>.json — a compact per-release record of one run: enough to compare a later run
 * statistically (per-depth counts for p_d, per-cell counts for Fisher, ladder bounds for CC) and to draw
 * the release history. `name` is the release label (e.g. "gpt-x-2026-11").
 */
export const baselineSchema = z.object({
  schemaVersion: z.literal(1),
  name: z.string().min(1),
  /** Order of releases in the history view (ISO time of the run it was saved from). */
  runStartedAt: z.string(),
  gitSha: z.string().nullable(),
  seed: z.number().int().nullable(),
  subjects: z.array(subjectIdentitySchema),
  /** What produced the run's numbers (src/schema/provenance.ts); absent in a baseline saved before it was kept. */
  provenance: provenanceSchema.optional(),
  /**
   * Of each retention fit, what a comparison needs; the mask's order is the key order of the file. `status` and
   * `insufficientReason` are written only for an insufficient fit (too many missing trials), so a baseline of a
   * complete run keeps its bytes; absent, the fit was ok or the baseline is older than the field.
   */
  fits: z.array(
    retentionFitSchema
      .pick({
        project: true,
        task: true,
        variant: true,
        missing: true,
        pd: true,
        ci95: true,
        counts: true,
        tfbc: true,
        correct: true,
        tfbcRate: true,
        insufficientReason: true,
      })
      .extend({ status: estimateStatusSchema.optional() }),
  ),
  /**
   * Of each cell, its counts. `status` and `missing` (its trials with missing data: api, budget) are written only
   * for an insufficient cell — the harness's verdict, made with the run's own maxMissingFraction.
   */
  cells: z.array(
    z.object({
      ...cellKey,
      successes: z.number().int(),
      answered: z.number().int(),
      status: estimateStatusSchema.optional(),
      missing: count.optional(),
    }),
  ),
  /** Of each collapse fit, λ*; `status` is written only when one of its cells was insufficient. */
  collapse: z.array(
    z.object({
      project: z.string(),
      task: z.string(),
      levelIndex: z.number().nullable(),
      ci95: interval.nullable(),
      status: estimateStatusSchema.optional(),
    }),
  ),
  /** Of each SCC record, its counting capacity and bounds, and `stopped` when the ladder measured none. */
  scc: z.array(
    sccRecordSchema.pick({
      project: true,
      task: true,
      cc: true,
      ccLower: true,
      ccUpper: true,
      bounded: true,
      stopped: true,
    }),
  ),
});
export type Baseline = z.infer<typeof baselineSchema>;
