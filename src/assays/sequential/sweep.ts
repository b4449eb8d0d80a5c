import { PyRandom } from '../../rng/index.js';
import type { CellResult } from '../../schema/cell.js';
import type { RetentionFit } from '../../schema/fit.js';
import type { TrialRecord } from '../../schema/trial.js';
import type { DepthCount } from '../../stats/depth-counts.js';
import {
  type DesignPower,
  type RetentionTest,
  retentionTestCall,
  type SequentialCall,
  sequentialCharacteristics,
} from '../../stats/sequential.js';
import type { Subject } from '../../subjects/subject.js';
import type { AnyTaskPlugin, GenerateOptions, ReadingProfile } from '../../tasks/task.js';
import { taskAnswerer } from '../adaptive/task-answerer.js';
import { fitRetentionSweep, type MissingRule } from '../sweep/fit-retention.js';
import { cellSettings } from '../sweep/run-cell.js';
import { summarizeCell } from '../sweep/summarize-cell.js';

/**
 * `design: 'sequential'` for a CCB depth sweep (docs/gates.md#the-sequential-design): trials are asked in batches of
 * `batch` per depth at every depth of the grid; after each batch the retention gate's likelihood-ratio test
 * decides pass / fail / continue, and the sweep stops when it is decided, at the latest at `maxPerCell` trials per
 * depth. Trial i at depth N is the grid's i-th instance of cell N (taskAnswerer), so a re-run asks the same
 * prompts in the same order: on the response cache it reaches the same counts, the same stop and the same verdict.
 * The cells and the fit are summarised exactly as the grid's, so reports, gates and the manifest read them as is;
 * the gate evaluated on the fit (evidence 'test') takes the same decision as the last look: both fail iff
 * Λ ≥ ln(1/α) on the same counts.
 */

export interface SequentialSweepSpec {
  project: string;
  task: AnyTaskPlugin;
  /** The depths (default: the task's grid). */
  levels?: readonly number[];
  profile?: string;
  variant?: string;
  seedOffset?: number;
  generateOptions?: GenerateOptions;
}

export interface SequentialSweepOptions {
  /** The gate's test: threshold, margin, alpha. */
  test: RetentionTest;
  batch: number;
  maxPerCell: number;
  seed: number;
  missing: MissingRule;
  reading?: ReadingProfile;
  concurrency: number;
  maxMissingFraction: number;
  signal?: AbortSignal;
  /**
   * Called once, synchronously, when `signal` aborts before the sweep is decided (a cancelled run): its cells as
   * they stand — the trials answered, each trial in flight `budget` with `interrupted` — and their fit, so that the
   * caller can record them before its test ends (as runCell's `onCut`). It returns whether the cut stands: then the
   * sweep rejects with the abort (the caller has its record), whatever the trials in flight return afterwards.
   */
  onCut?: (cut: { cells: CellResult[]; fit: RetentionFit }, reason: unknown) => boolean;
}

export interface SequentialSweepResult {
  cells: CellResult[];
  fit: RetentionFit;
  /** The last look's call ('pass' at the maximum when undecided there). */
  call: Exclude<SequentialCall, 'continue'>;
  atMaximum: boolean;
  looks: number;
  /** Trials asked per depth. */
  perCell: number;
}

/** Runs `jobs` with at most `concurrency` at once, in order of start. */
async function pool(jobs: ReadonlyArray<() => Promise<unknown>>, concurrency: number): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const job = jobs[next++];
      await job();
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, jobs.length)) }, worker));
}

