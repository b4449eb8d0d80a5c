import { describe, test } from 'vitest';
import { runAdaptiveSweep, trialCostModel } from '../assays/adaptive/index.js';
import { runSequentialSweep, sequentialDesignPower } from '../assays/sequential/index.js';
import { SEQUENTIAL_DEFAULTS, type SweepDesign } from '../config/design.js';
import { evaluateGates, gatesFor, normalizeThreshold, VerdictError } from '../gates/index.js';
import type { CellResult } from '../schema/cell.js';
import type { RetentionFit } from '../schema/fit.js';
import { DEFAULT_GATE_ALPHA, DEFAULT_GATE_MARGIN } from '../schema/gate.js';
import { priceFor } from '../spend/price.js';
import type { DefinedSubject } from '../subjects/function/define.js';
import { tokenCounter } from '../subjects/openai/prompt-tokens.js';
import type { AnyTaskPlugin } from '../tasks/task.js';
import { ownSubjectSpec, type ProjectSubject, runContext, seedOffsetFor, vitestProjectOf } from './context.js';
import { isRunCancel } from './interrupt-state.js';
import { type CeilingbenchMeta, declaring, notRetried, SUBJECT_META_KEY } from './meta.js';
import { recordProjectOf } from './names.js';
import type { SweepOptions } from './sweep-options.js';
import { recordAndJudge } from './verdict.js';

/**
 * The designs of a depth sweep other than the grid (`design` in the configuration), each one test per subject
 * block: the adaptive design and the sequential one. The grid, the fit and the ablation are ./sweep.ts's.
 */

/**
 * The suite options of a subject's block: its label, and concurrent, so that the subjects' blocks run side by side
 * as their projects did (each block's fit test is sequential: it waits for the block's cells). None with one subject.
 */
export const subjectSuite = (of: ProjectSubject | undefined) =>
  of ? { concurrent: true, meta: { [SUBJECT_META_KEY]: of.label } } : {};

/** A fit test's declaration of its record, for the evidence manifest: a retention fit, or a collapse fit (SWEEP_FITS). */
export const declaredFit = (task: AnyTaskPlugin, variant: string, profile: string, own: DefinedSubject | undefined) => {
  const subject = own ? { subject: ownSubjectSpec(own) } : {};
  return task.analysis === 'retention'
    ? declaring({ task: task.id, fit: 'retention', variant, profile, ...subject })
    : declaring({ task: task.id, fit: 'collapse', ...subject });
};

/**
 * The adaptive depth design as one test: it runs the sequential allocation (src/assays/adaptive), records
 * every depth it visited as cells and the fit as the record, and applies the project's gates. Its depths
 * span the sweep's levels (the grid's 5…50 for CCB) unless the design widens them; with objective 'cost'
 * (the default) a trial's cost is its prompt tokens at the subject's input price plus the task's expected
 * output tokens at its output price (output tokens alone when the price table has no entry for the subject).
 */
export function describeAdaptive(
  task: AnyTaskPlugin,
  project: string,
  label: string,
  options: SweepOptions,
  design: Extract<SweepDesign, { kind: 'adaptive' }>,
  of: ProjectSubject | undefined,
): void {
  const levels = options.levels ?? task.levels.values;
  const declared = {
    ...notRetried(),
    ...declaredFit(task, options.variant ?? task.variants[0], options.profile ?? task.profiles[0], options.subject),
  };
  describe(label, subjectSuite(of), () => {
    test(`${label} · adaptive`, declared, async ({ task: testTask, signal }) => {
      const { config, subject } = await runContext(options.subject, of);
      const seedOffset = seedOffsetFor(config.seed);
      const objective = design.objective ?? 'cost';
      // The spend estimate's tokenizer (loaded only when a price bills the prompt, or a task has no length model).
      const tokens = tokenCounter(subject.identity.model);
      const cost =
        objective === 'cost'
          ? trialCostModel(task, {
              price: priceFor(config.prices, subject.identity),
              tokens,
              profile: options.profile,
              variant: options.variant,
              seedOffset,
              generateOptions: options.generateOptions,
            })
          : undefined;
      // a cancelled run (Ctrl-C, SIGTERM) ends this test at once: the design as it stands is its record, the trials
      // in flight `budget` (interrupted), never absent; no gate is judged on it
      let cutMeta: CeilingbenchMeta | undefined;
      const { cells, fit } = await runAdaptiveSweep(
        {
          project: recordProjectOf(testTask, project),
          task,
          targetWidth: design.targetWidth,
          objective,
          profile: options.profile,
          variant: options.variant,
          seedOffset,
          generateOptions: options.generateOptions,
          minDepth: design.depths?.min ?? Math.min(...levels),
          maxDepth: design.depths?.max ?? Math.max(...levels),
          batchSize: config.concurrency,
        },
        subject,
        {
          seed: config.seed,
          missing: config.missing,
          reading: config.reading,
          concurrency: config.concurrency,
          maxMissingFraction: config.maxMissingFraction,
          gridTrials: options.trials ?? config.trials,
          signal,
          cost,
          onCut: (cut, reason) => {
            if (!isRunCancel(reason)) return false;
            cutMeta = { record: cut.fit, cells: cut.cells, gates: [], subject: subject.identity, seed: config.seed };
            testTask.meta.ceilingbench = cutMeta;
            return true;
          },
        },
      );
      if (cutMeta) return recordAndJudge(testTask, cutMeta, 'the run was interrupted before the adaptive design ended');
      const gateKey = vitestProjectOf(testTask, project, of);
      const gates = evaluateGates(gateKey, fit, gatesFor(config.gates, gateKey));
      recordAndJudge(testTask, { record: fit, cells, gates, subject: subject.identity, seed: config.seed });
    });
  });
}

