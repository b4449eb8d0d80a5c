import type { Prompt } from '../../tasks/task.js';

/** How the task's system prompt reaches the provider. */
export type SystemRole = 'system' | 'developer' | 'merge';
/** The body field that carries the output budget. */
export type MaxTokensParam = 'max_completion_tokens' | 'max_tokens';

export interface ProviderOptions {
  /** 'merge' sends one user message `system + "\n\n" + user` (models without a system role). Default 'system'. */
  systemRole?: SystemRole;
  /** Default: 'max_completion_tokens' for api.openai.com, 'max_tokens' for every other endpoint. */
  maxTokensParam?: MaxTokensParam;
  /** Default 0; null omits the field (reasoning models that reject it). */
  temperature?: number | null;
  seed?: number;
  reasoningEffort?: 'minimal' | 'low' | 'medium' | 'high';
}

export interface ChatMessage {
  role: 'system' | 'developer' | 'user';
  content: string;
}

export function buildMessages(prompt: Prompt, systemRole: SystemRole = 'system'): ChatMessage[] {
  if (prompt.system === '') return [{ role: 'user', content: prompt.user }];
  if (systemRole === 'merge') return [{ role: 'user', content: `${prompt.system}\n\n${prompt.user}` }];
  return [
    { role: systemRole, content: prompt.system },
    { role: 'user', content: prompt.user },
  ];
}

export function defaultMaxTokensParam(endpointIdentity: string): MaxTokensParam {
  return new URL(endpointIdentity).hostname === 'api.openai.com' ? 'max_completion_tokens' : 'max_tokens';
}

/** The request parameters other than model and messages, for a given output budget. */
export function buildParams(
  options: ProviderOptions,
  endpointIdentity: string,
  budget: number,
): Record<string, string | number | null> {
  const params: Record<string, string | number | null> = {};
  const temperature = options.temperature === undefined ? 0 : options.temperature;
  if (temperature !== null) params.temperature = temperature;
  if (options.seed !== undefined) params.seed = options.seed;
  if (options.reasoningEffort !== undefined) params.reasoning_effort = options.reasoningEffort;
  params[options.maxTokensParam ?? defaultMaxTokensParam(endpointIdentity)] = budget;
  return params;
}
