import type { CellResult } from '../../schema/cell.js';
import type { RetentionFit } from '../../schema/fit.js';
import type { Price } from '../../schema/spend.js';
import type { TrialRecord } from '../../schema/trial.js';
import type { Subject } from '../../subjects/subject.js';
import type { AnyTaskPlugin, GenerateOptions, ReadingProfile } from '../../tasks/task.js';
import { fitRetentionSweep, type MissingRule } from '../sweep/fit-retention.js';
import { cellSettings } from '../sweep/run-cell.js';
import { summarizeCell } from '../sweep/summarize-cell.js';
import { charsPerTokenCounter, type TokenCounter, trialCostModel } from './cost.js';
import {
  type AdaptiveDesignOptions,
  type AdaptiveDesignResult,
  type AdaptivePilot,
  runAdaptiveDesign,
} from './design.js';
import { designCost, type TrialCost } from './information.js';
import { taskAnswerer } from './task-answerer.js';

/** What `--design adaptive` minimises for its target width: priced cost (the default) or calls. */
export type AdaptiveObjectiveKind = 'calls' | 'cost';

export interface AdaptiveSweepSpec {
  project: string;
  task: AnyTaskPlugin;
  /** Deepest depth the design may use; default: the task's deepest grid depth (CCB: 50). */
  maxDepth?: number;
  /** Shallowest depth the design may use; default: the task's shallowest grid depth (CCB: 5). */
  minDepth?: number;
  /** Default 'cost': the most information per priced token (AdaptiveSweepOptions.cost / price). */
  objective?: AdaptiveObjectiveKind;
  /** Stop at this 95% interval width for p_d; default: as narrow as the task's grid would be anywhere in the current interval (conservative). */
  targetWidth?: AdaptiveDesignOptions['targetWidth'];
  /** Call cap; default: the grid's calls (depths × trials per cell) for objective 'calls', none for 'cost'. */
  maxTrials?: number;
  /** Objective 'cost': cost cap; default: what the grid would cost (it never spends more than the grid it replaces). */
  maxCost?: number;
  pilot?: AdaptivePilot;
  batchSize?: number;
  profile?: string;
  variant?: string;
  seedOffset?: number;
  generateOptions?: GenerateOptions;
}

export interface AdaptiveSweepOptions {
  /** The run seed: bootstrap seed of the fit, as the grid's fit uses it. */
  seed: number;
  missing: MissingRule;
  /** The answer-reading profile trials are graded with (default 'final'); each cell records it. */
  reading?: ReadingProfile;
  concurrency: number;
  maxMissingFraction: number;
  /** Trials per grid cell, for the default call cap. */
  gridTrials: number;
  signal?: AbortSignal;
  /**
   * Objective 'cost': the cost of one trial at a depth. Default: trialCostModel of the task with `price` and
   * `tokens` (no price: expected output tokens alone).
   */
  cost?: TrialCost;
  /** The subject's price (USD per million tokens), for the default cost model; null or absent: tokens only. */
  price?: Price | null;
  /**
   * Token counter of the default cost model (prompt tokens under a price; tasks without a length model).
   * Default: charsPerTokenCounter.
   */
  tokens?: TokenCounter;
  /**
   * Called once, synchronously, when `signal` aborts before the design is done (a cancelled run aborts it): the
   * sweep as it stands — the cells of the trials answered, each trial in flight `budget` with `interrupted` — and
   * the abort's reason, so that the caller can record it before its test ends (as runCell's `onCut`). It returns
   * whether the cut stands: then its cells and fit are the result's, whatever the trials in flight return afterwards
   * (the design's abort, if it rejects, is passed on: the caller has its record).
   */
  onCut?: (cut: Omit<AdaptiveSweepResult, 'design'>, reason: unknown) => boolean;
}

export interface AdaptiveSweepResult {
  /** One cell per depth the design visited (its trials are that depth's first instances of the grid cell). */
  cells: CellResult[];
  /** The same retention record the grid produces (fitRetentionSweep over the visited cells). */
  fit: RetentionFit;
  design: AdaptiveDesignResult;
}

