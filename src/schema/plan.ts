import { z } from 'zod';
import { count } from './common.js';
import { priceSchema } from './spend.js';

/**
 * `ceilingbench plan` (and `run --dry-run`): what a run would send and cost before it starts, computed from the
 * rendered prompts and the response cache on disk, without a request. Amounts cover the requests still to send:
 * a trial the cache already answers costs nothing and is counted in `cached` only.
 */

export const PLAN_FORMAT = 'ceilingbench-plan/1';

/**
 * An estimate with its bounds, low ≤ expected ≤ high. `expected` is null where the run's answers decide the amount
 * and no typical value can be stated (the SCC ladders); low and high always hold.
 */
export const planRangeSchema = z.object({
  low: z.number().nonnegative(),
  expected: z.number().nonnegative().nullable(),
  high: z.number().nonnegative(),
});
export type PlanRange = z.infer<typeof planRangeSchema>;

/**
 * Requests, prompt tokens, output tokens and USD of the requests still to send. low: every answer is the canonical
 * response; expected: the family's length model (`expectedOutputTokens`) or else the canonical response; high:
 * every answer runs to its output budget (and, under SCC's budget rule, through every doubling). `costUsd` is null
 * when the subject has no price: tokens only, never an invented figure.
 */
export const planAmountSchema = z.object({
  calls: planRangeSchema,
  promptTokens: planRangeSchema,
  outputTokens: planRangeSchema,
  costUsd: planRangeSchema.nullable(),
});
export type PlanAmount = z.infer<typeof planAmountSchema>;

/** One cell of a unit: a (task, level, variant) with its trials. */
export const planCellSchema = z.object({
  name: z.string(),
  task: z.string(),
  level: z.number(),
  variant: z.string(),
  trials: count,
  /** Trials whose answer the response cache holds (cost 0). */
  cached: count,
  amount: planAmountSchema,
});
export type PlanCell = z.infer<typeof planCellSchema>;

/**
 * What a unit is: `grid` a sweep's cells; `ablation` paired prompt variants at one level; `adaptive` the adaptive
 * depth design (the grid is its cap); `ladder` an SCC counting ladder (its tiers follow its answers); `design` a
 * fixed SCC secondary design whose requests may double their budget.
 */
export const PLAN_UNIT_KINDS = ['grid', 'ablation', 'adaptive', 'ladder', 'design'] as const;

export const planUnitSchema = z.object({
  name: z.string(),
  kind: z.enum(PLAN_UNIT_KINDS),
  /** The run's answers decide how many requests it sends: `calls` is a range [low, high], not a count. */
  isRange: z.boolean(),
  /** Trials of the unit (null for a ladder: its answers decide them). */
  trials: count.nullable(),
  /** Of those, answered by the cache (null when not checked: a ladder's trials depend on earlier answers). */
  cached: count.nullable(),
  cells: z.array(planCellSchema),
  amount: planAmountSchema,
  note: z.string().nullable(),
});
export type PlanUnit = z.infer<typeof planUnitSchema>;

export const planProjectSchema = z.object({
  /** As the run names it: `d2`, or `d2@<label>` in a run with several subjects. */
  name: z.string(),
  /** The spec of the subject it runs. */
  subject: z.string(),
  /** False for a project whose spec files decide what runs (the user's own): nothing is counted for it. */
  estimated: z.boolean(),
  note: z.string().nullable(),
  units: z.array(planUnitSchema),
  trials: count.nullable(),
  cached: count.nullable(),
  /** The sum of the units (null when not estimated). */
  amount: planAmountSchema.nullable(),
});
export type PlanProject = z.infer<typeof planProjectSchema>;

const tokenizerSchema = z.object({
  encoding: z.string(),
  /** The subject's model is an OpenAI model of known encoding; otherwise the counts approximate its tokenizer. */
  exact: z.boolean(),
});

const cacheSchema = z.object({
  /** The response cache read for holdings (null when the subject uses none). */
  dir: z.string().nullable(),
  mode: z.string(),
});

/**
 * A sum over estimated projects. `complete` is false when a selected project is not estimated: the totals leave it
 * out.
 */
export const planTotalsSchema = z.object({
  trials: count.nullable(),
  cached: count.nullable(),
  amount: planAmountSchema,
  complete: z.boolean(),
});
export type PlanTotals = z.infer<typeof planTotalsSchema>;

/** One subject of the run: its own tokenizer, price, cache holdings (under its own cache key) and notes. */
export const planSubjectSchema = z.object({
  spec: z.string(),
  kind: z.string(),
  model: z.string().nullable(),
  /** The label its projects carry (`d2@<label>`) in a run with several subjects; null with one. */
  label: z.string().nullable(),
  tokenizer: tokenizerSchema,
  /** USD per million tokens from the config's price table; null: no price (tokens only). */
  price: priceSchema.nullable(),
  cache: cacheSchema,
  /** The names of its projects in the plan's `projects`. */
  projects: z.array(z.string()),
  /** The sum over its estimated projects. */
  totals: planTotalsSchema,
  /** What is particular to this subject (its tokenizer, price, cache, ranges); the plan's `notes` hold them too. */
  notes: z.array(z.string()),
});
export type PlanSubjectPlan = z.infer<typeof planSubjectSchema>;

/**
 * `subject`, `tokenizer`, `price` and `cache` are the first subject's (the run's one subject, as in a plan of one
 * subject); `subjects` has every subject's own. `projects` holds every subject's projects, `totals` sums them all.
 */
export const planSchema = z.object({
  format: z.literal(PLAN_FORMAT),
  subject: z.object({ spec: z.string(), kind: z.string(), model: z.string().nullable() }),
  trials: count,
  seed: count,
  design: z.object({ kind: z.enum(['grid', 'adaptive', 'sequential']), targetWidth: z.number().optional() }),
  tokenizer: tokenizerSchema,
  /** USD per million tokens from the config's price table; null: no price (tokens only). */
  price: priceSchema.nullable(),
  cache: cacheSchema,
  /** The run's subjects in its order, at least one. */
  subjects: z.array(planSubjectSchema).min(1),
  projects: z.array(planProjectSchema),
  /**
   * The run's: the sum over its subjects. Its `costUsd` is null when a subject that sends requests (openai:) has no
   * price — never a partial sum read as the whole; a subject that sends none bills nothing and adds no cost.
   */
  totals: planTotalsSchema,
  notes: z.array(z.string()),
});
export type Plan = z.infer<typeof planSchema>;
