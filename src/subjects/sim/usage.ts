import type { Usage } from '../../schema/trial.js';
import { countTokens } from '../../spend/tokenizer.js';
import type { AnyTaskPlugin } from '../../tasks/task.js';
import { countPromptTokens } from '../openai/prompt-tokens.js';
import type { TrialRequest } from '../subject.js';
import type { SimOutput } from './faults.js';

/**
 * What a simulated answer costs, as a model would bill it, so that a rehearsal on `sim:` spends what `plan` says
 * a real run will:
 *
 * - prompt tokens: the prompt as the openai subject sends it (system and user messages), counted with the same
 *   tokenizer `plan` counts real prompts with (o200k_base; src/spend/tokenizer.ts);
 * - completion tokens: where the family states the paper's mean response length per depth (CCB's AvgTok tables,
 *   `expectedOutputTokens`), that mean (real models answer more verbosely than the simulated trace, their reasoning
 *   included; the text itself is the simulated one); elsewhere the simulated text, tokenized; a cut answer
 *   (finish_reason 'length') used its whole budget. Never above the budget.
 */
export function simUsage(task: AnyTaskPlugin, request: TrialRequest, output: SimOutput): Usage {
  const budget = request.maxOutputTokens;
  const mean = task.expectedOutputTokens?.(request.instance.level);
  let completionTokens: number;
  if (output.finishReason === 'length') completionTokens = budget;
  else if (mean !== undefined) completionTokens = Math.round(mean);
  else completionTokens = memo(texts, output.text, () => countTokens(output.text));
  return {
    promptTokens: memo(prompts, `${request.prompt.system}\u0000${request.prompt.user}`, () =>
      countPromptTokens(request.prompt),
    ),
    completionTokens: Math.min(budget, Math.max(0, completionTokens)),
  };
}

/** Prompts and answers recur across trials and subjects (every subject of a run sees the same instances). */
const prompts = new Map<string, number>();
const texts = new Map<string, number>();
const MEMO_SIZE = 4096;

function memo(store: Map<string, number>, key: string, count: () => number): number {
  const hit = store.get(key);
  if (hit !== undefined) return hit;
  const value = count();
  if (store.size >= MEMO_SIZE) store.delete(store.keys().next().value as string);
  store.set(key, value);
  return value;
}