/**
 * The sequential design as one test (src/assays/sequential, docs/gates.md#the-sequential-design): batches of trials
 * at every depth until the project's minRetention test (evidence 'test') is decided, at the latest at the maximum.
 * It needs that gate: without it there is nothing to decide, and the test says how to configure it.
 */
export function describeSequential(
  task: AnyTaskPlugin,
  project: string,
  label: string,
  options: SweepOptions,
  design: Extract<SweepDesign, { kind: 'sequential' }>,
  of: ProjectSubject | undefined,
): void {
  const levels = options.levels ?? task.levels.values;
  const variant = options.variant ?? task.variants[0];
  const profile = options.profile ?? task.profiles[0];
  const declared = { ...notRetried(), ...declaredFit(task, variant, profile, options.subject) };
  describe(label, subjectSuite(of), () => {
    test(`${label} · sequential`, declared, async ({ task: testTask, signal }) => {
      const { config, subject } = await runContext(options.subject, of);
      const gateKey = vitestProjectOf(testTask, project, of);
      const gates = gatesFor(config.gates, gateKey);
      const gate = gates?.minRetention === undefined ? undefined : normalizeThreshold(gates.minRetention);
      if (gate?.evidence !== 'test')
        throw new VerdictError([
          `design 'sequential' decides the project's minRetention gate with evidence 'test': configure gates.${gateKey}.minRetention as { value, evidence: 'test', alpha, margin } (docs/gates.md#error-controlled-gates)`,
        ]);
      const trials = options.trials ?? config.trials;
      const test = {
        threshold: gate.value,
        alpha: gate.alpha ?? DEFAULT_GATE_ALPHA,
        margin: gate.margin ?? DEFAULT_GATE_MARGIN,
      };
      const sequential = {
        batch: design.batch ?? SEQUENTIAL_DEFAULTS.batch,
        maxPerCell: design.maxPerCell ?? SEQUENTIAL_DEFAULTS.maxFactor * trials,
      };
      // a cancelled run ends this test at once: the sweep as it stands is its record (as the adaptive design's)
      const cut = (result: { cells: CellResult[]; fit: RetentionFit }, reason: unknown): boolean => {
        if (!isRunCancel(reason)) return false;
        const meta = {
          record: result.fit,
          cells: result.cells,
          gates: [],
          subject: subject.identity,
          seed: config.seed,
        };
        testTask.meta.ceilingbench = meta;
        return true;
      };
      const { cells, fit } = await runSequentialSweep(
        {
          project: recordProjectOf(testTask, project),
          task,
          levels,
          profile,
          variant,
          seedOffset: seedOffsetFor(config.seed),
          generateOptions: options.generateOptions,
        },
        subject,
        {
          test,
          ...sequential,
          seed: config.seed,
          missing: config.missing,
          reading: config.reading,
          concurrency: config.concurrency,
          maxMissingFraction: config.maxMissingFraction,
          signal,
          onCut: cut,
        },
      );
      recordAndJudge(testTask, {
        record: fit,
        cells,
        gates: evaluateGates(gateKey, fit, gates, {
          designPower: sequentialDesignPower(levels, sequential, test, config.seed),
        }),
        subject: subject.identity,
        seed: config.seed,
      });
    });
  });
}
