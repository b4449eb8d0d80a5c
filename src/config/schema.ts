import { z } from 'zod';
import { DEFAULT_EXAMPLES, exampleLimitSchema } from '../schema/example.js';
import { GATE_EVIDENCE, GATE_MODES } from '../schema/gate.js';
import { SERVED_MODEL_RULES } from '../schema/provenance.js';
import { pricesSchema, spendLimitsSchema } from '../schema/spend.js';
import { type DefinedSubject, isDefinedSubject } from '../subjects/function/define.js';
import { MISSING_RULES } from '../tasks/outcome.js';
import type { ReasoningDelimiter } from '../tasks/reasoning-channels.js';
import { READING_PROFILES } from '../tasks/task.js';
import { checkGateRanges, checkGateTests } from './gate-ranges.js';

export { GATE_EVIDENCE, type GateEvidence } from '../schema/gate.js';

/** A threshold: a bare number is a hard gate; the object form can make it advisory. */
export const gateValueSchema = z.union([
  z.number(),
  z
    .object({
      value: z.number(),
      mode: z.enum(GATE_MODES).default('hard'),
      /**
       * For retention: compare the point estimate (default) or the CI lower bound (neither states an error rate),
       * or 'test' (minRetention, minHorizon, maxTfbcRate): the likelihood-ratio test with false-alarm rate `alpha`
       * and power stated at `margin` (collapseNoEarlierThan and minCountingCapacity have none: refused).
       */
      evidence: z.enum(GATE_EVIDENCE).default('point'),
      /** evidence 'test': the false-alarm rate (failing a model that meets the threshold; default 0.05). */
      alpha: z.number().gt(0).lt(1).optional(),
      /** evidence 'test': the smallest shortfall it must catch, in the gate's unit (p_d, or the TFBC rate; default 0.02). */
      margin: z.number().gt(0).lt(1).optional(),
    })
    .strict(),
]);
export type GateValue = z.infer<typeof gateValueSchema>;

/** The default non-inferiority margin of a notWorseThan gate, in p_d. */
export const NOT_WORSE_MARGIN = 0.01;

/** A baseline subject spec (a hard gate), or the object form with its own margin, mode and family α. */
export const notWorseThanSchema = z.union([
  z.string().min(1),
  z
    .object({
      subject: z.string().min(1),
      margin: z.number().nonnegative().finite().optional(),
      mode: z.enum(GATE_MODES).default('hard'),
      /** One-sided level of the upper confidence bound of Δp_d (default 0.05). */
      alpha: z.number().gt(0).lt(1).default(0.05),
    })
    .strict(),
]);
export type NotWorseThanGate = z.infer<typeof notWorseThanSchema>;

export const projectGatesSchema = z
  .object({
    /** p_d of every retention fit in the project must be at least this. */
    minRetention: gateValueSchema.optional(),
    /** H_0.5 (steps at 50% success) must be at least this. */
    minHorizon: gateValueSchema.optional(),
    /** TFBC / correct must be at most this. */
    maxTfbcRate: gateValueSchema.optional(),
    /** SCC counting capacity must be at least this. */
    minCountingCapacity: gateValueSchema.optional(),
    /** λ* (level index) must be at least this, for puzzle level sweeps. */
    collapseNoEarlierThan: gateValueSchema.optional(),
    /**
     * Every other subject of the run must be not worse than this one (a subject spec) in p_d by more than
     * `margin`, by the leaderboard's paired test (src/leaderboard notWorseThan); decided when the report is built.
     */
    notWorseThan: notWorseThanSchema.optional(),
    /** The non-inferiority margin of `notWorseThan` in p_d (default 0.01). */
    margin: z.number().nonnegative().finite().optional(),
    /**
     * How the model that served (`response.model`) must match the one asked for (src/schema/provenance.ts):
     * 'exact', 'prefix' or 'any'. A hard gate; absent, a project with another hard gate checks 'prefix'.
     */
    servedModel: z.enum(SERVED_MODEL_RULES).optional(),
  })
  .strict()
  .superRefine(checkGateRanges)
  .superRefine(checkGateTests)
  .refine((g) => g.margin === undefined || g.notWorseThan !== undefined, {
    message: 'margin applies to notWorseThan: give notWorseThan too',
    path: ['margin'],
  })
  .refine((g) => g.margin === undefined || typeof g.notWorseThan !== 'object' || g.notWorseThan.margin === undefined, {
    message: 'margin is given twice (beside notWorseThan and inside it): give it once',
    path: ['margin'],
  });
export type ProjectGates = z.infer<typeof projectGatesSchema>;
/** The gates a finished fit decides alone, against a threshold (in the worker: src/vitest/gates.ts). */
export type ThresholdGateName = Exclude<keyof ProjectGates, 'notWorseThan' | 'margin' | 'servedModel'>;
/**
 * The keys of a project's gates that are not threshold gates (decided across subjects, their settings, or the
 * served-model check decided when the report is built: src/gates/served-model.ts).
 */
export const CROSS_SUBJECT_GATE_KEYS: readonly string[] = ['notWorseThan', 'margin', 'servedModel'];

/**
 * Gates per Vitest project name — the standard projects (d1, d2, d3, scc, puzzles) or the user's own. A key
 * that names no project of a run is reported by the reporter (a gate is never silently ignored).
 */
