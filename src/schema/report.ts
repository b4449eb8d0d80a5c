import { z } from 'zod';
import { cellResultSchema } from './cell.js';
import { recordKey } from './common.js';
import { ablationSchema, collapseFitSchema, retentionFitSchema } from './fit.js';
import { gateResultSchema } from './gate.js';
import { subjectIdentitySchema } from './subject.js';

/** An SCC counting-capacity assay: the headline numbers, and the full result (src/assays/scc: sccResultSchema). */
export const sccRecordSchema = z.object({
  ...recordKey('scc'),
  cc: z.number(),
  ccLower: z.number(),
  ccUpper: z.number().nullable(),
  bounded: z.boolean(),
  skipped: z.boolean().optional(),
  /** The full assay result (see src/assays/scc: sccResultSchema). */
  result: z.unknown(),
});
export type SccRecord = z.infer<typeof sccRecordSchema>;

/** The secondary SCC assays (paper 003 Supplementary Notes 7–9). */
export const SCC_ASSAYS = ['motif', 'dual-task', 'agent'] as const;
export type SccAssayName = (typeof SCC_ASSAYS)[number];

/** A secondary SCC assay: its own result shape, validated by its module (src/assays/scc-secondary/schema.ts). */
export const sccAssayRecordSchema = z.object({
  kind: z.literal('sccAssay'),
  assay: z.enum(SCC_ASSAYS),
  project: z.string(),
  task: z.string(),
  /** Headline numbers for tables and JUnit properties. */
  summary: z.record(z.string(), z.union([z.number(), z.string(), z.null()])),
  result: z.unknown(),
});
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

/** ceilingbench.json — the source of truth every other artifact is projected from. */
export const reportSchema = z.object({
  schemaVersion: z.literal(1),
  tool: z.object({ name: z.literal('ceilingbench'), version: z.string() }),
  seed: z.number().int().nullable(),
  subjects: z.array(subjectIdentitySchema),
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
  summary: z.object({
    cells: z.number().int(),
    trials: z.number().int(),
    missing: z.number().int(),
    missingRate: z.number().nullable(),
    insufficientCells: z.number().int(),
    hardGatesFailed: z.number().int(),
    testsFailed: z.number().int(),
  }),
  /** Wall-clock fields live here only; everything else is a function of the seed and the subject. */
  timing: z.object({ startedAt: z.string(), finishedAt: z.string(), durationMs: z.number() }),
});
export type Report = z.infer<typeof reportSchema>;
