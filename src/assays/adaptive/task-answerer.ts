import type { TrialRecord } from '../../schema/trial.js';
import type { Subject } from '../../subjects/subject.js';
import { generateCell } from '../../tasks/instances.js';
import { countedSuccess, type MissingRule, type TrialOutcome } from '../../tasks/outcome.js';
import type { AnyTaskPlugin, GenerateOptions, ReadingProfile, TaskInstance } from '../../tasks/task.js';
import { replicateIndices } from '../sweep/run-cell.js';
import { interruptedTrial, runTrial, type TrialSpec } from '../sweep/run-trial.js';
import type { AdaptiveAnswer } from './design.js';

export interface TaskAnswererOptions {
  profile?: string;
  variant?: string;
  /** Added to every instance seed, as in the grid (0 = the released CCB instances). */
  seedOffset?: number;
  generateOptions?: GenerateOptions;
  /** Which outcomes count in p_d's denominator, as in fitRetentionSweep (default 'paper'). */
  missing?: MissingRule;
  /** The answer-reading profile trials are graded with (default 'final'). */
  reading?: ReadingProfile;
  /**
   * Generated cells to share between answerers of the same task, profile, seed offset and generate options
   * (a study that replicates the design with fresh subjects); default: a cache of this answerer's own.
   */
  cells?: InstanceCells;
}

/** Generated instances per depth, grown in prefixes (createInstanceCells()). */
export type InstanceCells = Map<number, { instances: TaskInstance[]; replicate: number[] }>;

export const createInstanceCells = (): InstanceCells => new Map();

export interface TaskAnswerer {
  answer: AdaptiveAnswer;
  /** Every graded trial, in completion order (for token and latency totals, or a report). */
  records: TrialRecord[];
  /**
   * The trials as they stand now, for a cut run (Ctrl-C, SIGTERM): every graded one, and each trial still in flight
   * `budget` with `interrupted: 'in-flight'` (its request aborted by the same signal) — none absent.
   */
  cut(): TrialRecord[];
}

/** The adaptive design's view of an outcome: success, counted failure, or missing (null), by the grid's rule. */
export const countedAnswer = (outcome: TrialOutcome, missing: MissingRule): boolean | null =>
  countedSuccess(outcome, missing);

/**
 * Connects runAdaptiveDesign to a real task and subject: trial i at depth N asks the i-th instance of the
 * grid's cell (N, same seeding as generateCell), grades it with the task's grader and maps the outcome with
 * the grid's missing rule. Instances are generated in growing prefixes (generateCell is prefix-stable for
 * tasks with more distinct instances than asked), so the adaptive trials at a depth are the grid's first ones.
 */
export function taskAnswerer(task: AnyTaskPlugin, subject: Subject, options: TaskAnswererOptions = {}): TaskAnswerer {
  const profile = options.profile ?? task.profiles[0];
  const variant = options.variant ?? task.variants[0];
  const missing = options.missing ?? 'paper';
  const cells = options.cells ?? createInstanceCells();
  const records: TrialRecord[] = [];

  const instanceAt = (depth: number, index: number) => {
    let cell = cells.get(depth);
    if (!cell || cell.instances.length <= index) {
      const count = Math.max(index + 1, 2 * (cell?.instances.length ?? 0), 8);
      const instances = generateCell(task, depth, count, {
        ...options.generateOptions,
        profile,
        seedOffset: options.seedOffset ?? 0,
      });
      cell = { instances, replicate: replicateIndices(task, instances) };
      cells.set(depth, cell);
    }
    return { instance: cell.instances[index], trialIndex: cell.replicate[index] };
  };

  const inFlight = new Set<TrialSpec>();
  const answer: AdaptiveAnswer = async (depth, index, signal) => {
    const { instance, trialIndex } = instanceAt(depth, index);
    const spec: TrialSpec = { task, instance, variant, trialIndex, signal, reading: options.reading ?? 'final' };
    inFlight.add(spec);
    try {
      const record = await runTrial(subject, spec);
      records.push(record);
      return countedAnswer(record.outcome, missing);
    } finally {
      inFlight.delete(spec);
    }
  };
  const cut = (): TrialRecord[] => [
    ...records,
    ...[...inFlight].map((spec) => interruptedTrial(spec, 'in-flight').record),
  ];
  return { answer, records, cut };
}
