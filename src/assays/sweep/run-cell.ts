import { UsageError } from '../../errors.js';
import type { CellResult } from '../../schema/cell.js';
import { DEFAULT_EXAMPLES, type ExampleLimit } from '../../schema/example.js';
import type { Subject } from '../../subjects/subject.js';
import { generateCell } from '../../tasks/instances.js';
import type { MissingRule } from '../../tasks/outcome.js';
import type { AnyTaskPlugin, GenerateOptions, ReadingProfile, TaskInstance } from '../../tasks/task.js';
import { mapLimit } from '../limit.js';
import { selectExamples } from './examples.js';
import { type AnsweredTrial, answerTrial, interruptedTrial, type TrialSpec } from './run-trial.js';
import { distinctSamples } from './samples.js';
import { type CellIdentity, summarizeCell } from './summarize-cell.js';

export interface CellSpec {
  project: string;
  task: AnyTaskPlugin;
  level: number;
  trials: number;
  profile?: string;
  variant?: string;
  /** The task's output-budget rule (tasks that declare `budgets`); default: its first. */
  budget?: string;
  /** Added to every instance seed: 0 = the released CCB instances. */
  seedOffset?: number;
  generateOptions?: GenerateOptions;
}

export interface CellRunOptions {
  concurrency: number;
  maxMissingFraction: number;
  /** The run's missing-data rule (default 'paper'): what the cell's sufficiency counts as set aside. */
  missing?: MissingRule;
  signal?: AbortSignal;
  /** Instances to use instead of generating them (paired ablations share one set). */
  instances?: TaskInstance[];
  /** Examples kept per outcome kind (src/assays/sweep/examples.ts); default DEFAULT_EXAMPLES, 0 = none. */
  examples?: ExampleLimit;
  /** The answer-reading profile the trials are graded with (default 'final'); the cell records it. */
  reading?: ReadingProfile;
  /**
   * Called once, synchronously, when `signal` aborts before the cell is done (a cancelled run aborts it): the
   * cell as it stands — the trials that finished, every other `budget` with `interrupted` (its request, if sent,
   * aborted by the same signal; or never started) — and the abort's reason, so that the caller can record it
   * before its test ends. It returns whether the cut stands (the caller recorded it): then the cell is that one,
   * also when the trials in flight end afterwards (aborted: they are not `api`). Without it an aborted cell
   * rejects, or ends with what its trials in flight returned.
   */
  onCut?: (cell: CellResult, reason: unknown) => boolean;
}

/** A cell's settings with their defaults: the task's first profile and first variant, seed offset 0. */
export function cellSettings(
  spec: Pick<CellSpec, 'project' | 'task' | 'profile' | 'variant' | 'budget' | 'seedOffset'>,
): Omit<CellIdentity, 'level' | 'maxMissingFraction' | 'missing'> {
  const { project, task } = spec;
  if (spec.budget !== undefined && !task.budgets?.includes(spec.budget)) {
    const known = task.budgets?.join(', ') ?? '(none: it has one budget rule)';
    throw new UsageError(`task '${task.id}': unknown budget '${spec.budget}'; use one of ${known}`);
  }
  const budget = spec.budget ?? task.budgets?.[0];
  return {
    project,
    task,
    profile: spec.profile ?? task.profiles[0],
    variant: spec.variant ?? task.variants[0],
    ...(budget !== undefined ? { budget } : {}),
    seedOffset: spec.seedOffset ?? 0,
  };
}

/**
 * The replicate index of each trial: how many earlier trials of the cell asked the same instance.
 * It is part of the request identity, so repeated trials never collapse into one cached answer.
 */
export function replicateIndices(task: AnyTaskPlugin, instances: readonly TaskInstance[]): number[] {
  const seen = new Map<string, number>();
  return instances.map((instance) => {
    const key = task.instanceKey(instance);
    const index = seen.get(key) ?? 0;
    seen.set(key, index + 1);
    return index;
  });
}

/** Generates the cell's instances (release seeding), asks the subject for each, grades, aggregates. */
export async function runCell(spec: CellSpec, subject: Subject, options: CellRunOptions): Promise<CellResult> {
  const { task, level, trials } = spec;
  const settings = cellSettings(spec);
  const { profile, variant, budget, seedOffset } = settings;
  const instances =
    options.instances ?? generateCell(task, level, trials, { ...spec.generateOptions, profile, seedOffset });
  const replicate = replicateIndices(task, instances);
  const reading = options.reading ?? 'final';
  const trialSpec = (i: number): TrialSpec => ({
    task,
    instance: instances[i],
    variant,
    budget,
    trialIndex: replicate[i],
    signal: options.signal,
    reading,
  });
  const limit = options.examples ?? DEFAULT_EXAMPLES;
  const summarize = (answered: readonly AnsweredTrial[]): CellResult =>
    summarizeCell(
      {
        ...settings,
        level,
        maxMissingFraction: options.maxMissingFraction,
        ...(options.missing ? { missing: options.missing } : {}),
        reading,
      },
      answered.map((a) => a.record),
      limit === 0 ? undefined : selectExamples(task, answered, limit),
      distinctSamples(task, answered, subject.identity),
    );
  // what has finished and what is under way, for a cut: the cell as it stands when the signal aborts
  const finished = new Array<AnsweredTrial | undefined>(instances.length);
  const started = new Set<number>();
  let done = false;
  let cutCell: CellResult | undefined;
  const cut = () => {
    if (done || !options.onCut) return;
    done = true;
    const asItStands = summarize(
      instances.map((_, i) => finished[i] ?? interruptedTrial(trialSpec(i), started.has(i) ? 'in-flight' : 'not-sent')),
    );
    if (options.onCut(asItStands, options.signal?.reason)) cutCell = asItStands;
  };
  if (options.signal?.aborted) cut();
  options.signal?.addEventListener('abort', cut, { once: true });
  try {
    const answered = await mapLimit(
      instances,
      options.concurrency,
      async (_, i) => {
        started.add(i);
        const trial = await answerTrial(subject, trialSpec(i));
        finished[i] = trial;
        return trial;
      },
      options.signal,
    );
    done = true;
    // every trial had started when the signal aborted: those in flight ended (aborted) and the map resolved
    return cutCell ?? summarize(answered);
  } finally {
    options.signal?.removeEventListener('abort', cut);
  }
}
