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

/**
 * A 200 whose body says the provider failed: an `{"error": …}` body (or event), `finish_reason: "error"`
 * (OpenRouter's upstream fault). Always outcome `api` (missing data, never a model failure). `retryable` says
 * whether asking again can change it: an upstream fault or a 5xx/429 code in the body can, a 4xx code cannot.
 */
export class ProviderFaultError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    /** The body's code was 429: the provider's rate limit, reported in a 200 (tells the adaptive limiter). */
    readonly rateLimited = false,
  ) {
    super(message);
    this.name = 'ProviderFaultError';
  }
}

/** A content part (Mistral, some vLLM templates): text parts are the answer, thinking parts are reasoning. */
export const partSchema = z
  .object({
    type: z.string().optional(),
    text: z.string().optional(),
    /** Mistral's magistral: `{type: 'thinking', thinking: [{type: 'text', text}]}`. */
    thinking: z.union([z.string(), z.array(z.object({ text: z.string().optional() }).loose())]).optional(),
  })
  .loose();

const usageSchema = z.object({
  prompt_tokens: z.number().int().nonnegative(),
  completion_tokens: z.number().int().nonnegative(),
  /** Reasoning tokens, counted inside `completion_tokens`. An unreadable detail is dropped, never the counts. */
  completion_tokens_details: z
    .object({ reasoning_tokens: z.number().int().nonnegative().nullable().optional() })
    .loose()
    .nullable()
    .optional()
    .catch(undefined),
  /** Prompt tokens served from the provider's prompt cache (OpenAI, OpenRouter, DeepSeek-compatible gateways). */
  prompt_tokens_details: z
    .object({ cached_tokens: z.number().int().nonnegative().nullable().optional() })
    .loose()
    .nullable()
    .optional()
    .catch(undefined),
  /** DeepSeek's own name for the cached prompt tokens (read when `prompt_tokens_details` does not say). */
  prompt_cache_hit_tokens: z.number().int().nonnegative().optional().catch(undefined),
  /** What the request cost, in USD (OpenRouter). An unreadable cost is dropped, never the token counts. */
  cost: z.number().nonnegative().optional().catch(undefined),
});

const completionSchema = z.object({
  /** The model that actually served (OpenRouter routes, Azure names deployments, aliases resolve). */
  model: z.string().optional().catch(undefined),
  /** The upstream provider that served (OpenRouter: `"provider": "DeepInfra"`). */
  provider: z.string().optional().catch(undefined),
  choices: z
    .array(
      z.object({
        message: z
          .object({
            content: z
              .union([z.string(), z.array(partSchema)])
              .nullable()
              .optional(),
            /** DeepSeek (and vLLM's reasoning parsers). */
            reasoning_content: z.string().nullable().optional(),
            /** OpenRouter. */
            reasoning: z.string().nullable().optional(),
            /** The model declined (OpenAI). */
            refusal: z.string().nullable().optional(),
          })
          .loose(),
        finish_reason: z.string().nullable().optional(),
        /** OpenRouter puts the upstream error of a `finish_reason: "error"` choice here. */
        error: z.object({ message: z.string().optional() }).loose().optional().catch(undefined),
      }),
    )
    .min(1),
  /** Anything else (absent, null, partial, a provider's own shape) is unknown usage: null, never 0. */
  usage: usageSchema.nullable().optional().catch(null),
});

const errorBodySchema = z.object({
  error: z.union([
    z.string(),
    z.object({ message: z.string().optional(), code: z.union([z.string(), z.number()]).nullable().optional() }).loose(),
  ]),
});

/** `content_filter` is passed on: the sweep records it as `api` (the provider's moderation, not the model). */
const KNOWN_FINISH: readonly string[] = ['stop', 'length', 'content_filter', 'tool_calls', 'function_call'];

export interface Completion {
  text: string;
  /** The provider's separate reasoning channel, when it sent one (never graded). */
  reasoning?: string;
  /** The model's refusal text (`message.refusal`); the answer text is then usually empty. */
  refusal?: string;
  finishReason: FinishReason;
  /** Null when the provider sent no (readable) usage: unknown, not 0. */
  usage: Usage | null;
  /** `response.model`: the model that served, when the provider says. */
  servedModel?: string;
  /** `response.provider`: the upstream provider a router (OpenRouter) sent the request to, when it says. */
  servedProvider?: string;
}

const clip = (text: string, max = 300): string => (text.length > max ? `${text.slice(0, max)}…` : text);

