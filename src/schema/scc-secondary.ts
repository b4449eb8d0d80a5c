import { z } from 'zod';
import { AGENT_CONDITIONS } from '../tasks/scc-secondary/agent/prompts.js';
import { DUAL_CONDITIONS } from '../tasks/scc-secondary/dual/conditions.js';
import { chainUsageSchema } from './chain-usage.js';
import { capacityShape } from './scc.js';
import { sccStopSchema } from './scc-stop.js';

/** Zod schemas of the three secondary assays' results (they travel on task.meta into ceilingbench.json). */

const rateSchema = z.number().min(0).max(1).nullable();

/** Whether a trial's answer could be read: `answered` false means the request failed (missing data, in no rate). */
const answerShape = { answered: z.boolean(), parseable: z.boolean(), strictJson: z.boolean() };

/**
 * A trial's reported token usage (the final call's; null without usage) and the text it answered: each trial
 * record's last keys. `usage`: every call of the trial, its budget doublings included (absent in records written
 * before it was kept, or when the budget rule itself failed).
 */
const responseShape = {
  inputTokens: z.number().int().nullable(),
  outputTokens: z.number().int().nullable(),
  text: z.string(),
  usage: chainUsageSchema.optional(),
};

/** A condition's trials, the missing ones among them, and the share of answered trials that could be parsed. */
const conditionTallyShape = {
  trials: z.number().int().nonnegative(),
  missing: z.number().int().nonnegative(),
  parseRate: rateSchema,
};

/**
 * A secondary assay some of whose requests the run's spend ledger refused (a spending limit, or Ctrl-C): those
 * trials are missing data (`answered` false), `reason` is the first refusal. Absent when none was refused.
 */
export const secondaryStopSchema = z.object({
  by: z.literal('budget'),
  reason: z.string(),
  notSent: z.number().int().positive(),
});
export type SecondaryStop = z.infer<typeof secondaryStopSchema>;

// ── Motif / delimiter ablation ──────────────────────────────────────────────────────────────────────────
export const motifRowSchema = z.object({
  motif: z.string(),
  item: z.string(),
  delimiter: z.string(),
  seed: z.number().int(),
  skipped: z.boolean(),
  ...capacityShape,
  /** The spend ledger stopped this motif's ladder: cc is a lower bound only, and no ratio is taken of it. */
  stopped: sccStopSchema.optional(),
  /** cc / baseline cc; null when the baseline cc is 0, or either ladder was stopped. */
  relativeCc: z.number().nonnegative().nullable(),
  /** OLS slope of reported input tokens on the true count over the ladder's trials; null without usage. */
  inputTokensPerItem: z.number().nullable(),
  relativeInputTokensPerItem: z.number().nullable(),
  path: z.array(
    z.object({ phase: z.string(), center: z.number().int(), passed: z.boolean(), mape: z.number().nullable() }),
  ),
  calls: z.number().int().nonnegative(),
  /**
   * Every trial of the motif's ladder, the preflight and the trials aborted by the early decision included: what
   * each used over all its calls (absent in records written before it was kept).
   */
  usage: z.array(chainUsageSchema).optional(),
});
export const motifAblationSchema = z.object({
  baselineMotif: z.string(),
  maxLength: z.number().int().positive(),
  rows: z.array(motifRowSchema),
  /** The spend ledger stopped the ablation at `motif`'s ladder; `notRun`: the motifs after it, never asked. */
  stopped: sccStopSchema.extend({ motif: z.string(), notRun: z.array(z.string()) }).optional(),
});

// ── Dual-task interference ──────────────────────────────────────────────────────────────────────────────
export const dualTrialSchema = z.object({
  condition: z.enum(DUAL_CONDITIONS),
  count: z.number().int().positive(),
  sample: z.number().int().nonnegative(),
  itemId: z.string().nullable(),
  matchedTokens: z.number().int().nullable(),
  secondaryCount: z.number().int().nullable(),
  ...answerShape,
  parsedCount: z.number().int().nullable(),
  countError: z.number().int().nullable(),
  countCorrect: z.boolean(),
  parsedSecondaryCount: z.number().int().nullable(),
  secondaryCorrect: z.boolean().nullable(),
  taskCorrect: z.boolean().nullable(),
  ...responseShape,
});
export const dualPointSchema = z.object({
  count: z.number().int(),
  trials: z.number().int().nonnegative(),
  /** Mean signed error (parsed − true) over parsed trials at this count. */
  meanError: z.number().nullable(),
  meanAbsError: z.number().nullable(),
  smoothedError: z.number().nullable(),
  smoothedAbsError: z.number().nullable(),
});
export const dualConditionSchema = z.object({
  condition: z.enum(DUAL_CONDITIONS),
  ...conditionTallyShape,
  countAccuracy: rateSchema,
  meanAbsError: z.number().nullable(),
  meanSignedError: z.number().nullable(),
  /** dual_counting only: exact b counts. */
  secondaryAccuracy: rateSchema,
  /** real-task conditions only: secondary answers accepted by the task's grader, over answered trials. */
  taskAccuracy: rateSchema,
  meanMatchedTokens: z.number().nullable(),
  meanInputTokens: z.number().nullable(),
  series: z.array(dualPointSchema),
});
export const dualTaskSchema = z.object({
  seed: z.number().int(),
  counts: z.array(z.number().int()),
  samplesPerCount: z.number().int().positive(),
  window: z.number().int().positive(),
  secondaries: z.array(z.object({ id: z.string(), level: z.number().int(), title: z.string() })),
  conditions: z.array(dualConditionSchema),
  trials: z.array(dualTrialSchema),
  stopped: secondaryStopSchema.optional(),
});

