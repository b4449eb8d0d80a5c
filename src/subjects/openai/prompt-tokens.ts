import { countChatTokens, countTokens } from '../../spend/tokenizer.js';
import type { Prompt } from '../../tasks/task.js';
import { buildMessages, type SystemRole } from './request-body.js';

// Here, not in src/spend/tokenizer.ts: counting a prompt needs the openai subject's messages, and the tokenizer sits
// below the subjects (which import src/spend), so it counts messages only.

/** Prompt tokens of a task's prompt, sent as the openai subject sends it (system and user messages). */
export function countPromptTokens(prompt: Prompt, model?: string | null, systemRole?: SystemRole): number {
  return countChatTokens(buildMessages(prompt, systemRole), model);
}

/**
 * Prompt and text counts for one model, in the shape of the adaptive design's `TokenCounter`
 * (src/assays/adaptive/cost.ts), so its cost model can count with the model's encoding instead of chars/4.
 */
export const tokenCounter = (model?: string | null, systemRole?: SystemRole) => ({
  prompt: (prompt: Prompt): number => countPromptTokens(prompt, model, systemRole),
  text: (text: string): number => countTokens(text, model),
});
