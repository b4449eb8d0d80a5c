import { describe, test } from 'vitest';
import { runAdaptiveSweep, trialCostModel } from '../assays/adaptive/index.js';
import { runSequentialSweep, sequentialDesignPower } from '../assays/sequential/index.js';
import { compareVariants } from '../assays/sweep/ablation.js';
import { fitSweep } from '../assays/sweep/fit-sweep.js';
import { runCell } from '../assays/sweep/run-cell.js';
import { setAsideText, shareText } from '../assays/sweep/set-aside.js';
import { SEQUENTIAL_DEFAULTS, type SweepDesign } from '../config/design.js';
import { evaluateGates, gatesFor, normalizeThreshold, VerdictError } from '../gates/index.js';
import type { CellResult } from '../schema/cell.js';
import type { RetentionFit } from '../schema/fit.js';
import { DEFAULT_GATE_ALPHA, DEFAULT_GATE_MARGIN } from '../schema/gate.js';
import { priceFor } from '../spend/price.js';
import type { DefinedSubject } from '../subjects/function/define.js';
import { tokenCounter } from '../subjects/openai/prompt-tokens.js';
import { generateCell } from '../tasks/instances.js';
import { cellName, projectOf, sweepSpan, withSubject } from '../tasks/project-names.js';
import type { AnyTaskPlugin, GenerateOptions } from '../tasks/task.js';
import {
  ownSubjectSpec,
  type ProjectSubject,
  projectSubjects,
  runConfig,
  runContext,
  seedOffsetFor,
  vitestProjectOf,
} from './context.js';
import { isRunCancel } from './interrupt-state.js';
import { type CeilingbenchMeta, declaring, notRetried, PLANNED_TRIALS_KEY, SUBJECT_META_KEY } from './meta.js';
import { recordProjectOf } from './names.js';
import { runTask } from './run-task.js';
import { recordAndJudge } from './verdict.js';

export interface SweepOptions {
  /** Levels to run (CCB depths, puzzle levels); default: the task's own axis. */
  levels?: readonly number[];
  /** Trials per cell; default: the configured trial count (40). */
  trials?: number;
  profile?: string;
  variant?: string;
  /** The output-budget rule, for a task with several (puzzles: 'fixed', the default, or 'per-level'). */
  budget?: string;
  generateOptions?: GenerateOptions;
  /**
   * Who answers this sweep instead of the run's subject: a `defineSubject` subject (your own pipeline). It goes
   * through the run's response cache and spend accounts; a spending limit needs it named as a run subject instead
   * (`--subject module:<path>#<export>`), where the main process sees it.
   */
  subject?: DefinedSubject;
}

function cellFailureMessage(cell: CellResult, maxMissingFraction: number): string {
  const why =
    cell.n > 0 && (cell.setAside ?? cell.missing) / cell.n > maxMissingFraction
      ? `above the ${shareText(maxMissingFraction)} allowed (maxMissingFraction)`
      : 'no trial was answered';
  return `${cell.task} level ${cell.level}: insufficient data — ${setAsideText(cell)}, ${why}`;
}

/**
 * One Vitest test per (task, level) cell, run concurrently, then one fit test per sweep: p_d, k*, TFBC
 * and H for depth sweeps; accuracy per level and λ* for level sweeps. Results travel on
 * `task.meta.ceilingbench` to the reporter; hard gates of the project fail the fit test.
 */
export function describeSweep(taskId: string, options: SweepOptions = {}): void {
  for (const subject of projectSubjects()) describeSubjectSweep(taskId, options, subject);
}

/**
 * A block's closing test (the fit, the McNemar test) runs after the block's cells, which may run side by side:
 * `{ concurrent: false }` is the spelling both Vitest 4 and 5 read (Vitest 5 has no `test.sequential`).
 */
const AFTER_THE_CELLS = { concurrent: false } as const;