// ── Agent-operation assay ───────────────────────────────────────────────────────────────────────────────
export const agentTrialSchema = z.object({
  condition: z.enum(AGENT_CONDITIONS),
  taskIndex: z.number().int().nullable(),
  markerCount: z.number().int().nonnegative(),
  ...answerShape,
  formatContract: z.boolean(),
  parsedMarkerCount: z.number().int().nullable(),
  markerCountCorrect: z.boolean().nullable(),
  copyExact: z.boolean().nullable(),
  copiedMarkerCount: z.number().int().nullable(),
  externalizationSuccess: z.boolean().nullable(),
  finalBalancesCorrect: z.boolean().nullable(),
  reviewIdsCorrect: z.boolean().nullable(),
  netTotalCorrect: z.boolean().nullable(),
  nextActionCorrect: z.boolean().nullable(),
  taskCorrect: z.boolean().nullable(),
  countOrCopyCorrect: z.boolean().nullable(),
  ...responseShape,
});
export const agentConditionSchema = z.object({
  condition: z.enum(AGENT_CONDITIONS),
  ...conditionTallyShape,
  strictJsonRate: rateSchema,
  formatContractRate: rateSchema,
  /** Table S9 "Count/copy": exact count (agent_count_insert) or exact externalization (copy conditions). */
  countOrCopyRate: rateSchema,
  countCorrectRate: rateSchema,
  copyExactRate: rateSchema,
  taskSuccessRate: rateSchema,
  meanTaskFieldScore: z.number().nullable(),
});
export const agentThresholdSchema = z.object({
  condition: z.enum(AGENT_CONDITIONS),
  levels: z.number().int().nonnegative(),
  trialsPerLevel: z.number().int().nonnegative(),
  /** Highest marker level at which every trial got the count/copy field right. */
  lastFullSuccess: z.number().int().nullable(),
  /** Lowest level with at least one wrong count/copy. */
  firstFailure: z.number().int().nullable(),
  /** Lowest level at which every trial got it wrong. */
  firstAllFail: z.number().int().nullable(),
  /** Levels above firstAllFail with at least one exact trial (Table S10's "isolated recovery"). */
  recoveries: z.array(z.number().int()),
  /** Agent-task success over the condition's trials (null without a task). */
  taskSuccessRate: rateSchema,
});
export const agentLevelSchema = z.object({
  condition: z.enum(AGENT_CONDITIONS),
  markerCount: z.number().int(),
  trials: z.number().int().nonnegative(),
  parseRate: rateSchema,
  countOrCopyRate: rateSchema,
  taskSuccessRate: rateSchema,
});
export const agentAssaySchema = z.object({
  seed: z.number().int(),
  ladderModel: z.string(),
  taskSamples: z.number().int().positive(),
  agentCounts: z.array(z.number().int()),
  copyCounts: z.array(z.number().int()),
  conditions: z.array(agentConditionSchema),
  thresholds: z.array(agentThresholdSchema),
  levels: z.array(agentLevelSchema),
  trials: z.array(agentTrialSchema),
  stopped: secondaryStopSchema.optional(),
});

export type MotifRow = z.infer<typeof motifRowSchema>;
export type MotifAblationResult = z.infer<typeof motifAblationSchema>;
export type DualTrial = z.infer<typeof dualTrialSchema>;
export type DualConditionSummary = z.infer<typeof dualConditionSchema>;
export type DualTaskResult = z.infer<typeof dualTaskSchema>;
export type AgentTrial = z.infer<typeof agentTrialSchema>;
export type AgentConditionSummary = z.infer<typeof agentConditionSchema>;
export type AgentThreshold = z.infer<typeof agentThresholdSchema>;
export type AgentAssayResult = z.infer<typeof agentAssaySchema>;
