import { PyRandom } from '../../rng/index.js';
import type { Subject } from '../../subjects/subject.js';
import { withResponseChannels } from '../../tasks/final-answer.js';
import { DEFAULT_LADDER_TASK } from '../../tasks/ladder.js';
import { resolveTask, type TaskId } from '../../tasks/registry.js';
import type { AnyTaskPlugin, TaskInstance } from '../../tasks/task.js';
import { type SccTrial, sccTrialSchema } from './schema.js';
import type { TierRunner } from './tier-walk.js';
import { askTrial, type SccTrialRecord, type TrialOutcome, trialOutcomeOf } from './trial.js';

/** Where the ladder asked for a trial (a log-replay subject finds the recorded response by it). */
export interface LadderPosition {
  phase: 'preflight' | 'expansion' | 'refine';
  evaluationIndex: number;
}

export interface SccTrialEvent extends SccTrial, LadderPosition {
  center: number;
}

/**
 * The ladder plugin of a run: a registered task by id (default: src/tasks/ladder.ts), or a plugin object, taken as
 * the registry would hand it out (its grade reads the final answer only). It must declare a ladder.
 */
export function ladderTaskOf(task: TaskId | AnyTaskPlugin = DEFAULT_LADDER_TASK): AnyTaskPlugin {
  const plugin = typeof task === 'string' ? resolveTask(task) : withResponseChannels(task);
  if (plugin.ladder === undefined) {
    throw new RangeError(
      `task '${plugin.id}' declares no ladder: it cannot run on the SCC ladder (src/tasks/ladder.ts)`,
    );
  }
  return plugin;
}

/** The plugin's prompt variant of a run (count: the stimulus motif); its first by default. */
export function ladderVariantOf(task: AnyTaskPlugin, variant: string | undefined): string {
  if (variant === undefined) return task.variants[0];
  if (!task.variants.includes(variant)) {
    throw new RangeError(`unknown variant '${variant}' of task '${task.id}'; use one of: ${task.variants.join(', ')}`);
  }
  return variant;
}

/**
 * The instance of trial `index` at a ladder position. `generate` gets the tier centre as its level and the target
 * as its `count`; its RNG is the trial's own, so what one trial draws never moves another's instance.
 */
export function ladderInstance(
  task: AnyTaskPlugin,
  seed: number,
  position: LadderPosition,
  center: number,
  index: number,
  target: number,
): TaskInstance {
  const rng = new PyRandom(`scc:${seed}:${position.evaluationIndex}:${index}`);
  const generated: TaskInstance = task.generate(rng, center, { seed, count: target });
  if (generated.answer !== target) {
    throw new Error(`ladder task '${task.id}': generate({ count: ${target} }) answered ${String(generated.answer)}`);
  }
  return { ...generated, data: { ...(generated.data as object), tier: position } };
}

/**
 * The trials of one ladder run on one task plugin: the plugin generates each trial's instance (exactly `target`
 * items around the tier's centre), renders its prompt in the run's variant and grades the answer (./trial.ts).
 * It counts the calls and tells `onTrial` of every answered trial.
 */
export class LadderTrials {
  calls = 0;

  constructor(
    private readonly run: {
      task: AnyTaskPlugin;
      variant: string;
      subject: Subject;
      seed: number;
      retryMaxOutputTokens: number;
      onTrial?: (trial: SccTrialEvent) => void;
    },
  ) {}

  /** The runner of one tier's trials (or of the preflight, evaluation index −1). */
  at(phase: LadderPosition['phase'], evaluationIndex: number, center: number): TierRunner {
    const position = { phase, evaluationIndex };
    return { run: (index, target, budget, signal) => this.trial(position, center, index, target, budget, signal) };
  }

  /**
   * Asks then scores in this one function (no continuation handed down): a trial lands two promise ticks after its
   * last call, as it always has, so the trials of a tier in flight together land in the same order.
   */
  private async trial(
    position: LadderPosition,
    center: number,
    index: number,
    target: number,
    budget: number,
    signal: AbortSignal,
  ): Promise<TrialOutcome> {
    const { task, variant, subject } = this.run;
    const instance = ladderInstance(task, this.run.seed, position, center, index, target);
    this.calls++;
    const spec = {
      subject,
      taskId: task.id,
      task,
      instance,
      prompt: task.render(instance, variant),
      variant,
      trialIndex: index,
      budget,
      retryMaxOutputTokens: this.run.retryMaxOutputTokens,
      signal,
    };
    const outcome = trialOutcomeOf(spec, await askTrial(spec));
    if (outcome.kind === 'answered') this.run.onTrial?.({ ...toTrial(outcome.record), ...position, center });
    return outcome;
  }
}

/** A trial record as the result keeps it (the schema's fields, in its order). */
export const toTrial = (record: SccTrialRecord): SccTrial => sccTrialSchema.parse(record);
