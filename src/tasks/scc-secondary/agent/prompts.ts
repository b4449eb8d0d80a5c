import { markerSequence } from '../common.js';
import type { AgentTask } from './task.js';

/** The four conditions of paper Supplementary Note 8, in the authors' order. */
export const AGENT_CONDITIONS = [
  'agent_baseline',
  'agent_count_insert',
  'copy_externalize',
  'copy_then_agent',
] as const;
export type AgentCondition = (typeof AGENT_CONDITIONS)[number];

export const COPY_ACTION = 'write_file';
export const COPY_PATH = 'scratch/marker_sequence.txt';

const TASK_KEYS = ['final_balances', 'review_ids', 'net_total', 'next_action'] as const;
const COPY_KEYS = ['action', 'path', 'file_content', 'marker_count'] as const;

/** The keys each condition's schema requires (`prompt_for_spec`). */
export function requiredKeys(condition: AgentCondition): string[] {
  switch (condition) {
    case 'agent_baseline':
      return [...TASK_KEYS];
    case 'agent_count_insert':
      return [...TASK_KEYS, 'marker_count'];
    case 'copy_externalize':
      return [...COPY_KEYS];
    case 'copy_then_agent':
      return [...COPY_KEYS, ...TASK_KEYS];
  }
}

export const conditionHasTask = (c: AgentCondition): boolean => c !== 'copy_externalize';
export const conditionHasCopy = (c: AgentCondition): boolean => c === 'copy_externalize' || c === 'copy_then_agent';
export const conditionHasMarkers = (c: AgentCondition): boolean => c !== 'agent_baseline';

/** The first line and the JSON schema line of each condition's prompt (the baseline sends the task alone). */
const PROMPT_HEAD: Record<Exclude<AgentCondition, 'agent_baseline'>, [lead: string, schema: string]> = {
  agent_count_insert: [
    'You must complete the task and count the marker sequence exactly.',
    '{"final_balances": {"A": <int>, "B": <int>, "C": <int>}, "review_ids": [<transaction ids>], "net_total": <int>, "next_action": <string>, "marker_count": <int>}',
  ],
  copy_externalize: [
    'Simulate an external tool call that writes the marker sequence to a file.',
    '{"action": "write_file", "path": "scratch/marker_sequence.txt", "file_content": <exact marker sequence copied verbatim>, "marker_count": <int>}',
  ],
  copy_then_agent: [
    'Simulate an agent that first externalizes the marker sequence, then completes the task.',
    '{"action": "write_file", "path": "scratch/marker_sequence.txt", "file_content": <exact marker sequence copied verbatim>, "marker_count": <int>, "final_balances": {"A": <int>, "B": <int>, "C": <int>}, "review_ids": [<transaction ids>], "net_total": <int>, "next_action": <string>}',
  ],
};

const COPY_INSTRUCTION =
  'Copy the marker sequence into file_content exactly. Do not abbreviate, summarize, or normalize it.';

/**
 * The user prompt of one trial, verbatim as the authors build it (`build_*_prompt`): the lead, the schema, the
 * copy instruction when the condition copies, the marker sequence, then the task when the condition has one.
 */
export function agentUserPrompt(condition: AgentCondition, task: AgentTask | null, markers: number): string {
  const needTask = (): AgentTask => {
    if (!task) throw new Error(`condition ${condition} needs an agent task`);
    return task;
  };
  if (condition === 'agent_baseline') return needTask().prompt;
  const [lead, schema] = PROMPT_HEAD[condition];
  return [
    lead,
    'Return JSON with exactly this schema:',
    schema,
    ...(conditionHasCopy(condition) ? [COPY_INSTRUCTION] : []),
    '',
    'Marker sequence:',
    markerSequence(markers),
    ...(conditionHasTask(condition) ? ['', 'Task:', needTask().prompt] : []),
  ].join('\n');
}