/** Joins content parts: text parts into the answer, thinking parts into reasoning. */
export function readContent(content: string | z.infer<typeof partSchema>[] | null | undefined): {
  text: string;
  thinking: string;
} {
  if (content == null) return { text: '', thinking: '' };
  if (typeof content === 'string') return { text: content, thinking: '' };
  const text: string[] = [];
  const thinking: string[] = [];
  for (const part of content) {
    if (part.type === 'thinking' || part.type === 'reasoning') {
      const t = part.thinking;
      thinking.push(typeof t === 'string' ? t : (t ?? []).map((p) => p.text ?? '').join(''));
      if (part.text !== undefined) thinking.push(part.text);
    } else if (part.type === undefined || part.type === 'text' || part.type === 'output_text') {
      text.push(part.text ?? '');
    }
  }
  return { text: text.join(''), thinking: thinking.join('\n') };
}

/**
 * An error body the SDK cannot read, in OpenAI's shape. The SDK takes the message from `body.error` only, so
 * vLLM's `{"object":"error","message":"This model's maximum context length is …","type":"BadRequestError",
 * "param":null,"code":400}` (and FastAPI's `{"detail":"…"}`) became `400 status code (no body)`; the same body
 * under `error` keeps the provider's words, its `code`/`param`/`type`, and so the rejected-default learning.
 */
export function openAiErrorShape(body: unknown): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body) || 'error' in body) return body;
  const b = body as Record<string, unknown>;
  if (typeof b.message === 'string') return { error: b };
  if (typeof b.detail === 'string') return { error: { message: b.detail } };
  return body;
}

/** An `{"error": …}` body (in a 200 or not): the provider's own message, and whether a retry can change it. */
export function errorBodyFault(body: unknown): ProviderFaultError | undefined {
  const parsed = errorBodySchema.safeParse(body);
  if (!parsed.success) return undefined;
  const { error } = parsed.data;
  const message = typeof error === 'string' ? error : (error.message ?? JSON.stringify(error));
  const code = typeof error === 'string' ? undefined : error.code;
  const status = typeof code === 'number' ? code : Number.parseInt(String(code ?? ''), 10);
  const retryable = Number.isFinite(status) && (status === 429 || status >= 500);
  return new ProviderFaultError(
    `provider error in a 200 body${code != null ? ` (code ${code})` : ''}: ${clip(message)}`,
    retryable,
    status === 429,
  );
}

/** Validates what the SDK returned (it passes non-JSON bodies through as strings) and normalises the shape. */
export function readCompletion(body: unknown): Completion {
  const parsed = completionSchema.safeParse(body);
  if (!parsed.success) {
    // vLLM's top-level error shape is read in a 200 only when it says it is one (`object: "error"`)
    const isErrorObject =
      typeof body === 'object' && body !== null && (body as { object?: unknown }).object === 'error';
    const fault = errorBodyFault(isErrorObject ? openAiErrorShape(body) : body);
    if (fault) throw fault;
    const shown = typeof body === 'string' ? `text body '${body.slice(0, 80)}'` : parsed.error.issues[0]?.message;
    throw new MalformedResponseError(shown ?? 'unexpected shape');
  }
  const [choice] = parsed.data.choices;
  const reason = choice.finish_reason ?? null;
  if (reason === 'error') {
    const detail = choice.error?.message;
    throw new ProviderFaultError(
      `provider fault: finish_reason 'error'${detail ? `: ${clip(detail)}` : ''} (the generation failed upstream)`,
      true,
    );
  }
  const usage = parsed.data.usage;
  const reasoningTokens = usage?.completion_tokens_details?.reasoning_tokens;
  const cachedPromptTokens = usage?.prompt_tokens_details?.cached_tokens ?? usage?.prompt_cache_hit_tokens;
  const { text, thinking } = readContent(choice.message.content);
  const provided = choice.message.reasoning_content ?? choice.message.reasoning ?? '';
  const thought = [provided, thinking].filter((t) => t !== '').join('\n');
  const refusal = choice.message.refusal;
  return {
    text,
    ...(thought !== '' ? { reasoning: thought } : {}),
    ...(refusal != null && refusal !== '' ? { refusal } : {}),
    finishReason: reason !== null && KNOWN_FINISH.includes(reason) ? (reason as FinishReason) : null,
    usage: usage
      ? {
          promptTokens: usage.prompt_tokens,
          completionTokens: usage.completion_tokens,
          ...(reasoningTokens != null ? { reasoningTokens } : {}),
          ...(cachedPromptTokens != null ? { cachedPromptTokens } : {}),
          ...(usage.cost !== undefined ? { costUsd: usage.cost } : {}),
        }
      : null,
    ...(parsed.data.model ? { servedModel: parsed.data.model } : {}),
    ...(parsed.data.provider ? { servedProvider: parsed.data.provider } : {}),
  };
}
