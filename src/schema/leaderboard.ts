import { z } from 'zod';
import { MISSING_RULES } from '../tasks/outcome.js';
import { count, estimateStatusSchema, interval } from './common.js';

/**
 * The leaderboard: per project, the subjects ranked by the project's headline number, which ranks the data can
 * tell apart, and the per-cell numbers side by side (src/leaderboard builds it; docs in its index.ts).
 */

/**
 * How two subjects' trials were matched. Paired: every cell both ran holds the same instances, trial for trial by
 * (instance seed, trial index); `pairs` were used, `dropped` had missing data on either side. Unpaired: why not.
 */
export const pairingSchema = z.discriminatedUnion('paired', [
  z.object({ paired: z.literal(true), pairs: count, dropped: count }),
  z.object({ paired: z.literal(false), reason: z.string() }),
]);
export type Pairing = z.infer<typeof pairingSchema>;

export const COMPARISON_METHODS = [
  /** Δp_d: instance pairs resampled within each depth, both p_d refitted (paired). */
  'paired-bootstrap',
  /** Δp_d: each side's counts redrawn from its own fitted p̂^N (unpaired; src/stats/retention-difference.ts). */
  'parametric-bootstrap',
  /** Exact McNemar on the discordant pairs (paired). */
  'mcnemar-exact',
  /** Two-sided Fisher exact on the 2×2 table of counted trials (unpaired). */
  'fisher-exact',
  /** SCC: the ladder's bounds [ccLower, ccUpper]; no p-value. */
  'ladder-bounds',
] as const;
export type ComparisonMethod = (typeof COMPARISON_METHODS)[number];

/**
 * One ordered pair of subjects, `a` ranked above `b`. `difference` = a − b in the tested metric (p_d, pooled
 * accuracy, or CC). `p` raw two-sided, `pAdjusted` Holm over the project's family (null where no p exists).
 * `separable`: the test tells them apart (Holm p < α, or disjoint ladder bounds), in either direction.
 */
export const comparisonSchema = z.object({
  a: z.string(),
  b: z.string(),
  metric: z.enum(['p_d', 'accuracy', 'cc']),
  method: z.enum(COMPARISON_METHODS),
  /** null for the SCC ladder, which compares bounds and pairs no trials. */
  pairing: pairingSchema.nullable(),
  status: estimateStatusSchema,
  /** Why no test was made (status 'insufficient'). */
  reason: z.string().optional(),
  difference: z.number().nullable(),
  ci95: interval.nullable(),
  p: z.number().nullable(),
  pAdjusted: z.number().nullable(),
  separable: z.boolean(),
  /** McNemar: trials only `a` got right, only `b` got right. */
  discordant: z.object({ aOnly: count, bOnly: count }).optional(),
});
export type Comparison = z.infer<typeof comparisonSchema>;

/**
 * What a reader sees between two adjacent ranks: '>' separable in the rank order, '≈' not separable, '<' separable
 * against the rank order (puzzles: ranked above by λ*, yet less accurate), '?' no test (insufficient data).
 */
export const RELATIONS = ['>', '≈', '<', '?'] as const;
export const relationSchema = z.object({
  higher: z.string(),
  lower: z.string(),
  relation: z.enum(RELATIONS),
  /** The Holm-adjusted p of the pair (null for the ladder and for no test). */
  p: z.number().nullable(),
  text: z.string(),
});
export type Relation = z.infer<typeof relationSchema>;

/** Where a subject stands: rank = position by the headline; rankRange = the ranks the tests leave open. */
const standing = {
  /** Subject label, unique within the leaderboard (the spec, plus the run seed where a spec repeats). */
  subject: z.string(),
  spec: z.string(),
  seed: z.number().int().nullable(),
  status: estimateStatusSchema,
  insufficientReason: z.string().optional(),
  /** 1-based position by the headline; null when the record is insufficient (listed last, unranked). */
  rank: z.number().int().positive().nullable(),
  /** [1 + subjects shown better, n − subjects shown worse]; null when unranked. */
  rankRange: z.tuple([z.number().int(), z.number().int()]).nullable(),
  /** "2" or "1–3". */
  rankLabel: z.string().nullable(),
};

/** The rates shown beside a headline (null where the records do not carry them). */
const sideRates = {
  tfbcRate: z.number().nullable(),
  kStarMean: z.number().nullable(),
};

export const retentionEntrySchema = z.object({
  ...standing,
  pd: z.number(),
  ci95: interval,
  atLowerBound: z.boolean(),
  nTrials: count,
  ...sideRates,
  formatRate: z.number().nullable(),
  truncationRate: z.number().nullable(),
  apiRate: z.number().nullable(),
  budgetRate: z.number().nullable(),
});
export type RetentionEntry = z.infer<typeof retentionEntrySchema>;

