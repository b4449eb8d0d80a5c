import { PyRandom } from '../../rng/index.js';
import type { ChainUsage } from '../../schema/chain-usage.js';
import type { Subject } from '../../subjects/subject.js';
import { withResponseChannels } from '../../tasks/final-answer.js';
import { DEFAULT_LADDER_TASK } from '../../tasks/ladder.js';
import { resolveTask, type TaskId } from '../../tasks/registry.js';
import type { AnyTaskPlugin, TaskInstance } from '../../tasks/task.js';
import { type SccTrial, sccTrialSchema } from './schema.js';
import type { TierRunner } from './tier.js';
import { runSccTrial, type SccTrialRecord } from './trial.js';

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
 * It counts the calls and keeps, per tier, what the trials aborted in flight had used.
 */
export class LadderTrials {
  calls = 0;
  private readonly abortedUsage = new Map<number, ChainUsage[]>();

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

  /** What the aborted trials of a tier (its evaluation index) had used. */
  abortedAt(evaluationIndex: number): ChainUsage[] {
    return this.abortedUsage.get(evaluationIndex) ?? [];
  }

  /** The runner of one tier's trials (or of the preflight, evaluation index −1). */
  at(phase: LadderPosition['phase'], evaluationIndex: number, center: number): TierRunner {
    const position = { phase, evaluationIndex };
    return { run: (index, target, budget, signal) => this.trial(position, center, index, target, budget, signal) };
  }

  private async trial(
    position: LadderPosition,
    center: number,
    index: number,
    target: number,
    budget: number,
    signal: AbortSignal,
  ): Promise<SccTrialRecord | null> {
    const { task, variant, subject } = this.run;
    const instance = ladderInstance(task, this.run.seed, position, center, index, target);
    this.calls++;
    const record = await runSccTrial({
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
      onAborted: (usage) =>
        this.abortedUsage.set(position.evaluationIndex, [...this.abortedAt(position.evaluationIndex), usage]),
    });
    if (record) this.run.onTrial?.({ ...toTrial(record), ...position, center });
    return record;
  }
}

/** A trial record as the result keeps it (the schema's fields, in its order). */
export const toTrial = (record: SccTrialRecord): SccTrial => sccTrialSchema.parse(record);