export const gatesSchema = z.record(z.string().min(1), projectGatesSchema);

/**
 * A reasoning block of an unusual chat template, from `open` to `close` (literal text, any case), set aside before
 * grading like the built-in ones (src/tasks/reasoning-channels.ts, docs/outputs.md).
 */
export const reasoningDelimiterSchema = z
  .object({
    open: z.string().refine((s) => s.trim() !== '', 'a delimiter must not be blank'),
    close: z.string().refine((s) => s.trim() !== '', 'a delimiter must not be blank'),
  })
  .strict()
  .refine((d) => d.open.toLowerCase() !== d.close.toLowerCase(), {
    message: 'open and close must differ (a block needs a distinct end)',
    path: ['close'],
  }) satisfies z.ZodType<ReasoningDelimiter>;

/**
 * A subject of the file: a spec string, or a `defineSubject` subject, which cannot cross to the workers: it is named
 * `function:<id>`, and each process that needs it finds it by that id in this file's `subject`/`subjects`.
 */
const subjectEntry = z
  .custom<string | DefinedSubject>(() => true)
  .transform((value, ctx) => {
    if (typeof value === 'string' && value.trim() !== '') return value.trim();
    if (isDefinedSubject(value)) return `function:${value.id}`;
    ctx.addIssue({
      code: 'custom',
      message: 'not a subject spec (e.g. openai:gpt-4o-mini) or a defineSubject() subject',
    });
    return z.NEVER;
  });

export const configSchema = z
  .object({
    /**
     * Who answers: sim:<profile>[?k=v], oracle, openai:<model>, replay:<path>[#model], module:<path>[#export], or a
     * `defineSubject` subject itself (it becomes `function:<id>`: the workers find it here by its id).
     */
    subject: subjectEntry.default('sim:default'),
    /**
     * Several subjects in one run, each answering the same instances (see README: Several subjects). Give either
     * this or `subject`, not both. After loading, `subjects` is always the run's list and `subject` its first.
     */
    subjects: z.array(subjectEntry).min(1).optional(),
    /** Run seed: 0 reproduces the released CCB instances; it also seeds the sim subject and bootstraps. */
    seed: z.number().int().nonnegative().default(0),
    /** Trials per cell (the papers: 40). */
    trials: z.number().int().positive().default(40),
    /** Trials in flight per cell. */
    concurrency: z.number().int().positive().default(8),
    /** Where reports are written. */
    out: z.string().min(1).default('reports'),
    /**
     * Whether the run also writes index.html and charts.vl.json (drawing the charts loads Vega: about half a second
     * of CPU a run). false keeps the JSON, JUnit and Markdown reports only, for a job that reads no page.
     */
    html: z.boolean().default(true),
    /** Which trials count toward p_d (see docs): 'paper' or 'release'. */
    missing: z.enum(MISSING_RULES).default('paper'),
    /**
     * How answers are read (docs/outputs.md, "Two reading profiles"): 'final', the symmetric rule (whether a trial
     * counts is decided from its form, blind to correctness), or 'authors', a paper's own precedence, for a
     * reproduction of its published tables. Each cell records the profile it was graded with.
     */
    reading: z.enum(READING_PROFILES).default('final'),
    /**
     * A cell with more than this fraction of its trials set aside under `missing` (api and budget; under 'paper' also
     * Format and Truncation) is 'insufficient': it fails, and no fit or gate over it passes.
     */
    maxMissingFraction: z.number().min(0).max(1).default(0.2),
    gates: gatesSchema.default({}),
    /**
     * Example trials each cell keeps with what the model wrote (its answer, reasoning, trace beside the canonical
     * one), per outcome kind, failing kinds first: a number (0 = none) or 'all'. Shown by index.html and
     * `ceilingbench show`.
     */
    examples: exampleLimitSchema.default(DEFAULT_EXAMPLES),
    /** USD per million tokens, per subject or model (see `priceSchema`); none: reports give tokens only. */
    prices: pricesSchema.default({}),
    /** Hard limits on what one run may spend (CLI --max-cost/--max-tokens/--max-calls override them). */
    limits: spendLimitsSchema.default({}),
    /**
     * Batch mode (`ceilingbench run --batch`, CEILINGBENCH_BATCH=true): the openai subjects' trials go through the
     * provider's batch API at its batch price, and the run grades them from the response cache (docs/providers.md,
     * "Batch mode"). `size`: requests per batch (at most the provider's 50 000); `pollSeconds`: between polls;
     * `waitMinutes`: how long a run waits for its batches (default: until they end; 0: submit and go on).
     */
    batch: z
      .union([
        z.boolean(),
        z
          .object({
            size: z.number().int().positive().max(50_000).optional(),
            pollSeconds: z.number().nonnegative().optional(),
            waitMinutes: z.number().nonnegative().optional(),
          })
          .strict(),
      ])
      .default(false),
    /** Reasoning delimiters beside the built-in ones (CEILINGBENCH_REASONING_TAGS adds more). */
    reasoningDelimiters: z.array(reasoningDelimiterSchema).default([]),
  })
  .strict();

export type CeilingbenchConfig = z.infer<typeof configSchema>;
export type CeilingbenchUserConfig = z.input<typeof configSchema>;

export type { Price, Prices, SpendLimits } from '../schema/spend.js';