/**
 * The suite options of a subject's block: its label, and concurrent, so that the subjects' blocks run side by side
 * as their projects did (each block's fit test is sequential: it waits for the block's cells). None with one subject.
 */
const subjectSuite = (of: ProjectSubject | undefined) =>
  of ? { concurrent: true, meta: { [SUBJECT_META_KEY]: of.label } } : {};

/** A fit test's declaration of its record, for the evidence manifest: a retention fit, or a collapse fit (SWEEP_FITS). */
const declaredFit = (task: AnyTaskPlugin, variant: string, profile: string, own: DefinedSubject | undefined) => {
  const subject = own ? { subject: ownSubjectSpec(own) } : {};
  return task.analysis === 'retention'
    ? declaring({ task: task.id, fit: 'retention', variant, profile, ...subject })
    : declaring({ task: task.id, fit: 'collapse', ...subject });
};

/** One subject's block of a sweep (the run's subject, unlabelled, with one subject). */
function describeSubjectSweep(taskId: string, options: SweepOptions, of: ProjectSubject | undefined): void {
  const task = runTask(taskId);
  const project = projectOf(task);
  const levels = options.levels ?? task.levels.values;
  const variant = options.variant ?? task.variants[0];
  const profile = options.profile ?? task.profiles[0];
  // with several subjects, the subject names its tests: `d2@gpt-4o-mini · N=15`
  const subjectLabel = of?.label;
  const head = withSubject(task.id, subjectLabel);
  const label = variant === task.variants[0] ? head : `${head} [${variant}]`;
  const cells = new Map<number, CellResult>();
  const design = runConfig().design;
  if (design.kind === 'adaptive' && task.analysis === 'retention') {
    describeAdaptive(task, project, label, options, design, of);
    return;
  }
  if (design.kind === 'sequential' && task.analysis === 'retention') {
    describeSequential(task, project, label, options, design, of);
    return;
  }

  describe(label, subjectSuite(of), () => {
    for (const level of levels) {
      const planned = { ...notRetried(), meta: { [PLANNED_TRIALS_KEY]: options.trials ?? runConfig().trials } };
      test.concurrent(cellName(task, level, variant, subjectLabel), planned, async ({ task: testTask, signal }) => {
        const { config, subject } = await runContext(options.subject, of);
        const cell = await runCell(
          {
            project: recordProjectOf(testTask, project),
            task,
            level,
            trials: options.trials ?? config.trials,
            profile,
            variant,
            budget: options.budget,
            seedOffset: seedOffsetFor(config.seed),
            generateOptions: options.generateOptions,
          },
          subject,
          {
            concurrency: config.concurrency,
            maxMissingFraction: config.maxMissingFraction,
            missing: config.missing,
            reading: config.reading,
            signal,
            examples: config.examples,
            // a cancelled run (Ctrl-C, SIGTERM) ends this test at once: the cell as it stands is its record, the
            // trials it cut `budget` (interrupted), never absent
            onCut: (cut, reason) => {
              if (!isRunCancel(reason)) return false;
              const meta: CeilingbenchMeta = { record: cut, gates: [], subject: subject.identity, seed: config.seed };
              testTask.meta.ceilingbench = meta;
              return true;
            },
          },
        );
        cells.set(level, cell);
        const meta: CeilingbenchMeta = { record: cell, gates: [], subject: subject.identity, seed: config.seed };
        testTask.meta.ceilingbench = meta;
        if (cell.status !== 'ok') throw new VerdictError([cellFailureMessage(cell, config.maxMissingFraction)]);
      });
    }

    const fitOptions = { ...notRetried(), ...declaredFit(task, variant, profile, options.subject), ...AFTER_THE_CELLS };
    test(`${label} · fit ${sweepSpan(task, levels)}`, fitOptions, async ({ task: testTask, expect }) => {
      const { config, subject } = await runContext(options.subject, of);
      const done = levels.flatMap((level) => cells.get(level) ?? []);
      expect(done.length, `cells that did not finish: ${levels.filter((l) => !cells.has(l)).join(', ')}`).toBe(
        levels.length,
      );
      const record = fitSweep(task.analysis, done, {
        project: recordProjectOf(testTask, project),
        missing: config.missing,
        seed: config.seed,
      });
      const gateKey = vitestProjectOf(testTask, project, of);
      const gates = evaluateGates(gateKey, record, gatesFor(config.gates, gateKey));
      recordAndJudge(testTask, { record, gates, subject: subject.identity, seed: config.seed });
    });
  });
}

