/**
 * The Vitest side of ceilingbench (`ceilingbench/vitest`): sweeps, ablations, the SCC assay tests and the
 * matchers. Importing this module registers the matchers on Vitest's `expect` and brings their types.
 */
import { installMatchers } from './matchers.js';

installMatchers();

export type { RunConfig } from '../config/resolve.js';
// The threshold checks behind the matchers and the gates, all of them public.
export * from '../gates/checks.js';
export { evaluateGates } from '../gates/index.js';
export { cellName, standardProjects } from '../tasks/project-names.js';
export { type RunContext, runConfig, runContext } from './context.js';
export { ceilingbenchMatchers, installMatchers } from './matchers.js';
export type { CeilingbenchMeta, CeilingbenchRecord, SccAssayMetaRecord, SccMetaRecord } from './meta.js';
export { testAgentOperation, testCountingCapacity, testDualTask, testMotifAblation } from './scc.js';
export { type AblationOptions, describeAblation, describeSweep, type SweepOptions } from './sweep.js';
