import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import type { SccConfig } from './config.js';

/**
 * closed.summary.json-style summaries (docs/spec/scc.md §15.2). The writer copies each model's run record
 * field by field and writes null for a key the record lacks, so every copied field may be null: a
 * preflight-skipped model has `bounded`, `inferred_seed`, `rng_draw_mode` and `learned_max_output_tokens`
 * null and no evaluations; an unbounded one has `cc_upper_bound` null; a tier without a parsed answer has
 * `mae`, `mape` and `mean_signed_error` null. Each model is validated on its own (see `sccSummarySchema`).
 */
const count = z.number().int().nonnegative();

export const sccSummaryEvaluationSchema = z.object({
  evaluation_index: count,
  phase: z.enum(['expansion', 'refine']),
  center_length: z.number().int().positive(),
  sample_low: z.number().int().nullish(),
  sample_high: z.number().int().nullish(),
  passed: z.boolean(),
  trials: count.nullish(),
  parse_rate: z.number().min(0).max(1).nullish(),
  success_rate: z.number().min(0).max(1).nullish(),
  mae: z.number().nullish(),
  mape: z.number().nullish(),
  mean_signed_error: z.number().nullish(),
});

const orNull = <T>(value: T | null | undefined): T | null => value ?? null;

export const sccSummaryModelSchema = z.object({
  api: z.string().nullish(),
  base_model: z.string().nullish(),
  skipped: z
    .boolean()
    .nullish()
    .transform((v) => v ?? false),
  skip_reason: z.string().nullish(),
  cc: count,
  cc_lower_bound: count.nullish(),
  /** null: never failed a tier (unbounded). */
  cc_upper_bound: z.number().int().positive().nullish().transform(orNull),
  /** null: the run record has no `bounded` key (the authors' skipped record). */
  bounded: z.boolean().nullish().transform(orNull),
  cc_error_bar: z.object({ lower: count, upper: count }).nullish(),
  evaluation_count: count.nullish(),
  trial_count: count.nullish(),
  learned_max_output_tokens: z.number().int().positive().nullish(),
  config_has_parallel_trials_per_batch: z
    .boolean()
    .nullish()
    .transform((v) => v ?? true),
  /** null: no target was drawn (a skipped model), so there is no seed to infer. */
  inferred_seed: z.number().int().nullish().transform(orNull),
  rng_draw_mode: z
    .enum(['upfront', 'lazy'])
    .nullish()
    .transform((v) => v ?? 'upfront'),
  preflight: z
    .object({
      expected: z.number().int(),
      parsed: z.number().nullable(),
      response_status: z.string(),
      passed: z.boolean(),
    })
    .nullish(),
  /** null or absent: the summary does not list the tiers, so the replay cannot compare its path. */
  evaluations: z.array(sccSummaryEvaluationSchema).nullish().transform(orNull),
  published_csv: z
    .object({
      error_bar_lower: z.string().nullish(),
      error_bar_upper: z.string().nullish(),
      avg_output_tokens_at_cc: z.string().nullish(),
    })
    .nullish(),
});
export type SccSummaryModel = z.infer<typeof sccSummaryModelSchema>;

const describeIssue = (error: z.ZodError): string => {
  const issue = error.issues[0];
  return `field '${issue.path.join('.')}' ${issue.message}`;
};

/**
 * The file: its search configuration and the models, split into those that validate (`models`) and those
 * that do not (`invalid`: model → the first problem), so one malformed model never hides the others.
 */
export const sccSummarySchema = z
  .object({
    search_config: z
      .object({
        initial_length: z.number().int().positive().nullish(),
        max_length: z.number().int().positive().nullish(),
        samples_per_length: z.number().int().positive().nullish(),
        jitter_fraction: z.number().nullish(),
        tolerance_fraction: z.number().nullish(),
        step_fraction: z.number().nullish(),
        parallel_trials_per_batch: z.number().int().positive().nullish(),
      })
      .nullish(),
    models: z.record(z.string(), z.unknown()),
  })
  .transform(({ search_config, models }) => {
    const valid: [string, SccSummaryModel][] = [];
    const invalid: [string, string][] = [];
    for (const [name, value] of Object.entries(models)) {
      const parsed = sccSummaryModelSchema.safeParse(value);
      if (parsed.success) valid.push([name, parsed.data]);
      else invalid.push([name, describeIssue(parsed.error)]);
    }
    // fromEntries defines own properties, so a model named '__proto__' is an ordinary key.
    return { search_config, models: Object.fromEntries(valid), invalid: Object.fromEntries(invalid) };
  });
export type SccSummary = z.infer<typeof sccSummarySchema>;

/** Reads a summary; only a file that is not JSON or has no `models` map is an error for the whole file. */
export async function loadSccSummary(path: string): Promise<SccSummary> {
  let json: unknown;
  try {
    json = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    throw new Error(
      `${path}: not valid JSON (${error instanceof Error ? error.message : String(error)}); pass the run's summary file`,
    );
  }
  const parsed = sccSummarySchema.safeParse(json);
  if (!parsed.success) {
    throw new Error(`${path}: ${describeIssue(parsed.error)}; pass a closed.summary.json-style summary`);
  }
  return parsed.data;
}

export function configFromSummary(summary: Pick<SccSummary, 'search_config'>): Partial<SccConfig> {
  const s = summary.search_config ?? {};
  const config: Partial<SccConfig> = {};
  if (s.initial_length != null) config.initialLength = s.initial_length;
  if (s.max_length != null) config.maxLength = s.max_length;
  if (s.samples_per_length != null) config.samplesPerLength = s.samples_per_length;
  if (s.jitter_fraction != null) config.jitterFraction = s.jitter_fraction;
  if (s.tolerance_fraction != null) config.toleranceFraction = s.tolerance_fraction;
  if (s.step_fraction != null) config.stepFraction = s.step_fraction;
  if (s.parallel_trials_per_batch != null) config.parallelTrialsPerBatch = s.parallel_trials_per_batch;
  return config;
}