/**
 * The adaptive depth design as one test: it runs the sequential allocation (src/assays/adaptive), records
 * every depth it visited as cells and the fit as the record, and applies the project's gates. Its depths
 * span the sweep's levels (the grid's 5…50 for CCB) unless the design widens them; with objective 'cost'
 * (the default) a trial's cost is its prompt tokens at the subject's input price plus the task's expected
 * output tokens at its output price (output tokens alone when the price table has no entry for the subject).
 */
function describeAdaptive(
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
function describeSequential(
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

export interface AblationOptions {
  level: number;
  variants: readonly string[];
  trials?: number;
  profile?: string;
  /** Who answers instead of the run's subject (see `SweepOptions.subject`). */
  subject?: DefinedSubject;
}

/**
 * Prompt-variant ablation: every variant answers the same instances (paired by seed); each variant is
 * a cell, and a final test runs exact McNemar of each variant against the first (the baseline).
 */
export function describeAblation(taskId: string, options: AblationOptions): void {
  for (const subject of projectSubjects()) describeSubjectAblation(taskId, options, subject);
}

function describeSubjectAblation(taskId: string, options: AblationOptions, of: ProjectSubject | undefined): void {
  const task = runTask(taskId);
  const project = projectOf(task);
  const profile = options.profile ?? task.profiles[0];
  const cells = new Map<string, CellResult>();

  const subjectLabel = of?.label;
  const head = `${withSubject(task.id, subjectLabel)} ablation · N=${options.level}`;

  describe(head, subjectSuite(of), () => {
    for (const variant of options.variants) {
      const planned = { ...notRetried(), meta: { [PLANNED_TRIALS_KEY]: options.trials ?? runConfig().trials } };
      test.concurrent(
        `${cellName(task, options.level, undefined, subjectLabel)} · ${variant}`,
        planned,
        async ({ task: testTask, signal }) => {
          const { config, subject } = await runContext(options.subject, of);
          const trials = options.trials ?? config.trials;
          const seedOffset = seedOffsetFor(config.seed);
          const instances = generateCell(task, options.level, trials, { profile, seedOffset });
          const cell = await runCell(
            {
              project: recordProjectOf(testTask, project),
              task,
              level: options.level,
              trials,
              profile,
              variant,
              seedOffset,
            },
            subject,
            {
              concurrency: config.concurrency,
              maxMissingFraction: config.maxMissingFraction,
              missing: config.missing,
              reading: config.reading,
              signal,
              instances,
              examples: config.examples,
            },
          );
          cells.set(variant, cell);
          testTask.meta.ceilingbench = { record: cell, gates: [], subject: subject.identity, seed: config.seed };
          if (cell.status !== 'ok') throw new VerdictError([cellFailureMessage(cell, config.maxMissingFraction)]);
        },
      );
    }

    test(`${head} · McNemar`, { ...notRetried(), ...AFTER_THE_CELLS }, async ({ task: testTask, expect }) => {
      const { config, subject } = await runContext(options.subject, of);
      const [baseline, ...rest] = options.variants.map((v) => cells.get(v));
      expect(baseline && rest.every(Boolean), 'every variant cell must finish before the paired test').toBe(true);
      const record = compareVariants(baseline as CellResult, rest as CellResult[], recordProjectOf(testTask, project));
      testTask.meta.ceilingbench = { record, gates: [], subject: subject.identity, seed: config.seed };
    });
  });
}
