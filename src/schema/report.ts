import { z } from 'zod';
import { ASSAY_NAMES, ASSAY_RESULTS, type SccAssayName } from './assay-results.js';
import { billedTokensSchema, cellResultSchema } from './cell.js';
import { cellKey, count, recordKey } from './common.js';
import { ablationSchema, collapseFitSchema, retentionFitSchema } from './fit.js';
import { gateResultSchema } from './gate.js';
import { leaderboardSchema } from './leaderboard.js';
import { manifestSchema } from './manifest.js';
import { provenanceSchema } from './provenance.js';
import { sccStopSchema } from './scc-stop.js';
import { priceSchema, spendLimitReportSchema } from './spend.js';
import { subjectIdentitySchema } from './subject.js';

/** The fields every SCC record (ladder or secondary assay) repeats: who answered it. */
const answeredBy = {
  /** The subject spec that answered (present when the report holds several subjects). */
  subject: z.string().optional(),
};

/** An SCC counting-capacity ladder: the headline numbers, and the full result (./assay-results.ts). */
export const sccRecordSchema = z.object({
  ...recordKey('scc'),
  ...answeredBy,
  cc: z.number(),
  ccLower: z.number(),
  ccUpper: z.number().nullable(),
  bounded: z.boolean(),
  skipped: z.boolean().optional(),
  /** Present when the spend ledger stopped the ladder: cc is then a lower bound only, and nothing judges it. */
  stopped: sccStopSchema.optional(),
  result: ASSAY_RESULTS.scc,
});
export type SccRecord = z.infer<typeof sccRecordSchema>;

/** An SCC record's headline numbers without its result: what a leaderboard ranks, and a baseline keeps of it. */
export const sccHeadlineSchema = sccRecordSchema.omit({ result: true });
export type SccHeadline = z.infer<typeof sccHeadlineSchema>;

/** A secondary assay's record: its name, headline numbers for tables and JUnit properties, and its result. */
const secondaryRecord = <const A extends SccAssayName>(assay: A) =>
  z.object({
    kind: z.literal('sccAssay'),
    assay: z.literal(assay),
    project: z.string(),
    task: z.string(),
    ...answeredBy,
    /** Headline numbers for tables and JUnit properties. */
    summary: z.record(z.string(), z.union([z.number(), z.string(), z.null()])),
    result: ASSAY_RESULTS[assay],
  });

/** A secondary SCC assay (paper 003 Supplementary Notes 7–9): one union keyed by `assay`, each with its result. */
export const sccAssayRecordSchema = z.discriminatedUnion('assay', [
  secondaryRecord('motif'),
  secondaryRecord('dual-task'),
  secondaryRecord('agent'),
]);
export type SccAssayRecord = z.infer<typeof sccAssayRecordSchema>;

/** A test that failed or errored without leaving a ceilingbench record (e.g. a crash in a spec). */
export const plainTestSchema = z.object({
  project: z.string(),
  name: z.string(),
  file: z.string(),
  state: z.enum(['passed', 'failed', 'skipped', 'pending']),
  errors: z.array(z.string()),
});
export type PlainTest = z.infer<typeof plainTestSchema>;

/**
 * What a set of trials cost. `calls`: requests sent, retries included. `paid`: the trials for which requests were
 * sent in this run, their tokens as billed and their cost; `fromCache`: the trials answered from ceilingbench's
 * response cache (no request, cost 0 in this run), their tokens and what they would have cost (`savedUsd`).
 * A cost is the provider's own figure when it reported one (OpenRouter), else the tokens at the price table's
 * price; null when neither is known — never an invented figure. `unknownUsage`: answered trials whose provider
 * reported no usage (their tokens and cost are in no sum), and assay trials of a record written before
 * ceilingbench kept their usage (their cost is null, their final call's tokens are in `assays`).
 *
 * An assay trial (SCC, secondary assays) counts every call it made: SCC's budget rule re-asks at a doubled output
 * budget while an answer is cut, and each call is billed. Its calls sent in this run are one paid trial, those
 * answered from the response cache one trial from the cache (a trial whose chain mixed both counts in both).
 */
