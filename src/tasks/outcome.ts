import { z } from 'zod';
import { bounded, ISSUE_MAX } from './echo.js';

/**
 * Trial outcomes. One discriminated union over three families; every variant carries
 * `kStar` (first divergent step, 1-based; −1 = no divergence or not applicable), `tfbc`
 * (right answer despite a divergent trace) and `issues` (human-readable reasons, in order).
 *
 * Invariant: `api` and `budget` are missing data in every family — never a model failure, never in a denominator.
 */
export const CCB_OUTCOME_KINDS = [
  'correct',
  'reasoning',
  'constraint',
  'format',
  'truncation',
  'api',
  'budget',
] as const;
export const PUZZLE_OUTCOME_KINDS = ['pass', 'fail', 'collapse', 'api', 'budget'] as const;
export const COUNT_OUTCOME_KINDS = ['exact', 'inexact', 'unparsed', 'api', 'budget'] as const;

/**
 * The kinds every family shares that are missing data whatever the rule: `api` (the request produced no
 * response: transport or provider fault) and `budget` (the trial was never sent: the run's spending limit was
 * reached or the run was interrupted). Neither is ever a model failure or in a denominator.
 */
export const MISSING_DATA_KINDS = ['api', 'budget'] as const;
export type MissingDataKind = (typeof MISSING_DATA_KINDS)[number];

export type CcbOutcomeKind = (typeof CCB_OUTCOME_KINDS)[number];
export type PuzzleOutcomeKind = (typeof PUZZLE_OUTCOME_KINDS)[number];
export type CountOutcomeKind = (typeof COUNT_OUTCOME_KINDS)[number];

const common = {
  kStar: z.number().int().min(-1),
  tfbc: z.boolean(),
  issues: z.array(z.string()),
};

export const ccbOutcomeSchema = z.object({
  family: z.literal('ccb'),
  kind: z.enum(CCB_OUTCOME_KINDS),
  /** The final answer matched exactly (the trace is graded separately, for k* and TFBC). */
  answerCorrect: z.boolean(),
  /** A final answer block could be read, right or wrong (absent in records from before it was kept). */
  answerParsed: z.boolean().optional(),
  /**
   * Every trace step could be read. When false, k* is −1 and TFBC false: both are defined over parseable
   * traces only ("trace unreadable", never a lucky guess or a divergence at step 1).
   */
  traceReadable: z.boolean().optional(),
  ...common,
});

export const puzzleOutcomeSchema = z.object({
  family: z.literal('puzzle'),
  kind: z.enum(PUZZLE_OUTCOME_KINDS),
  ...common,
});

export const countOutcomeSchema = z.object({
  family: z.literal('count'),
  kind: z.enum(COUNT_OUTCOME_KINDS),
  expected: z.number().int(),
  /** The last integer in the response (the authors' parser); null when there is none. */
  parsed: z.number().nullable(),
  /** |parsed − expected| / expected; null when unparsed. */
  relativeError: z.number().nullable(),
  /** Table S2 category of the response text (see src/tasks/count). */
  format: z.string(),
  ...common,
});

export const trialOutcomeSchema = z.discriminatedUnion('family', [
  ccbOutcomeSchema,
  puzzleOutcomeSchema,
  countOutcomeSchema,
]);

export type CcbOutcome = z.infer<typeof ccbOutcomeSchema>;
export type PuzzleOutcome = z.infer<typeof puzzleOutcomeSchema>;
export type CountOutcome = z.infer<typeof countOutcomeSchema>;
export type TrialOutcome = z.infer<typeof trialOutcomeSchema>;
export type OutcomeFamily = TrialOutcome['family'];

const isMissingDataKind = (kind: string): kind is MissingDataKind =>
  (MISSING_DATA_KINDS as readonly string[]).includes(kind);

/** Transport/provider fault or a trial the budget never sent: missing data, out of accuracy, p_d and CC. */
export const isMissing = (o: TrialOutcome): boolean => isMissingDataKind(o.kind);

/**
 * Which trials are data, as a rule with a name (docs/spec/ccb.md §6.2):
 * - 'paper': besides API faults, the kinds an outcome record marks as set aside (CCB Format and Truncation)
 *   are missing data, as paper 000 §3 says;
 * - 'release': every trial but an API fault counts (how the released code computed the published p_d).
 */