/**
 * `--design adaptive` for a CCB depth sweep: runs the adaptive design on the real task and subject — by default
 * over the grid's depth range, choosing depths for the most information per priced token — then summarises what it asked exactly as the grid does (per-depth cells, then fitRetentionSweep), so reports,
 * gates and baselines consume it unchanged. The fit's ci95 is the grid's BCa bootstrap with the run seed.
 */
export async function runAdaptiveSweep(
  spec: AdaptiveSweepSpec,
  subject: Subject,
  options: AdaptiveSweepOptions,
): Promise<AdaptiveSweepResult> {
  const { task } = spec;
  const settings = cellSettings(spec);
  const { profile, variant, seedOffset } = settings;
  const grid = task.levels.values;
  const minDepth = spec.minDepth ?? Math.min(...grid);
  const maxDepth = spec.maxDepth ?? Math.max(...grid);
  const answerer = taskAnswerer(task, subject, {
    profile,
    variant,
    seedOffset,
    generateOptions: spec.generateOptions,
    missing: options.missing,
    reading: options.reading ?? 'final',
  });
  const cost =
    (spec.objective ?? 'cost') === 'cost'
      ? (options.cost ??
        trialCostModel(task, {
          price: options.price ?? null,
          tokens: options.tokens ?? charsPerTokenCounter,
          profile,
          variant,
          seedOffset,
          generateOptions: spec.generateOptions,
        }))
      : null;
  const { answer } = answerer;
  /** Per-depth cells of `records`, then the grid's fit over them. */
  const summarize = (records: readonly TrialRecord[]): { cells: CellResult[]; fit: RetentionFit } => {
    const byLevel = new Map<number, TrialRecord[]>();
    for (const record of records) byLevel.set(record.level, [...(byLevel.get(record.level) ?? []), record]);
    const cells = [...byLevel.keys()]
      .sort((a, b) => a - b)
      .map((level) =>
        summarizeCell(
          {
            ...settings,
            level,
            maxMissingFraction: options.maxMissingFraction,
            missing: options.missing,
            reading: options.reading ?? 'final',
          },
          byLevel.get(level) ?? [],
        ),
      );
    return {
      cells,
      fit: fitRetentionSweep(cells, { project: spec.project, missing: options.missing, seed: options.seed }),
    };
  };
  // a cut: the sweep as it stands when the signal aborts, recorded by the caller before its test ends
  let done = false;
  let cutResult: Omit<AdaptiveSweepResult, 'design'> | undefined;
  const cut = () => {
    if (done || !options.onCut) return;
    done = true;
    const asItStands = summarize(answerer.cut());
    if (options.onCut(asItStands, options.signal?.reason)) cutResult = asItStands;
  };
  if (options.signal?.aborted) cut();
  options.signal?.addEventListener('abort', cut, { once: true });
  const gridDesign = grid.map((depth) => ({ depth, n: options.gridTrials }));
  let design: AdaptiveDesignResult;
  try {
    design = await runAdaptiveDesign({
      answer,
      minDepth,
      maxDepth,
      objective: cost === null ? { kind: 'calls' } : { kind: 'cost', cost },
      targetWidth: spec.targetWidth ?? { matchDesign: gridDesign },
      pilot: spec.pilot,
      batchSize: spec.batchSize,
      concurrency: options.concurrency,
      seed: options.seed,
      maxTrials: spec.maxTrials ?? (cost === null ? grid.length * options.gridTrials : Number.MAX_SAFE_INTEGER),
      ...(cost === null ? {} : { maxCost: spec.maxCost ?? designCost(gridDesign, cost) }),
      signal: options.signal,
    });
  } finally {
    done = true;
    options.signal?.removeEventListener('abort', cut);
  }
  return { ...(cutResult ?? summarize(answerer.records)), design };
}