export const spendTotalsSchema = z.object({
  calls: count,
  paid: z.object({ trials: count, ...billedTokensSchema.shape, costUsd: z.number().nonnegative().nullable() }),
  fromCache: z.object({ trials: count, ...billedTokensSchema.shape, savedUsd: z.number().nonnegative().nullable() }),
  unknownUsage: count,
  /**
   * Of `paid`: tokens billed by responses that brought no answer (a 200 with empty `choices`, `finish_reason:
   * "error"`), in failed trials and in the failed attempts of answered ones; `trials` counts the trials that had
   * any. Present only when there were some (absent in reports written before ceilingbench counted them).
   */
  billedNoAnswer: z
    .object({ trials: count, ...billedTokensSchema.shape, costUsd: z.number().nonnegative().nullable() })
    .optional(),
});
export type SpendTotals = z.infer<typeof spendTotalsSchema>;

/**
 * What SCC records (or secondary assays') keep of their usage besides what the accounts price: the trials they
 * issued and, per trial, the final call's reported tokens (as the authors' logs do; null: the record keeps no
 * token count, motif rows). Shown, not summed: the priced figures are in the totals beside it.
 */
export const assayUsageSchema = z.object({
  /** Records (SCC runs, secondary assays) summed here. */
  records: count,
  /** Trials issued (an SCC record's `calls`); each is one call, more when its budget was doubled. */
  trials: count,
  finalCallPromptTokens: count.nullable(),
  finalCallCompletionTokens: count.nullable(),
  /** Trials of records written before their usage was kept: counted in `unknownUsage`, their cost unknown. */
  unrecordedTrials: count.optional(),
});
export type AssayUsage = z.infer<typeof assayUsageSchema>;

/**
 * ceilingbench.json `spend`: calls, tokens and USD per subject, project, cell and assay record, paid vs from the
 * cache. `total` (= the sum of `subjects`, = the sum of `projects`) covers everything the run sent: the cells'
 * trials and every call of the SCC and secondary-assay trials, budget doublings included.
 */
export const spendSchema = z.object({
  currency: z.literal('USD'),
  /** Every cost is known (a price for each subject, or the provider's own cost on every trial). */
  priced: z.boolean(),
  total: spendTotalsSchema.extend({ assays: assayUsageSchema.optional() }),
  subjects: z.array(
    z.object({
      subject: z.string(),
      /** The price table's entry the cells and assays were priced at (null: none). */
      price: priceSchema.nullable(),
      ...spendTotalsSchema.shape,
    }),
  ),
  projects: z.array(z.object({ project: z.string(), ...spendTotalsSchema.shape, assays: assayUsageSchema.optional() })),
  cells: z.array(
    z.object({
      ...cellKey,
      subject: z.string(),
      ...spendTotalsSchema.shape,
    }),
  ),
  /** Per SCC or secondary-assay record; the priced totals are absent in a report written before they were kept. */
  assays: z.array(
    z.object({
      project: z.string(),
      task: z.string(),
      assay: z.enum(ASSAY_NAMES),
      subject: z.string(),
      ...assayUsageSchema.omit({ records: true }).shape,
      ...spendTotalsSchema.partial().shape,
    }),
  ),
  /** The run's spending limit, when it had one: what was spent against it, what stopped the run. */
  limit: spendLimitReportSchema.optional(),
});
export type Spend = z.infer<typeof spendSchema>;

/** ceilingbench.json — the source of truth every other artifact is projected from. */
/** A run's coverage: declared projects, those that ran, and how the run was narrowed (filters, shards). */
export const runScopeSchema = z.object({
  /** Every benchmark project of the configuration, selected or not. */
  declared: z.array(z.string()),
  /** The projects that ran a test module. */
  ran: z.array(z.string()),
  /** Declared projects that did not run. */
  notRun: z.array(z.string()),
  /** How the run was narrowed: `--project d1`, `-t canonical`, file filters, `--shard 1/3`; null: not narrowed. */
  filters: z.string().nullable(),
  /**
   * The run's retry count (`--retry`, `retry` in the configuration) that its measuring tests (cells, fits, adaptive
   * designs, SCC ladders and assays) refused: each was measured once and its failure stands (docs/ci.md). Absent:
   * no retry was asked for.
   */
  retryRefused: z.number().int().positive().optional(),
  /** A merge of shard blobs: the shard count and the shards it holds and lacks. */
  shards: z
    .object({
      count: z.number().int().positive(),
      merged: z.array(z.number().int()),
      missing: z.array(z.number().int()),
    })
    .optional(),
});
export type RunScope = z.infer<typeof runScopeSchema>;

