import { z } from 'zod';
import { sccResultSchema } from '../../src/assays/scc/schema.js';
import { agentAssaySchema, dualTaskSchema, motifAblationSchema } from '../../src/assays/scc-secondary/schema.js';
import { configSchema } from '../../src/config/schema.js';
import { baselineSchema } from '../../src/schema/baseline.js';
import { reportSchema } from '../../src/schema/report.js';
import { keyOrder } from './key-order.js';

/**
 * The records whose key order is output byte order (parse → JSON.stringify), by golden file name. Cache entries
 * (src/subjects/cache) reuse the trial record's fragments, whose order the report's golden covers.
 */
export const ORDERED_SCHEMAS: Readonly<Record<string, z.ZodType>> = {
  report: reportSchema,
  baseline: baselineSchema,
  config: configSchema,
  sccResult: sccResultSchema,
  motifAblation: motifAblationSchema,
  dualTask: dualTaskSchema,
  agentAssay: agentAssaySchema,
};

/**
 * The files of test/schema/golden/, exactly as write-goldens.ts writes them: the key order of each record,
 * and ceilingbench.schema.json as the reporter writes it (reporters/projections/write.ts).
 */
export function goldenFiles(): Record<string, string> {
  const files: Record<string, string> = {};
  for (const [name, schema] of Object.entries(ORDERED_SCHEMAS))
    files[`${name}.keys.json`] = `${JSON.stringify(keyOrder(schema), null, 2)}\n`;
  files['ceilingbench.schema.json'] =
    `${JSON.stringify(z.toJSONSchema(reportSchema, { unrepresentable: 'any' }), null, 2)}\n`;
  return files;
}
