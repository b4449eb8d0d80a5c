/**
 * The Vitest side of ceilingbench (`ceilingbench/vitest`): sweeps, ablations, the SCC assay tests and the
 * matchers. Importing this module registers the matchers on Vitest's `expect` and brings their types.
 *
 * Every name is listed here on purpose (test/package/public-surface.test.ts pins the list).
 */
import './register-matchers.js';

// the threshold checks behind the matchers and the gates
export {
  /** @public What a threshold check found: pass and a one-line message. */
  type CheckResult,
  /** @public The part of an SCC result a CC check reads. */
  type CountingCapacity,
  /** @public λ* is at least a level. */
  checkCollapseNoEarlierThan,
  /** @public CC is at least n. */
  checkCountingCapacityAtLeast,
  /** @public The horizon at a success rate is at least a number of steps. */
  checkHorizonAtLeast,
  /** @public p_d (or its lower bound) is at least a value. */
  checkRetentionAtLeast,
  /** @public The TFBC rate is at most a value. */
  checkTfbcRateAtMost,
} from '../gates/checks.js';
export {
  /** @public The configured threshold gates of a project, evaluated on its records. */
  evaluateGates,
} from '../gates/threshold.js';
export {
  /** @public The test name of a cell. */
  cellName,
  /** @public The names of the standard benchmark projects. */
  standardProjects,
} from '../tasks/project-names.js';
export {
  /** @public The subject, configuration and seed of the current test. */
  type RunContext,
  /** @public The run's resolved configuration, inside a benchmark test. */
  runConfig,
  /** @public The current test's subject, configuration and seed. */
  runContext,
} from './context.js';
export {
  /** @public The matchers, for `expect.extend` by hand. */
  ceilingbenchMatchers,
  /** @public Registers the matchers on Vitest's `expect` (done on import). */
  installMatchers,
} from './matchers.js';
export type {
  /** @public What a benchmark test leaves on `task.meta.ceilingbench`. */
  CeilingbenchMeta,
  /** @public One record of a benchmark test (cell, fit, ablation, SCC). */
  CeilingbenchRecord,
  /** @public The record of a secondary SCC assay test. */
  SccAssayMetaRecord,
  /** @public The record of an SCC ladder test. */
  SccMetaRecord,
} from './meta.js';
export {
  /** @public The SCC agent-operation assay as a test. */
  testAgentOperation,
  /** @public The SCC counting-capacity ladder as a test. */
  testCountingCapacity,
  /** @public The SCC dual-task assay as a test. */
  testDualTask,
  /** @public The SCC motif ablation as a test. */
  testMotifAblation,
} from './scc.js';
export {
  /** @public Options of `describeAblation`. */
  type AblationOptions,
  /** @public A prompt-variant ablation of a task as a suite. */
  describeAblation,
  /** @public A task's level sweep as a suite: one test per cell, then the fit. */
  describeSweep,
  /** @public Options of `describeSweep`. */
  type SweepOptions,
} from './sweep.js';
