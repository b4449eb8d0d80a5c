import type { Usage } from '../schema/trial.js';
import type { Prompt } from '../tasks/task.js';

/** Characters per token of the deterministic estimate used by simulated subjects (and limiter budgets). */
export const CHARS_PER_TOKEN = 4;

export const estimateTokens = (text: string): number => Math.ceil(text.length / CHARS_PER_TOKEN);

/** A deterministic usage estimate, ceil(chars / 4), for subjects that call no model. */
export function estimateUsage(prompt: Prompt, text: string): Usage {
  return {
    promptTokens: estimateTokens(prompt.system) + estimateTokens(prompt.user),
    completionTokens: estimateTokens(text),
  };
}
