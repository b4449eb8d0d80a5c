import { test } from 'vitest';
import { ladderTaskOf, runSccAssay, sccRecordOf } from '../assays/scc/index.js';
import {
  agentRecord,
  dualTaskRecord,
  motifRecord,
  runAgentAssay,
  runDualTaskAssay,
  runMotifAblation,
  secondaryStopText,
} from '../assays/scc-secondary/index.js';
import type { RunConfig } from '../config/resolve.js';
import { evaluateGates, gatesFor } from '../gates/index.js';
import type { FitDeclaration } from '../schema/manifest.js';
import { sccStopText } from '../schema/scc-stop.js';
import type { DefinedSubject } from '../subjects/function/define.js';
import type { Subject } from '../subjects/subject.js';
import { withSubject } from '../tasks/project-names.js';
import type { TaskId } from '../tasks/registry.js';
import {
  ownSubjectSpec,
  type ProjectSubject,
  projectSubjects,
  type RunContext,
  runContext,
  vitestProjectOf,
} from './context.js';
import { isRunCancel } from './interrupt-state.js';
import { type CeilingbenchRecord, declaring, notRetried, SUBJECT_META_KEY } from './meta.js';
import { recordProjectOf } from './names.js';
import { recordAndJudge } from './verdict.js';

interface AssayTestOptions {
  /** The test's name (default: the standard spec's). */
  name?: string;
  /** Added to the run seed (default: the authors' base seed of the assay). */
  seed?: number;
  /** Who answers instead of the run's subject: a `defineSubject` subject (see `SweepOptions.subject`). */
  subject?: DefinedSubject;
}

/**
 * `incomplete`: why the spend ledger kept the assay from finishing (its record is written, its test fails). `cut`:
 * what an assay that can stop where it stands calls, synchronously, when a cancelled run aborts it (its record is
 * then the test's).
 */
type Assay = (
  context: RunContext,
  signal: AbortSignal,
  seed: number,
  cut: (record: CeilingbenchRecord) => void,
) => Promise<{ record: CeilingbenchRecord; incomplete?: string }>;

/**
 * One Vitest test per subject of the project that runs an SCC assay on it and leaves its record (and gates) on meta.
 */
function assayTest(
  defaultName: { project: string; what: string },
  baseSeed: number,
  assay: Assay,
  options: AssayTestOptions,
  declares?: FitDeclaration,
): void {
  for (const of of projectSubjects()) subjectAssayTest(defaultName, baseSeed, assay, options, of, declares);
}

function subjectAssayTest(
  defaultName: { project: string; what: string },
  baseSeed: number,
  assay: Assay,
  options: AssayTestOptions,
  of: ProjectSubject | undefined,
  declares?: FitDeclaration,
): void {
  // with several subjects the name carries the subject: `scc@gpt-4o-mini · counting capacity`
  const label = of?.label;
  const ownName =
    options.name === undefined ? undefined : label === undefined ? options.name : `${options.name} · ${label}`;
  const name = ownName ?? `${withSubject(defaultName.project, label)} · ${defaultName.what}`;
  // with several subjects their assays run side by side, as their projects did
  const subjectOptions = {
    ...notRetried(),
    ...(label === undefined ? {} : { concurrent: true }),
    meta: {
      ...(label === undefined ? {} : { [SUBJECT_META_KEY]: label }),
      ...(declares ? declaring(declares).meta : {}),
    },
  };
  test(name, subjectOptions, async ({ task, signal }) => {
    const context = await runContext(options.subject, of);
    const { config, subject } = context;
    // a cancelled run (Ctrl-C, SIGTERM) ends this test at once: the assay as it stands is its record, no gate judged
    const cut = (stopped: CeilingbenchRecord) => {
      if (!isRunCancel(signal.reason)) return;
      const record = { ...stopped, project: recordProjectOf(task, stopped.project) };
      task.meta.ceilingbench = { record, gates: [], subject: subject.identity, seed: config.seed };
    };
    const assayed = await assay(context, signal, (options.seed ?? baseSeed) + config.seed, cut);
    // the record names the Vitest project it ran in (a user's own ladder is not the standard scc project's)
    const record = { ...assayed.record, project: recordProjectOf(task, assayed.record.project) };
    const incomplete = assayed.incomplete;
    const gateKey = vitestProjectOf(task, defaultName.project, of);
    const gates = record.kind === 'scc' ? evaluateGates(gateKey, record, gatesFor(config.gates, gateKey)) : [];
    // a ladder the spend ledger stopped fails its test once recorded, as a cell with trials not sent does
    recordAndJudge(task, { record, gates, subject: subject.identity, seed: config.seed }, incomplete);
  });
}