/** A run's state: `running` until its report set is written, then `finished` or `interrupted` (Ctrl-C, SIGTERM). */
export const RUN_STATES = ['running', 'finished', 'interrupted'] as const;

/**
 * The run that wrote a report: its id (its start time and process: run-dependent, like `timing`), its state, and
 * for an interrupted run the trials the interruption cut (outcome `budget`, `interrupted` on the trial: started and
 * aborted, or never started). The report set's manifest (ceilingbench.set.json) carries the same id and state.
 */
export const runBlockSchema = z.object({
  id: z.string(),
  startedAt: z.string(),
  state: z.enum(RUN_STATES),
  cut: z.object({ inFlight: count, notSent: count }).optional(),
});
export type RunBlock = z.infer<typeof runBlockSchema>;

/** The run block of a report over `cells`: the trials cut are counted from the trials' `interrupted` marks. */
export function runBlockOf(
  run: { id: string; startedAt: string },
  state: RunBlock['state'],
  cells: ReadonlyArray<{ trials: ReadonlyArray<{ interrupted?: 'in-flight' | 'not-sent' }> }>,
): RunBlock {
  let inFlight = 0;
  let notSent = 0;
  for (const cell of cells)
    for (const trial of cell.trials) {
      if (trial.interrupted === 'in-flight') inFlight += 1;
      else if (trial.interrupted === 'not-sent') notSent += 1;
    }
  return {
    ...run,
    state,
    ...(state === 'interrupted' || inFlight + notSent > 0 ? { cut: { inFlight, notSent } } : {}),
  };
}

export const reportSchema = z.object({
  schemaVersion: z.literal(1),
  tool: z.object({ name: z.literal('ceilingbench'), version: z.string() }),
  seed: z.number().int().nullable(),
  subjects: z.array(subjectIdentitySchema),
  /**
   * What produced the numbers: subjects (requested and served models, endpoint host), settings and versions
   * (src/schema/provenance.ts). Absent in reports written before it was kept.
   */
  provenance: provenanceSchema.optional(),
  git: z.object({ sha: z.string().nullable() }),
  projects: z.array(z.string()),
  cells: z.array(cellResultSchema),
  fits: z.array(retentionFitSchema),
  collapse: z.array(collapseFitSchema),
  ablations: z.array(ablationSchema),
  scc: z.array(sccRecordSchema),
  sccAssays: z.array(sccAssayRecordSchema),
  gates: z.array(gateResultSchema),
  tests: z.array(plainTestSchema),
  /**
   * What the configuration declares and what this run covered (absent in reports written before it was kept):
   * the projects a gate may name, the ones that ran, how the run was narrowed, and the shards a merge holds.
   */
  scope: runScopeSchema.optional(),
  /**
   * The evidence manifest: each record a configured hard gate needed (derived before the run from the configuration
   * and the declared spec files) and what it got. Absent when no hard gate is configured, and in older reports.
   */
  manifest: manifestSchema.optional(),
  summary: z.object({
    cells: z.number().int(),
    trials: z.number().int(),
    missing: z.number().int(),
    missingRate: z.number().nullable(),
    insufficientCells: z.number().int(),
    hardGatesFailed: z.number().int(),
    testsFailed: z.number().int(),
  }),
  /** Absent in a report written before ceilingbench kept accounts. */
  spend: spendSchema.optional(),
  /** The subjects ranked per project, with which ranks the paired tests separate: present with ≥ 2 subjects. */
  leaderboard: leaderboardSchema.optional(),
  /** Wall-clock fields live here only; everything else is a function of the seed and the subject. */
  timing: z.object({ startedAt: z.string(), finishedAt: z.string(), durationMs: z.number() }),
  /**
   * The run that wrote it and its state (run-dependent, like `timing`). Absent in a report written before it was
   * kept, and in one built by a merge or `report` that did not run the trials.
   */
  run: runBlockSchema.optional(),
});
export type Report = z.infer<typeof reportSchema>;