export async function runSequentialSweep(
  spec: SequentialSweepSpec,
  subject: Subject,
  options: SequentialSweepOptions,
): Promise<SequentialSweepResult> {
  const { task } = spec;
  if (!(Number.isInteger(options.batch) && options.batch >= 1))
    throw new RangeError(`batch=${options.batch} must be a positive integer`);
  if (!(Number.isInteger(options.maxPerCell) && options.maxPerCell >= options.batch))
    throw new RangeError(
      `maxPerCell=${options.maxPerCell} must be an integer of at least the batch (${options.batch})`,
    );
  const settings = cellSettings(spec);
  const { profile, variant, seedOffset } = settings;
  const reading = options.reading ?? 'final';
  const answerer = taskAnswerer(task, subject, {
    profile,
    variant,
    seedOffset,
    generateOptions: spec.generateOptions,
    missing: options.missing,
    reading,
  });
  const { answer } = answerer;
  const depths = [...(spec.levels ?? task.levels.values)].sort((a, b) => a - b);
  /** Every depth's cell of `records`, then the grid's fit over them. */
  const summarize = (records: readonly TrialRecord[]): { cells: CellResult[]; fit: RetentionFit } => {
    const byLevel = new Map<number, TrialRecord[]>();
    for (const record of records) byLevel.set(record.level, [...(byLevel.get(record.level) ?? []), record]);
    const cells = depths.map((level) =>
      summarizeCell(
        { ...settings, level, maxMissingFraction: options.maxMissingFraction, missing: options.missing, reading },
        // in a fixed order (instance seed, replicate), whatever order the answers came back in
        (byLevel.get(level) ?? []).sort((a, b) => a.seed - b.seed || a.trialIndex - b.trialIndex),
      ),
    );
    return {
      cells,
      fit: fitRetentionSweep(cells, { project: spec.project, missing: options.missing, seed: options.seed }),
    };
  };
  // a cut: the sweep as it stands when the signal aborts, recorded by the caller before its test ends
  let cutStands = false;
  const cut = () => {
    // (an optional call evaluates no argument without onCut: nothing is summarised then)
    if (options.onCut?.(summarize(answerer.cut()), options.signal?.reason)) cutStands = true;
  };
  if (options.signal?.aborted) cut();
  else options.signal?.addEventListener('abort', cut, { once: true });
  try {
    return await decide();
  } finally {
    options.signal?.removeEventListener('abort', cut);
  }

  async function decide(): Promise<SequentialSweepResult> {
    const counts: DepthCount[] = depths.map((depth) => ({ depth, correct: 0, n: 0 }));
    let perCell = 0;
    let looks = 0;
    for (;;) {
      options.signal?.throwIfAborted();
      const size = Math.min(options.batch, options.maxPerCell - perCell);
      const jobs = counts.flatMap((c) =>
        Array.from({ length: size }, (_, k) => async () => {
          const counted = await answer(c.depth, perCell + k, options.signal);
          // a missing answer is not counted (the grid's rule): it never raises p_d, and the fit sees it as missing
          if (counted === null) return;
          c.n++;
          if (counted) c.correct++;
        }),
      );
      await pool(jobs, options.concurrency);
      // cut meanwhile: the caller recorded the sweep as it stood; a look on the aborted trials decides nothing
      if (cutStands) throw options.signal?.reason;
      perCell += size;
      looks++;
      const look = retentionTestCall(counts, options.test, perCell >= options.maxPerCell);
      if (look.call !== 'continue') {
        const { cells, fit } = summarize(answerer.records);
        return { cells, fit, call: look.call, atMaximum: look.atMaximum, looks, perCell };
      }
    }
  }
}

/** Seeded simulated runs behind the power a sequential gate line states. */
export const POWER_RUNS = 400;

/**
 * The power of the sequential design at the margin — the chance the whole procedure (these depths, batches and
 * maximum) fails a model one margin short — by POWER_RUNS seeded simulated runs of the test itself; what its gate
 * line states, in place of the one-look power on the counts it happened to stop at.
 */
export function sequentialDesignPower(
  depths: readonly number[],
  design: { batch: number; maxPerCell: number },
  test: RetentionTest,
  seed: number,
): DesignPower {
  const p1 = test.threshold - test.margin;
  const { failRate } = sequentialCharacteristics(
    new PyRandom(`sequential-power|${seed}`),
    p1,
    { depths, ...design },
    test,
    POWER_RUNS,
  );
  return { value: failRate, of: `the sequential design's, ${POWER_RUNS} simulated runs` };
}