interface LadderTestOptions extends AssayTestOptions {
  /**
   * The registered task the ladder runs on: any plugin that declares a `ladder` (src/tasks/ladder.ts; register your
   * own with registerTask first). Default: SCC counting.
   */
  task?: TaskId;
}

/**
 * The SCC counting-capacity ladder (paper 003) of a task as one test, seeded with 7 + the run seed (the authors'
 * configs use seed 7 for the first model); the project's `minCountingCapacity` gate fails it. Named after the
 * task's project: `scc · counting capacity`.
 */
export function testCountingCapacity(options: LadderTestOptions = {}): void {
  const task = ladderTaskOf(options.task);
  assayTest(
    { project: task.project, what: 'counting capacity' },
    7,
    async ({ config, subject }, signal, seed, cut) => {
      const result = await runSccAssay(subject, {
        seed,
        signal,
        task,
        reasoningDelimiters: config.reasoningDelimiters,
        onCut: (stopped) => cut(sccRecordOf(stopped)),
      });
      return {
        record: sccRecordOf(result),
        ...(result.stopped ? { incomplete: `${task.id}: ${sccStopText(result.stopped)}` } : {}),
      };
    },
    options,
    { task: task.id, fit: 'scc', ...(options.subject ? { subject: ownSubjectSpec(options.subject) } : {}) },
  );
}

/**
 * A secondary SCC assay (paper Supplementary Notes): run with the test's seed, the run's concurrency and the
 * test's abort signal, plus the sizes it scales with the configured trials; its result becomes the record.
 */
function secondaryAssay<Result, Sizes>(
  run: (
    subject: Subject,
    options: { seed: number } & Sizes & { concurrency: number; signal: AbortSignal },
  ) => Promise<Result>,
  toRecord: (result: Result) => CeilingbenchRecord,
  sizes: (config: RunConfig) => Sizes,
  /** Why the spend ledger kept it from finishing; undefined when it finished. */
  incompleteOf: (result: Result) => string | undefined,
): Assay {
  return async ({ config, subject }, signal, seed) => {
    const result = await run(subject, { seed, ...sizes(config), concurrency: config.concurrency, signal });
    const incomplete = incompleteOf(result);
    return { record: toRecord(result), ...(incomplete ? { incomplete } : {}) };
  };
}

/** The three secondary assays as declarations: test name, assay seed, and the sizes scaled by the configured trials. */
const SECONDARY_ASSAYS = {
  motif: {
    name: 'motif ablation',
    seed: 7,
    assay: secondaryAssay(
      runMotifAblation,
      motifRecord,
      () => ({}),
      ({ stopped }) =>
        stopped && `motif ${stopped.motif}: ${sccStopText(stopped)}; ${stopped.notRun.length} motif(s) not run`,
    ),
  },
  dual: {
    name: 'dual-task interference',
    seed: 23,
    assay: secondaryAssay(
      runDualTaskAssay,
      dualTaskRecord,
      ({ trials }) => ({ samplesPerCount: Math.max(1, Math.round(trials / 40)) }),
      ({ stopped }) => stopped && `dual-task: ${secondaryStopText(stopped)}`,
    ),
  },
  agent: {
    name: 'agent operation',
    seed: 17,
    assay: secondaryAssay(
      runAgentAssay,
      agentRecord,
      ({ trials }) => ({ taskSamples: Math.min(6, Math.max(1, Math.round((6 * trials) / 40))) }),
      ({ stopped }) => stopped && `agent: ${secondaryStopText(stopped)}`,
    ),
  },
} as const;

const secondaryTest = (id: keyof typeof SECONDARY_ASSAYS, options: AssayTestOptions): void => {
  const { name, seed, assay } = SECONDARY_ASSAYS[id];
  assayTest({ project: 'scc', what: name }, seed, assay, options);
};

/** Stimulus ablation: the SCC ladder for each of the 11 motifs, CC relative to the baseline `a, `. */
export const testMotifAblation = (options: AssayTestOptions = {}): void => secondaryTest('motif', options);

/**
 * Dual-task interference: counts 32–96 with a secondary task; trials per count and condition scale with the
 * configured trials, round(trials / 40), at least 1 (the authors: 6).
 */
export const testDualTask = (options: AssayTestOptions = {}): void => secondaryTest('dual', options);

/**
 * Agent-operation assay: four conditions on the authors' jittered 50–1000 ladders; agent tasks scale with the
 * configured trials, round(6 · trials / 40) between 1 and 6 (the authors: 6).
 */
export const testAgentOperation = (options: AssayTestOptions = {}): void => secondaryTest('agent', options);
