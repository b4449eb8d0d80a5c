import { z } from 'zod';
import { reportSchema, sccAssayRecordSchema, sccRecordSchema } from './report.js';
import { sccResultSchema } from './scc.js';
import { agentAssaySchema, dualTaskSchema, motifAblationSchema } from './scc-secondary.js';

/**
 * The assay results, each with its one schema: an SCC ladder's (./scc.ts) and each secondary assay's
 * (./scc-secondary.ts), keyed by the record that carries it. A report is read with `result` left open
 * (./report.ts), so that a report written by an older or newer assay still loads and renders the rest of its
 * page; what ceilingbench writes is described here in full, and published as ceilingbench.schema.json.
 */

/** An SCC ladder's record with its full result. */
export const sccResultRecordSchema = sccRecordSchema.extend({ result: sccResultSchema });

const secondaryBase = sccAssayRecordSchema.omit({ assay: true, result: true });

/** A secondary assay's record: one union keyed by `assay`, each with its own result. */
export const sccAssayResultRecordSchema = z.discriminatedUnion('assay', [
  secondaryBase.extend({ assay: z.literal('motif'), result: motifAblationSchema }),
  secondaryBase.extend({ assay: z.literal('dual-task'), result: dualTaskSchema }),
  secondaryBase.extend({ assay: z.literal('agent'), result: agentAssaySchema }),
]);

/** The report as ceilingbench writes it: every assay result described (the published JSON Schema). */
export const publishedReportSchema = reportSchema.extend({
  scc: z.array(sccResultRecordSchema),
  sccAssays: z.array(sccAssayResultRecordSchema),
});

export type SccResultRecord = z.infer<typeof sccResultRecordSchema>;
export type SccAssayResultRecord = z.infer<typeof sccAssayResultRecordSchema>;
