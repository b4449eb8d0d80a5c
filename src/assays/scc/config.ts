import { z } from 'zod';

/** The authors' SCC configuration (docs/spec/scc.md §1; paper Supplementary Note 2). */
export const sccConfigSchema = z.object({
  preflightLength: z.number().int().positive(),
  initialLength: z.number().int().positive(),
  maxLength: z.number().int().positive(),
  samplesPerLength: z.number().int().positive(),
  jitterFraction: z.number().min(0).lt(1),
  toleranceFraction: z.number().nonnegative(),
  stepFraction: z.number().positive(),
  parallelTrialsPerBatch: z.number().int().positive(),
  maxOutputTokens: z.number().int().positive(),
  retryMaxOutputTokens: z.number().int().positive(),
});
export type SccConfig = z.infer<typeof sccConfigSchema>;

export const DEFAULT_SCC_CONFIG: SccConfig = {
  preflightLength: 8,
  initialLength: 32,
  maxLength: 20000,
  samplesPerLength: 16,
  jitterFraction: 0.2,
  toleranceFraction: 0.05,
  stepFraction: 0.1,
  parallelTrialsPerBatch: 15,
  maxOutputTokens: 4096,
  retryMaxOutputTokens: 32768,
};

/**
 * How a tier's trials are issued:
 * - `pool`: ours — bounded concurrency, budget promotion after every completed trial;
 * - `batch-barrier`: the authors' parallel runner — trial 0 alone, then batches of `parallelTrialsPerBatch`,
 *   promotion and the abort check after each batch;
 * - `sequential`: the authors' older runner — one trial at a time, promotion and abort after each.
 */
export const SCHEDULES = ['pool', 'batch-barrier', 'sequential'] as const;
export type Schedule = (typeof SCHEDULES)[number];

/** `upfront`: all K targets of a tier drawn before its trials; `lazy`: one draw as each trial starts (old `o1` run). */
export const DRAW_MODES = ['upfront', 'lazy'] as const;
export type DrawMode = (typeof DRAW_MODES)[number];