export const MISSING_RULES = ['paper', 'release'] as const;
export type MissingRule = (typeof MISSING_RULES)[number];

interface OutcomeRecordDeclaration<K extends string> {
  /** Every kind, in report order; the missing-data kinds (`api`, `budget`) last. */
  kinds: readonly K[];
  /** The one kind that is a success (CCB correct answer, puzzle pass, exact count). */
  success: K;
  /** Kinds the 'paper' missing-data rule sets aside as missing. */
  setAside: readonly K[];
  /** The outcome of a missing-data kind: `api` (no response) or `budget` (never sent). */
  missing(kind: MissingDataKind, reason: string, expectedAnswer: unknown): TrialOutcome;
}

// the reason is a provider's or the harness's message: an error body can be a whole HTML page
const missingBase = (kind: MissingDataKind, reason: string) => ({
  kind,
  kStar: -1,
  tfbc: false,
  issues: [bounded(reason, ISSUE_MAX)],
});

/**
 * The three outcome records, declared once: every question the harness asks of an outcome (its kinds, is it a
 * success, is it missing under a rule, what is its `api` form) is answered by a lookup here, never a switch.
 */
export const OUTCOME_RECORDS: {
  readonly [F in OutcomeFamily]: OutcomeRecordDeclaration<Extract<TrialOutcome, { family: F }>['kind']>;
} = {
  ccb: {
    kinds: CCB_OUTCOME_KINDS,
    success: 'correct',
    setAside: ['format', 'truncation'],
    missing: (kind, reason) => ({ family: 'ccb', answerCorrect: false, ...missingBase(kind, reason) }),
  },
  puzzle: {
    kinds: PUZZLE_OUTCOME_KINDS,
    success: 'pass',
    setAside: [],
    missing: (kind, reason) => ({ family: 'puzzle', ...missingBase(kind, reason) }),
  },
  count: {
    kinds: COUNT_OUTCOME_KINDS,
    success: 'exact',
    setAside: [],
    missing: (kind, reason, expected) => ({
      family: 'count',
      expected: Number(expected),
      parsed: null,
      relativeError: null,
      format: kind,
      ...missingBase(kind, reason),
    }),
  },
};

export const OUTCOME_FAMILIES = Object.keys(OUTCOME_RECORDS) as [OutcomeFamily, ...OutcomeFamily[]];

/** The kinds of one outcome record, as plain strings (cell tallies are keyed by them). */
export const outcomeKinds = (family: OutcomeFamily): readonly string[] => OUTCOME_RECORDS[family].kinds;

/** The family's notion of success: CCB correct answer, puzzle pass, exact count. */
export const isSuccess = (o: TrialOutcome): boolean => OUTCOME_RECORDS[o.family].success === o.kind;

/** Whether a trial of this kind is missing data under the rule (API always; set-aside kinds under 'paper'). */
export function isMissingKind(family: OutcomeFamily, kind: string, rule: MissingRule): boolean {
  if (isMissingDataKind(kind)) return true;
  return rule === 'paper' && (OUTCOME_RECORDS[family].setAside as readonly string[]).includes(kind);
}

/** Whether the 'paper' rule sets this outcome aside as missing (it is an answer: neither `api` nor `budget`). */
export const isSetAside = (o: TrialOutcome): boolean =>
  !isMissingDataKind(o.kind) && isMissingKind(o.family, o.kind, 'paper');

/** A trial as a denominator sees it: success, counted failure, or missing data (null). */
export const countedSuccess = (o: TrialOutcome, rule: MissingRule): boolean | null =>
  isMissingKind(o.family, o.kind, rule) ? null : isSuccess(o);

/** The `api` outcome of a plugin's record, for a trial whose request never produced a response. */
export const apiOutcome = (family: OutcomeFamily, reason: string, expectedAnswer?: unknown): TrialOutcome =>
  OUTCOME_RECORDS[family].missing('api', reason, expectedAnswer);

/** The `budget` outcome: the trial was never sent (spending limit reached, or the run interrupted). */
export const budgetOutcome = (family: OutcomeFamily, reason: string, expectedAnswer?: unknown): TrialOutcome =>
  OUTCOME_RECORDS[family].missing('budget', reason, expectedAnswer);
