import { z } from 'zod';
import { cellResultSchema } from './cell.js';
import { ablationSchema, collapseFitSchema, retentionFitSchema } from './fit.js';
import { gateResultSchema } from './gate.js';
import { sccAssayRecordSchema, sccRecordSchema } from './report.js';
import { subjectIdentitySchema } from './subject.js';

/** The record one test produces, by `kind`: the report sorts each kind into its own array. */
export const ceilingbenchRecordSchema = z.discriminatedUnion('kind', [
  cellResultSchema,
  retentionFitSchema,
  collapseFitSchema,
  ablationSchema,
  sccRecordSchema,
  sccAssayRecordSchema,
]);
export type CeilingbenchRecord = z.infer<typeof ceilingbenchRecordSchema>;

/**
 * What one test leaves for the reporter: it crosses from the Vitest worker to the reporter's process (on
 * task.meta, under the key `ceilingbench`: src/vitest/meta.ts), and reporters/projections/build.ts assembles the report from it.
 */
export const ceilingbenchMetaSchema = z.object({
  record: ceilingbenchRecordSchema,
  /** Cells produced inside one test (the adaptive design records all its depths on the fit test). */
  cells: z.array(cellResultSchema).optional(),
  gates: z.array(gateResultSchema),
  subject: subjectIdentitySchema,
  seed: z.number().int(),
});
export type CeilingbenchMeta = z.infer<typeof ceilingbenchMetaSchema>;
