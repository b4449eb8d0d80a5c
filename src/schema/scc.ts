import { z } from 'zod';
import { FORMAT_CATEGORIES } from '../tasks/count/audit.js';
import { chainUsageSchema } from './chain-usage.js';
import { DRAW_MODES, LAUNCH_ORDERS, PREFLIGHT_POLICIES, SCHEDULES, sccConfigSchema } from './scc-config.js';
import { sccStopSchema } from './scc-stop.js';

/** Zod schemas of the SCC assay's result (it crosses into reports, caches and the CLI's --json). */

/** The ladder's counting capacity and its bounds: of an SCC run, and of each motif of the stimulus ablation. */
export const capacityShape = {
  cc: z.number().int().nonnegative().describe('Counting capacity: the longest length whose tier passed (0: none).'),
  ccLower: z.number().int().nonnegative().describe('Lower bound of the capacity: the highest passed tier centre.'),
  ccUpper: z
    .number()
    .int()
    .positive()
    .nullable()
    .describe('Upper bound: the lowest failed tier centre; null when no tier failed (unbounded).'),
  bounded: z
    .boolean()
    .describe("Whether a tier failed above the capacity (absent in the authors' skipped record; false when skipped)."),
  errorBar: z
    .object({ lower: z.number().int().nonnegative(), upper: z.number().int().positive() })
    .describe("The authors' error bar of the capacity: [lower, upper]."),
};

export const sccTrialSchema = z.object({
  trialIndex: z.number().int().nonnegative(),
  target: z.number().int(),
  parsed: z.number().nullable(),
  relativeError: z.number().nonnegative().nullable(),
  exact: z.boolean(),
  format: z.enum(FORMAT_CATEGORIES),
  /** Output tokens of the final call (null when the subject did not report usage). */
  tokens: z.number().int().nonnegative().nullable(),
  inputTokens: z.number().int().nonnegative().nullable(),
  status: z.enum(['completed', 'incomplete', 'error']),
  detail: z.string().nullable(),
  retryCount: z.number().int().nonnegative(),
  requestedMaxOutputTokens: z.number().int().positive(),
  finalMaxOutputTokens: z.number().int().positive(),
  text: z.string(),
  /** Every call of the trial, its doublings included (absent in records written before it was kept). */
  usage: chainUsageSchema.optional(),
});

/** A trial as the ladder keeps it while it runs: the result's trial, its usage always recorded. */
export const sccTrialRecordSchema = sccTrialSchema.required({ usage: true });

export const sccTierSchema = z.object({
  evaluationIndex: z.number().int().nonnegative(),
  phase: z.enum(['expansion', 'refine']),
  center: z.number().int().positive(),
  sampleLow: z.number().int(),
  sampleHigh: z.number().int(),
  targets: z.array(z.number().int()),
  passed: z.boolean(),
  parseRate: z.number().min(0).max(1),
  mape: z.number().nullable(),
  issued: z.number().int().nonnegative(),
  aborted: z.number().int().nonnegative(),
  decidedEarly: z.boolean(),
  abortRuleStopped: z.boolean(),
  trials: z.array(sccTrialSchema),
  /**
   * What the trials aborted by the early decision after some of their calls had answered used: they have no
   * record, their calls were made. Absent in records written before it was kept.
   */
  abortedUsage: z.array(chainUsageSchema).optional(),
});

/** The tier the spend ledger stopped: no verdict; the trials that answered, and what every call used. */
export const stoppedTierSchema = sccTierSchema
  .pick({
    evaluationIndex: true,
    phase: true,
    center: true,
    sampleLow: true,
    sampleHigh: true,
    targets: true,
    issued: true,
    trials: true,
  })
  .extend({
    abortedUsage: z.array(chainUsageSchema),
    /** What the trials the ledger refused had used before the refusal (their earlier budget doublings). */
    notSentUsage: z.array(chainUsageSchema),
  });

/** Where the ladder was stopped: at its preflight, or inside a tier. */
export const sccStoppedSchema = z.discriminatedUnion('at', [
  /** `usage`: what the refused preflight had used before the refusal (its earlier budget doublings). */
  sccStopSchema.extend({ at: z.literal('preflight'), usage: chainUsageSchema }),
  sccStopSchema.extend({ at: z.literal('tier'), tier: stoppedTierSchema }),
]);

export const attractorSchema = z.object({
  value: z.number(),
  count: z.number().int().positive(),
  /** Share of the wrong parsed answers past capacity. */
  share: z.number().min(0).max(1),
});

export const tokensAtCcSchema = z.object({
  /** The highest-index passed tier whose centre equals cc (null when cc = 0 or none passed there). */
  center: z.number().int().nullable(),
  trials: z.number().int().nonnegative(),
  meanOutputTokens: z.number().nullable(),
  meanTotalTokens: z.number().nullable(),
  outputTokensPerCount: z.number().nullable(),
  totalTokensPerCount: z.number().nullable(),
  /** The authors' CSV column `avg_output_tokens_at_cc`: mean output tokens (> 0) over ALL passed tiers. */
  authorsCsvAvgOutputTokens: z.number().nullable(),
});

export const formatAuditRowSchema = z.object({
  category: z.enum(FORMAT_CATEGORIES),
  cases: z.number().int().positive(),
  parsed: z.number().int().nonnegative(),
  models: z.number().int().nonnegative(),
});

export const sccResultSchema = z.object({
  task: z.string(),
  seed: z.number().int(),
  config: sccConfigSchema,
  schedule: z.enum(SCHEDULES),
  drawMode: z.enum(DRAW_MODES),
  earlyDecision: z.boolean(),
  launchOrder: z.enum(LAUNCH_ORDERS),
  preflightPolicy: z.enum(PREFLIGHT_POLICIES),
  skipped: z.boolean(),
  skipReason: z.string().nullable(),
  ...capacityShape,
  /** Absent when the preflight was not needed (policy `if-first-tier-fails` and the first tier passed). */
  preflight: sccTrialSchema.optional(),
  tiers: z.array(sccTierSchema),
  calls: z.number().int().nonnegative().describe('Requests issued, the preflight included (aborted ones included).'),
  callsSaved: z
    .number()
    .int()
    .nonnegative()
    .describe(
      "Trials not issued that the authors' runner would have issued: K − issued per early-decided tier, plus the " +
        'preflight when it was not needed.',
    ),
  tokensSaved: z
    .number()
    .nonnegative()
    .describe("Estimated output tokens saved: per decided tier, (K − completed) × the tier's mean output tokens."),
  tokensSpent: z.number().nonnegative().describe('Output tokens of all completed trials, as reported by the subject.'),
  learnedMaxOutputTokens: z.number().int().positive(),
  attractors: z.array(attractorSchema),
  tokensPerCountAtCc: tokensAtCcSchema,
  formatAudit: z.array(formatAuditRowSchema),
  stopped: sccStoppedSchema
    .optional()
    .describe('Present when the spend ledger stopped the ladder: no CC is measured then.'),
});

export type SccTrial = z.infer<typeof sccTrialSchema>;
export type SccTrialRecord = z.infer<typeof sccTrialRecordSchema>;
export type SccTier = z.infer<typeof sccTierSchema>;
export type SccResult = z.infer<typeof sccResultSchema>;
export type SccStopped = z.infer<typeof sccStoppedSchema>;
export type StoppedTierRecord = z.infer<typeof stoppedTierSchema>;
export type Attractor = z.infer<typeof attractorSchema>;
export type TokensAtCc = z.infer<typeof tokensAtCcSchema>;
