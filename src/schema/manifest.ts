import { z } from 'zod';
import { GATE_EVIDENCE, GATE_MODES } from './gate.js';

/** The kinds of record a threshold gate reads (src/gates/threshold.ts THRESHOLD_GATES). */
export const GATED_KINDS = ['retention', 'collapse', 'scc'] as const;
export type GatedKind = (typeof GATED_KINDS)[number];

/**
 * One record a configured hard gate needs, derived before any test runs from the configuration and the declared
 * spec files (src/gates/manifest.ts): a record of a standard grid (its task, variant, profile and levels known), or
 * every fit of one spec file of the user's folder (`file`, its records known once the file is collected).
 */
export const requirementSchema = z.object({
  /** The gate key as configured (`d2`, `d2@gpt-4o`, `benchmarks`) and the gate's name. */
  key: z.string(),
  gate: z.string(),
  mode: z.enum(GATE_MODES),
  threshold: z.number(),
  /** minRetention: whether it reads the point estimate or the CI's lower bound. */
  evidence: z.enum(GATE_EVIDENCE).optional(),
  /** The project the record names (`d2`, or `d2@<label>` with several subjects). */
  project: z.string(),
  /** Who must have answered: the subject spec, and the run seed. */
  subject: z.string(),
  seed: z.number().int(),
  fit: z.enum(GATED_KINDS),
  task: z.string().optional(),
  variant: z.string().optional(),
  profile: z.string().optional(),
  levels: z.array(z.number()).optional(),
  /** A spec file of the user's folder (relative to the project's folder): each fit it declares is needed. */
  file: z.string().optional(),
});
export type Requirement = z.infer<typeof requirementSchema>;

/**
 * What a fit test declares when it is collected (on its meta, before it runs): the record it will produce. A
 * skipped or filtered test still carries it, so the verdict can say which needed record a filter dropped.
 */
export const fitDeclarationSchema = z.object({
  task: z.string(),
  fit: z.enum(GATED_KINDS),
  variant: z.string().optional(),
  profile: z.string().optional(),
  /** The subject the spec file passed the sweep itself (`describeSweep(task, { subject })`): it answers the record. */
  subject: z.string().optional(),
});
export type FitDeclaration = z.infer<typeof fitDeclarationSchema>;

/** What a requirement got: present and passing, present and failing, or not evaluated (and why). */
export const requirementOutcomeSchema = requirementSchema.extend({
  got: z.enum(['passed', 'failed', 'not evaluated']),
  /** The record's estimate line, or what is missing and which filter or route dropped it. */
  detail: z.string(),
});
export type RequirementOutcome = z.infer<typeof requirementOutcomeSchema>;

/** ceilingbench.json's `manifest`: every record the configured hard gates needed, and what each got. */
export const manifestSchema = z.object({
  requirements: z.array(requirementOutcomeSchema),
});
export type Manifest = z.infer<typeof manifestSchema>;
