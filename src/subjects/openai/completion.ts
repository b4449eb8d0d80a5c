import { z } from 'zod';
import type { Usage } from '../../schema/trial.js';
import type { FinishReason } from '../../tasks/task.js';

/** A response body that is not a usable chat completion (bad JSON, wrong shape): a retryable provider fault. */
export class MalformedResponseError extends Error {
  constructor(detail: string) {
    super(`malformed chat completion: ${detail}`);
    this.name = 'MalformedResponseError';
  }
}

const completionSchema = z.object({
  choices: z
    .array(
      z.object({
        message: z
          .object({
            content: z.string().nullable().optional(),
            /** DeepSeek (and vLLM's reasoning parsers). */
            reasoning_content: z.string().nullable().optional(),
            /** OpenRouter. */
            reasoning: z.string().nullable().optional(),
          })
          .loose(),
        finish_reason: z.string().nullable().optional(),
      }),
    )
    .min(1),
  usage: z
    .object({
      prompt_tokens: z.number().int().nonnegative(),
      completion_tokens: z.number().int().nonnegative(),
      completion_tokens_details: z
        .object({ reasoning_tokens: z.number().int().nonnegative().nullable().optional() })
        .nullable()
        .optional(),
    })
    .nullable()
    .optional(),
});

const KNOWN_FINISH: readonly string[] = ['stop', 'length', 'content_filter', 'tool_calls', 'function_call'];

export interface Completion {
  text: string;
  /** The provider's separate reasoning channel, when it sent one (never graded). */
  reasoning?: string;
  finishReason: FinishReason;
  usage: Usage | null;
}

/** Validates what the SDK returned (it passes non-JSON bodies through as strings). */
export function readCompletion(body: unknown): Completion {
  const parsed = completionSchema.safeParse(body);
  if (!parsed.success) {
    const shown = typeof body === 'string' ? `text body '${body.slice(0, 80)}'` : parsed.error.issues[0]?.message;
    throw new MalformedResponseError(shown ?? 'unexpected shape');
  }
  const [choice] = parsed.data.choices;
  const reason = choice.finish_reason ?? null;
  const usage = parsed.data.usage;
  const reasoning = usage?.completion_tokens_details?.reasoning_tokens;
  const thought = choice.message.reasoning_content ?? choice.message.reasoning;
  return {
    text: choice.message.content ?? '',
    ...(thought != null && thought !== '' ? { reasoning: thought } : {}),
    finishReason: reason !== null && KNOWN_FINISH.includes(reason) ? (reason as FinishReason) : null,
    usage: usage
      ? {
          promptTokens: usage.prompt_tokens,
          completionTokens: usage.completion_tokens,
          ...(reasoning != null ? { reasoningTokens: reasoning } : {}),
        }
      : null,
  };
}
