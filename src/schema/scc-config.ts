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

/**
 * The order in which a tier's trials are launched. The tier's K targets, which target each trial index gets and
 * the trials the verdict is computed over are the same under both; only which trial is asked first changes.
 * - `largest-first`: ours — by decreasing target (ties by index). A trial's relative error grows with its
 *   target past the model's capacity, so the trials that can settle a failing tier early come first;
 * - `index`: the authors' — trial 0, 1, …, K − 1.
 */
export const LAUNCH_ORDERS = ['largest-first', 'index'] as const;
export type LaunchOrder = (typeof LAUNCH_ORDERS)[number];

/**
 * When the one-trial preflight at `preflightLength` runs (docs/scc.md, "Schedule"):
 * - `if-first-tier-fails`: ours — only after the first tier fails. The preflight draws no target, so skipping
 *   it leaves every target, tier and verdict as they were; after a failed first tier it still decides the
 *   record (skipped, error bar {0, 3}, or failed at 32, error bar {0, 32}; CC 0 either way). The one model
 *   whose record it changes passes the first tier (every answer parsed, mean error ≤ 5%) yet would give no
 *   integer, or an error, at 8: the authors skip it with CC 0, this policy reports its ladder;
 * - `first`: the authors' — before the first tier; a preflight without an integer skips the model.
 */
export const PREFLIGHT_POLICIES = ['if-first-tier-fails', 'first'] as const;
export type PreflightPolicy = (typeof PREFLIGHT_POLICIES)[number];

/** `upfront`: all K targets of a tier drawn before its trials; `lazy`: one draw as each trial starts (old `o1` run). */
export const DRAW_MODES = ['upfront', 'lazy'] as const;
export type DrawMode = (typeof DRAW_MODES)[number];
