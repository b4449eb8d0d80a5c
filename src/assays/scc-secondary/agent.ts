import type { Subject } from '../../subjects/subject.js';
import { agentLadder } from '../../tasks/scc-secondary/agent/ladder.js';
import { agentInstance, agentPlugin, scoreAgentInstance } from '../../tasks/scc-secondary/agent/plugin.js';
import {
  AGENT_CONDITIONS,
  type AgentCondition,
  conditionHasMarkers,
  conditionHasTask,
} from '../../tasks/scc-secondary/agent/prompts.js';
import { countOrCopyCorrect } from '../../tasks/scc-secondary/agent/score.js';
import {
  AGENT_SEED,
  AGENT_TASK_SAMPLES,
  type AgentTask,
  buildAgentTask,
} from '../../tasks/scc-secondary/agent/task.js';
import { mapLimit } from '../limit.js';
import { ask, clip, mean, NotSentTally, rate, SECONDARY_ABORT } from './ask.js';
import type { AgentAssayResult, AgentConditionSummary, AgentTrial } from './schema.js';
import { agentThreshold } from './thresholds.js';

/**
 * The agent-operation assay of `run_agent_count_disruption.py` (paper Supplementary Note 8, Tables S9–S10;
 * docs/spec/scc.md §11). Per task (6 by default): one agent_baseline trial, agent_count_insert at every count of the
 * `agent` ladder, copy_then_agent at every count of the `copy` ladder; then copy_externalize once per `copy`
 * count. The ladders are the authors' jittered 50–1000 ladders, salted with the model name.
 */
export interface AgentAssayOptions {
  /** Seed of the tasks and ladders (the authors: 17). */
  seed?: number;
  /** The model name salting the ladders (default: the subject's model, else its spec). */
  ladderModel?: string;
  /** Agent tasks (the authors: 6). */
  taskSamples?: number;
  /** Explicit marker counts instead of the ladders (the authors' `agent_marker_counts` / `copy_marker_counts`). */
  agentCounts?: readonly number[];
  copyCounts?: readonly number[];
  conditions?: readonly AgentCondition[];
  concurrency?: number;
  signal?: AbortSignal;
}

interface AgentSpec {
  condition: AgentCondition;
  task: AgentTask | null;
  markers: number;
}

/** Every trial in the authors' spec order (`build_specs_for_model`). */
export function agentDesign(
  tasks: readonly AgentTask[],
  agentCounts: readonly number[],
  copyCounts: readonly number[],
  conditions: readonly AgentCondition[],
): AgentSpec[] {
  const on = new Set(conditions);
  const specs: AgentSpec[] = [];
  for (const task of tasks) {
    if (on.has('agent_baseline')) specs.push({ condition: 'agent_baseline', task, markers: 0 });
    if (on.has('agent_count_insert'))
      for (const markers of agentCounts) specs.push({ condition: 'agent_count_insert', task, markers });
    if (on.has('copy_then_agent'))
      for (const markers of copyCounts) specs.push({ condition: 'copy_then_agent', task, markers });
  }
  if (on.has('copy_externalize'))
    for (const markers of copyCounts) specs.push({ condition: 'copy_externalize', task: null, markers });
  return specs;
}

function summarize(condition: AgentCondition, trials: readonly AgentTrial[]): AgentConditionSummary {
  const all = trials.filter((t) => t.condition === condition);
  const own = all.filter((t) => t.answered);
  const scores = own.flatMap((t) =>
    t.taskCorrect === null
      ? []
      : [
          [t.finalBalancesCorrect, t.reviewIdsCorrect, t.netTotalCorrect, t.nextActionCorrect].filter(Boolean).length /
            4,
        ],
  );
  return {
    condition,
    trials: own.length,
    missing: all.length - own.length,
    parseRate: rate(own.map((t) => t.parseable)),
    strictJsonRate: rate(own.map((t) => t.strictJson)),
    formatContractRate: rate(own.map((t) => t.formatContract)),
    countOrCopyRate: rate(own.map((t) => t.countOrCopyCorrect)),
    countCorrectRate: conditionHasMarkers(condition) ? rate(own.map((t) => t.markerCountCorrect)) : null,
    copyExactRate: rate(own.map((t) => t.copyExact)),
    taskSuccessRate: conditionHasTask(condition) ? rate(own.map((t) => t.taskCorrect)) : null,
    meanTaskFieldScore: mean(scores),
  };
}