export const collapseEntrySchema = z.object({
  ...standing,
  /** λ* on the level index (higher = later collapse); null when the accuracy curve is flat. */
  levelIndex: z.number().nullable(),
  knob: z.number().nullable(),
  levelIndexCi95: interval.nullable(),
  /** Pooled over the levels: correct / counted trials, with its Clopper–Pearson 95% interval. */
  accuracy: z.number().nullable(),
  accuracyCi95: interval.nullable(),
  correct: count,
  n: count,
  ...sideRates,
});
export type CollapseEntry = z.infer<typeof collapseEntrySchema>;

export const sccEntrySchema = z.object({
  ...standing,
  cc: z.number(),
  ccLower: z.number(),
  ccUpper: z.number().nullable(),
  bounded: z.boolean(),
});
export type SccEntry = z.infer<typeof sccEntrySchema>;

/** One subject's numbers in one cell, counted under the board's missing-data rule. */
export const cellStandingSchema = z.object({
  subject: z.string(),
  n: count,
  counted: count,
  successes: count,
  accuracy: z.number().nullable(),
  ci95: interval.nullable(),
});

/** A cell (task, variant, profile, level) side by side, with its pairwise tests (Holm over the project's cells). */
export const cellRowSchema = z.object({
  task: z.string(),
  variant: z.string(),
  profile: z.string(),
  level: z.number(),
  subjects: z.array(cellStandingSchema),
  comparisons: z.array(comparisonSchema),
});
export type CellRow = z.infer<typeof cellRowSchema>;

const boardBase = {
  project: z.string(),
  task: z.string(),
  /** Every headline comparison of the board is paired (vacuously true with fewer than two ranked subjects). */
  paired: z.boolean(),
  comparisons: z.array(comparisonSchema),
  relations: z.array(relationSchema),
  cells: z.array(cellRowSchema),
  /** How to read the board: the ranking rule, the tests, the Holm family. */
  notes: z.array(z.string()),
};

export const retentionBoardSchema = z.object({
  kind: z.literal('retention'),
  ...boardBase,
  variant: z.string(),
  profile: z.string(),
  missing: z.enum(MISSING_RULES),
  entries: z.array(retentionEntrySchema),
});
export const collapseBoardSchema = z.object({
  kind: z.literal('collapse'),
  ...boardBase,
  entries: z.array(collapseEntrySchema),
});
export const sccBoardSchema = z.object({ kind: z.literal('scc'), ...boardBase, entries: z.array(sccEntrySchema) });
export const boardSchema = z.discriminatedUnion('kind', [retentionBoardSchema, collapseBoardSchema, sccBoardSchema]);
export type RetentionBoard = z.infer<typeof retentionBoardSchema>;
export type CollapseBoard = z.infer<typeof collapseBoardSchema>;
export type SccBoard = z.infer<typeof sccBoardSchema>;
export type Board = z.infer<typeof boardSchema>;

/** One project: a board per headline record (one per CCB sweep, per puzzle family, per SCC task). */
export const projectLeaderboardSchema = z.object({ project: z.string(), boards: z.array(boardSchema) });
export type ProjectLeaderboard = z.infer<typeof projectLeaderboardSchema>;

export const leaderboardSchema = z.object({
  alpha: z.number(),
  resamples: z.number().int().positive(),
  seed: z.number().int(),
  subjects: z.array(z.object({ subject: z.string(), spec: z.string(), seed: z.number().int().nullable() })),
  projects: z.array(projectLeaderboardSchema),
});
export type Leaderboard = z.infer<typeof leaderboardSchema>;

export const NOT_WORSE_VERDICTS = ['pass', 'fail', 'insufficient'] as const;

/** The non-inferiority decision of src/leaderboard notWorseThan (its doc comment states the rule). */
export const notWorseResultSchema = z.object({
  verdict: z.enum(NOT_WORSE_VERDICTS),
  project: z.string(),
  task: z.string().nullable(),
  candidate: z.string(),
  baseline: z.string(),
  margin: z.number(),
  alpha: z.number(),
  method: z.enum(['paired-bootstrap', 'parametric-bootstrap']).nullable(),
  pairing: pairingSchema.nullable(),
  /** p_d(candidate) − p_d(baseline). */
  difference: z.number().nullable(),
  /** The one-sided (1 − α) upper confidence bound of the difference: the verdict is 'fail' iff it is < −margin. */
  upper: z.number().nullable(),
  /**
   * The power of the decision: about how often it fails a candidate one `shortfall` worse than −margin (the normal
   * approximation of the bound, with the bootstrap draws' standard deviation). Absent when nothing was tested.
   */
  power: z.number().optional(),
  /** Where the power is stated: Δ = −margin − shortfall (the margin, or 0.02 when the margin is 0). */
  shortfall: z.number().optional(),
  message: z.string(),
});
export type NotWorseResult = z.infer<typeof notWorseResultSchema>;
