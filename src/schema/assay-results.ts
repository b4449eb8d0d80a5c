import { sccResultSchema } from './scc.js';
import { agentAssaySchema, dualTaskSchema, motifAblationSchema } from './scc-secondary.js';

/**
 * Every assay's result, keyed by the assay's name (the name the spend accounts give it: `assay`): an SCC ladder's
 * (./scc.ts; any task that declares a ladder: count, nested, …) and each secondary assay's (./scc-secondary.ts).
 * The report's records carry these (./report.ts), so a result is validated when a report is written and when it
 * is read (./read-report.ts), and ceilingbench.schema.json describes each.
 */
export const ASSAY_RESULTS = {
  scc: sccResultSchema.describe(
    "An SCC counting-capacity ladder's full result (any task that declares a ladder): its configuration, every " +
      'tier and trial, the capacity with its bounds, the attractors, the format audit and what the ladder spent.',
  ),
  motif: motifAblationSchema.describe(
    'The stimulus ablation (motif / delimiter): one SCC ladder per motif, each capacity relative to the baseline motif.',
  ),
  'dual-task': dualTaskSchema.describe(
    'Dual-task interference: counting accuracy and error per condition (a secondary task, a length-matched control ' +
      'or a second count) against the true count.',
  ),
  agent: agentAssaySchema.describe(
    'Agent operation: count / copy accuracy and agent-task success per condition and marker level, with thresholds.',
  ),
} as const;

/** The assays by name: the SCC ladder (`scc` records) and the secondary assays (`sccAssay` records). */
export type AssayName = keyof typeof ASSAY_RESULTS;
export const ASSAY_NAMES = Object.keys(ASSAY_RESULTS) as [AssayName, ...AssayName[]];

/** The secondary SCC assays (paper 003 Supplementary Notes 7–9): every assay but the ladder. */
export const SCC_ASSAYS = ['motif', 'dual-task', 'agent'] as const satisfies readonly Exclude<AssayName, 'scc'>[];
export type SccAssayName = (typeof SCC_ASSAYS)[number];
