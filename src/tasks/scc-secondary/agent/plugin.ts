import type { PyRandom } from '../../../rng/index.js';
import { COUNT_SIM_CAPACITY } from '../../count/plugin.js';
import type { CountOutcome } from '../../outcome.js';
import {
  countingSim,
  type GenerateOptions,
  type GradeContext,
  type ParseResult,
  type TaskInstance,
  type TaskPlugin,
} from '../../task.js';
import { JSON_SYSTEM_INSTRUCTION, markerSequence } from '../common.js';
import { applyFinalObjectRules } from '../final-answer.js';
import { extractJsonObject, type JsonObject } from '../json-extract.js';
import { fieldOutcome } from '../outcome.js';
import { agentLadder } from './ladder.js';
import {
  AGENT_CONDITIONS,
  type AgentCondition,
  agentUserPrompt,
  COPY_ACTION,
  COPY_PATH,
  conditionHasMarkers,
  conditionHasTask,
} from './prompts.js';
import { type AgentScore, scoreAgentResponse } from './score.js';
import { simulateAgent } from './simulate.js';
import { AGENT_SEED, AGENT_TASK_SAMPLES, type AgentTask, buildAgentTask } from './task.js';

/** The authors' output cap for this runner; a subject may double it on truncation (up to its ceiling). */
export const AGENT_MAX_OUTPUT_TOKENS = 4096;

export interface AgentData {
  condition: AgentCondition;
  /** 0 for agent_baseline. */
  markerCount: number;
  /** null for copy_externalize. */
  task: AgentTask | null;
}

/** `level` is the marker count; `answer` the authors' expected payload (`expected_payload_for_spec`). */
export type AgentInstance = TaskInstance<AgentData, never, Record<string, unknown>>;

export function expectedPayload(condition: AgentCondition, task: AgentTask | null, markers: number) {
  const copy = { action: COPY_ACTION, path: COPY_PATH, file_content: markerSequence(markers), marker_count: markers };
  const expected = (): Record<string, unknown> => {
    if (!task) throw new Error(`condition ${condition} needs an agent task`);
    return { ...task.expected };
  };
  switch (condition) {
    case 'agent_baseline':
      return expected();
    case 'agent_count_insert':
      return { ...expected(), marker_count: markers };
    case 'copy_externalize':
      return copy;
    case 'copy_then_agent':
      return { ...copy, ...expected() };
  }
}

export function agentInstance(
  condition: AgentCondition,
  task: AgentTask | null,
  markers: number,
  seed: number,
  profile = 'default',
): AgentInstance {
  const count = conditionHasMarkers(condition) ? markers : 0;
  const taskFor = conditionHasTask(condition) ? task : null;
  if (conditionHasTask(condition) && !task) throw new Error(`condition ${condition} needs an agent task`);
  return {
    task: 'agent',
    level: count,
    seed,
    profile,
    data: { condition, markerCount: count, task: taskFor },
    trace: [],
    answer: expectedPayload(condition, taskFor, count),
  };
}

export const scoreAgentInstance = (instance: AgentInstance, text: string): AgentScore =>
  scoreAgentResponse(
    {
      condition: instance.data.condition,
      markerCount: instance.data.markerCount,
      expected: instance.data.task?.expected ?? null,
    },
    text,
  );

function failures(score: AgentScore): string[] {
  const checks: [boolean | null, string][] = [
    [score.markerCountCorrect, `marker_count ${score.parsedMarkerCount ?? 'missing'} is wrong`],
    [score.copyActionCorrect, 'action is not write_file'],
    [score.copyPathCorrect, `path is not ${COPY_PATH}`],
    [score.copyExact, `file_content is not the exact sequence (${score.copiedMarkerCount ?? 0} markers copied)`],
    [score.finalBalancesCorrect, 'final_balances wrong'],
    [score.reviewIdsCorrect, 'review_ids wrong (or out of order)'],
    [score.netTotalCorrect, 'net_total wrong'],
    [score.nextActionCorrect, 'next_action wrong'],
  ];
  return checks.flatMap(([ok, message]) => (ok === false ? [message] : []));
}

const isCondition = (value: unknown): value is AgentCondition =>
  typeof value === 'string' && (AGENT_CONDITIONS as readonly string[]).includes(value);

/** Agent-operation assay (paper Supplementary Note 8) as a task: one trial = one condition × task × marker count. */
export const agentPlugin: TaskPlugin<AgentInstance, JsonObject> = {
  id: 'agent',
  family: 'count',
  project: 'scc',
  analysis: 'counting',
  simDefault: countingSim(COUNT_SIM_CAPACITY),
  title: 'Agent operation with a marker-count burden',
  levels: { kind: 'length', values: agentLadder(AGENT_SEED, 'gpt-5.4', 'agent'), knob: (l) => l },
  variants: ['default'],
  profiles: ['default'],
  /** Options: `condition` (default: drawn), `taskIndex` (default: drawn from 0–5), `agentSeed` (default 17). */
  generate(rng: PyRandom, level: number, options: GenerateOptions & { seed: number }): AgentInstance {
    const condition = isCondition(options.condition) ? options.condition : rng.choice(AGENT_CONDITIONS);
    const taskIndex =
      typeof options.taskIndex === 'number' && Number.isInteger(options.taskIndex) && options.taskIndex >= 0
        ? options.taskIndex
        : rng.randbelow(AGENT_TASK_SAMPLES);
    const agentSeed = typeof options.agentSeed === 'number' ? options.agentSeed : AGENT_SEED;
    const task = conditionHasTask(condition) ? buildAgentTask(agentSeed, taskIndex) : null;
    // a condition without markers still belongs to the cell it was generated for (its marker count is 0)
    return { ...agentInstance(condition, task, level, options.seed, options.profile ?? 'default'), level };
  },
  instanceKey: (i) => `${i.data.condition}:${i.data.task?.taskIndex ?? '-'}:${i.data.markerCount}`,
  render: (i) => ({
    system: JSON_SYSTEM_INSTRUCTION,
    user: agentUserPrompt(i.data.condition, i.data.task, i.data.markerCount),
  }),
  canonicalResponse: (i) => JSON.stringify(i.answer),
  parse(text: string): ParseResult<JsonObject> {
    const extraction = extractJsonObject(text);
    return extraction.ok ? { ok: true, value: extraction.value } : { ok: false, reason: extraction.reason };
  },
  grade(instance: AgentInstance, text: string, context?: GradeContext): CountOutcome {
    const score = scoreAgentInstance(instance, text);
    const outcome = fieldOutcome({
      expected: instance.data.markerCount,
      parsed: score.parsedMarkerCount,
      parseable: score.parseable,
      strictJson: score.strictJson,
      failures: failures(score),
    });
    return applyFinalObjectRules(outcome, text, context);
  },
  simulate: (i, rng, knobs) => simulateAgent(i.data.condition, i.data.task, i.data.markerCount, rng, knobs),
  maxOutputTokens: () => AGENT_MAX_OUTPUT_TOKENS,
};
