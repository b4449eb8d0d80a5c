import { z } from 'zod';
import { MISSING_RULES } from '../tasks/outcome.js';
import { interval } from './cell.js';
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
  fits: z.array(
    z.object({
      project: z.string(),
      task: z.string(),
      variant: z.string(),
      missing: z.enum(MISSING_RULES),
      pd: z.number(),
      ci95: interval,
      counts: z.array(z.object({ depth: z.number(), correct: z.number().int(), n: z.number().int() })),
      tfbc: z.number().int(),
      correct: z.number().int(),
      tfbcRate: z.number().nullable(),
    }),
  ),
  cells: z.array(
    z.object({
      project: z.string(),
      task: z.string(),
      variant: z.string(),
      level: z.number(),
      successes: z.number().int(),
      answered: z.number().int(),
    }),
  ),
  collapse: z.array(
    z.object({ project: z.string(), task: z.string(), levelIndex: z.number().nullable(), ci95: interval.nullable() }),
  ),
  scc: z.array(
    z.object({
      project: z.string(),
      task: z.string(),
      cc: z.number(),
      ccLower: z.number(),
      ccUpper: z.number().nullable(),
      bounded: z.boolean(),
    }),
  ),
});
export type Baseline = z.infer<typeof baselineSchema>;
