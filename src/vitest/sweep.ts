import { describe, test } from 'vitest';
import { compareVariants } from '../assays/sweep/ablation.js';
import { fitSweep } from '../assays/sweep/fit-sweep.js';
import { runCell } from '../assays/sweep/run-cell.js';
import { setAsideText, shareText } from '../assays/sweep/set-aside.js';
import { evaluateGates, gatesFor, VerdictError } from '../gates/index.js';
import type { CellResult } from '../schema/cell.js';
import type { DefinedSubject } from '../subjects/function/define.js';
import { generateCell } from '../tasks/instances.js';
import { cellName, projectOf, sweepSpan, withSubject } from '../tasks/project-names.js';
import {
  type ProjectSubject,
  projectSubjects,
  runConfig,
  runContext,
  seedOffsetFor,
  vitestProjectOf,
} from './context.js';
import { isRunCancel } from './interrupt-state.js';
import { type CeilingbenchMeta, notRetried, PLANNED_TRIALS_KEY } from './meta.js';
import { recordProjectOf } from './names.js';
import { runTask } from './run-task.js';
import { declaredFit, describeAdaptive, describeSequential, subjectSuite } from './sweep-designs.js';
import type { SweepOptions } from './sweep-options.js';
import { recordAndJudge } from './verdict.js';

export type { SweepOptions };

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
