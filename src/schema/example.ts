import { z } from 'zod';
import { count } from './common.js';
import { finishReasonSchema } from './trial.js';

/**
 * Examples: the trials a cell keeps whole enough to read — what the model wrote, and for stepwise families its
 * trace beside the canonical one. Model text is untrusted data: it is bounded here and escaped wherever shown.
 */

/** How many examples a cell keeps per outcome kind: a number (0 = none) or 'all' (every trial; unbounded). */
export const exampleLimitSchema = z.union([z.number().int().nonnegative(), z.literal('all')]);
export type ExampleLimit = z.infer<typeof exampleLimitSchema>;

/** The default: up to 3 examples per outcome kind. */
export const DEFAULT_EXAMPLES = 3;

/**
 * The bounds of one example, in characters (`answer`, `reasoning`, `state`, `issue`) or items (`issues`), and the
 * steps shown on each side of the first divergent one (`window`). Sized so a 6,000-trial run's report grows by
 * well under 2 MB (docs/reading-a-failed-gate.md).
 */
export const EXAMPLE_BOUNDS = {
  answer: 600,
  reasoning: 600,
  state: 200,
  issue: 200,
  issues: 5,
  window: 2,
} as const;

/** A text kept in part: its full length, and the text itself cut to a bound (head and tail around a marker). */
export const boundedTextSchema = z.object({
  chars: count,
  text: z.string(),
});

/** One step of a trace as shown: the model's state and the canonical one (null where either trace has none). */
export const exampleStepSchema = z.object({
  step: z.number().int().positive(),
  model: z.string().nullable(),
  canonical: z.string().nullable(),
  /** Why the model's step could not be read, or the rule it breaks. */
  issue: z.string().optional(),
});

/**
 * The trace beside the canonical one, around the first divergent step (`window` steps either side; the last
 * steps when it never diverges); the steps not listed are counted by `modelSteps` and `canonicalSteps`.
 */
export const exampleTraceSchema = z.object({
  modelSteps: count,
  canonicalSteps: count,
  /** The first 1-based step whose state differs from the canonical one (a missing step differs); −1: none. */
  divergence: z.number().int().min(-1),
  steps: z.array(exampleStepSchema),
  answer: z.object({ model: z.string().nullable(), canonical: z.string(), matches: z.boolean() }),
});

/** One example trial of a cell. `answer` is absent when no response came (api, budget). */
export const trialExampleSchema = z.object({
  seed: z.number().int(),
  trialIndex: count,
  /** The outcome kind (correct, reasoning, fail, …). */
  kind: z.string(),
  /** sha256 of the rendered prompt ({system, user}), as the response cache records it (`promptSha256`). */
  promptSha256: z.string().regex(/^[0-9a-f]{64}$/),
  /** The trial's response-cache key, when its subject caches (API subjects): the entry holding the whole response. */
  cacheKey: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .optional(),
  finishReason: finishReasonSchema,
  /** The final answer the grader read (reasoning set aside). */
  answer: boundedTextSchema.optional(),
  /** The reasoning set aside before grading, when the response carried any. */
  reasoning: boundedTextSchema.optional(),
  kStar: z.number().int().min(-1),
  issues: z.array(z.string()),
  /** Stepwise families: the trace beside the canonical one. */
  trace: exampleTraceSchema.optional(),
});
export type BoundedText = z.infer<typeof boundedTextSchema>;
export type TrialExample = z.infer<typeof trialExampleSchema>;
export type ExampleTrace = z.infer<typeof exampleTraceSchema>;
