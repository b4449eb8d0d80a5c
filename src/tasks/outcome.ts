import { z } from 'zod';

/**
 * Trial outcomes. One discriminated union over three families; every variant carries
 * `kStar` (first divergent step, 1-based; −1 = no divergence or not applicable), `tfbc`
 * (right answer despite a divergent trace) and `issues` (human-readable reasons, in order).
 *
 * Invariant: `api` is missing data in every family — never a model failure, never in a denominator.
 */
export const CCB_OUTCOME_KINDS = ['correct', 'reasoning', 'constraint', 'format', 'truncation', 'api'] as const;
export const PUZZLE_OUTCOME_KINDS = ['pass', 'fail', 'collapse', 'api'] as const;
export const COUNT_OUTCOME_KINDS = ['exact', 'inexact', 'unparsed', 'api'] as const;

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

/** Transport or provider fault: missing data, excluded from accuracy, p_d and CC denominators. */
export const isMissing = (o: TrialOutcome): boolean => o.kind === 'api';

/** The family's notion of success: CCB correct answer, puzzle pass, exact count. */
export function isSuccess(o: TrialOutcome): boolean {
  switch (o.family) {
    case 'ccb':
      return o.kind === 'correct';
    case 'puzzle':
      return o.kind === 'pass';
    case 'count':
      return o.kind === 'exact';
  }
}

/** The `api` outcome of a family, for a trial whose request never produced a response. */
export function apiOutcome(family: 'ccb' | 'puzzle', reason: string): TrialOutcome;
export function apiOutcome(family: 'count', reason: string, expected: number): TrialOutcome;
export function apiOutcome(family: OutcomeFamily, reason: string, expected = 0): TrialOutcome {
  const base = { kind: 'api' as const, kStar: -1, tfbc: false, issues: [reason] };
  switch (family) {
    case 'ccb':
      return { family, answerCorrect: false, ...base };
    case 'puzzle':
      return { family, ...base };
    case 'count':
      return { family, expected, parsed: null, relativeError: null, format: 'api', ...base };
  }
}