const checkCounts = (name: string, counts: readonly number[]) => {
  if (counts.some((c) => !Number.isInteger(c) || c < 1))
    throw new RangeError(`${name} must be positive integers, got ${counts.join(', ')}`);
};

export async function runAgentAssay(subject: Subject, options: AgentAssayOptions = {}): Promise<AgentAssayResult> {
  const seed = options.seed ?? AGENT_SEED;
  const model = options.ladderModel ?? subject.identity.model ?? subject.identity.spec;
  const taskSamples = options.taskSamples ?? AGENT_TASK_SAMPLES;
  if (!Number.isInteger(taskSamples) || taskSamples < 1)
    throw new RangeError(`taskSamples must be ≥ 1, got ${taskSamples}`);
  const agentCounts = [...(options.agentCounts ?? agentLadder(seed, model, 'agent'))];
  const copyCounts = [...(options.copyCounts ?? agentLadder(seed, model, 'copy'))];
  checkCounts('agentCounts', agentCounts);
  checkCounts('copyCounts', copyCounts);
  const conditions = options.conditions ?? AGENT_CONDITIONS;
  const tasks = Array.from({ length: taskSamples }, (_, i) => buildAgentTask(seed, i));
  const design = agentDesign(tasks, agentCounts, copyCounts, conditions);

  const refused = new NotSentTally();
  const trials = await mapLimit(
    design,
    options.concurrency ?? 4,
    async (spec, trialIndex): Promise<AgentTrial> => {
      const instance = agentInstance(spec.condition, spec.task, spec.markers, seed);
      const asked = await ask(
        subject,
        {
          taskId: agentPlugin.id,
          instance,
          prompt: agentPlugin.render(instance),
          trialIndex,
          maxOutputTokens: agentPlugin.maxOutputTokens(spec.markers),
        },
        options.signal,
      );
      refused.note(asked);
      const text = asked.kind === 'answer' ? asked.text : '';
      const score = scoreAgentInstance(instance, text);
      return {
        condition: spec.condition,
        taskIndex: spec.task && conditionHasTask(spec.condition) ? spec.task.taskIndex : null,
        markerCount: instance.data.markerCount,
        answered: asked.kind === 'answer',
        parseable: score.parseable,
        strictJson: score.strictJson,
        formatContract: score.formatContract,
        parsedMarkerCount: score.parsedMarkerCount,
        markerCountCorrect: score.markerCountCorrect,
        copyExact: score.copyExact,
        copiedMarkerCount: score.copiedMarkerCount,
        externalizationSuccess: score.externalizationSuccess,
        finalBalancesCorrect: score.finalBalancesCorrect,
        reviewIdsCorrect: score.reviewIdsCorrect,
        netTotalCorrect: score.netTotalCorrect,
        nextActionCorrect: score.nextActionCorrect,
        taskCorrect: score.taskCorrect,
        countOrCopyCorrect: countOrCopyCorrect(spec.condition, score),
        inputTokens: asked.kind === 'answer' ? asked.inputTokens : null,
        outputTokens: asked.kind === 'answer' ? asked.outputTokens : null,
        text: asked.kind === 'answer' ? clip(text) : `ERROR: ${asked.error}`,
        ...(asked.usage ? { usage: asked.usage } : {}),
      };
    },
    options.signal,
    SECONDARY_ABORT,
  );

  const levels = conditions.flatMap((condition) => {
    const own = trials.filter((t) => t.condition === condition && t.answered);
    const markerLevels = [...new Set(own.map((t) => t.markerCount))].sort((a, b) => a - b);
    return markerLevels.map((markerCount) => {
      const here = own.filter((t) => t.markerCount === markerCount);
      return {
        condition,
        markerCount,
        trials: here.length,
        parseRate: rate(here.map((t) => t.parseable)),
        countOrCopyRate: rate(here.map((t) => t.countOrCopyCorrect)),
        taskSuccessRate: rate(here.map((t) => t.taskCorrect)),
      };
    });
  });
  const stopped = refused.result();
  return {
    seed,
    ladderModel: model,
    taskSamples,
    agentCounts,
    copyCounts,
    conditions: conditions.map((c) => summarize(c, trials)),
    thresholds: conditions.filter(conditionHasMarkers).map((c) => agentThreshold(c, trials)),
    levels,
    trials,
    ...(stopped ? { stopped } : {}),
  };
}
