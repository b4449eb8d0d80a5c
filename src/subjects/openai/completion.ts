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
    /** The usage the failed response carried: billed though it brought no answer (spend's "billed, no answer"). */
    readonly usage?: Usage,
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

const tokenCount = z.number().int().nonnegative();

/** A provider's breakdown of one count (`{ reasoning_tokens }`): optional, and dropped when unreadable, never the counts. */
const tokenDetail = <K extends string>(field: K) =>
  z
    .object({ [field]: tokenCount.nullable().optional() } as Record<K, z.ZodOptional<z.ZodNullable<typeof tokenCount>>>)
    .loose()
    .nullable()
    .optional()
    .catch(undefined);

const usageSchema = z.object({
  prompt_tokens: tokenCount,
  completion_tokens: tokenCount,
  /** Gemini counts thinking tokens here but not in `completion_tokens` (see `readUsage`). */
  total_tokens: tokenCount.optional().catch(undefined),
  /** Reasoning tokens, counted inside `completion_tokens`. */
  completion_tokens_details: tokenDetail('reasoning_tokens'),
  /** Prompt tokens served from the provider's prompt cache (OpenAI, OpenRouter, DeepSeek-compatible gateways). */
  prompt_tokens_details: tokenDetail('cached_tokens'),
  /** DeepSeek's own name for the cached prompt tokens (read when `prompt_tokens_details` does not say). */
  prompt_cache_hit_tokens: tokenCount.optional().catch(undefined),
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

/**
 * Providers' own finish reasons, mapped to OpenAI's. `content_filter` is passed on: the sweep records it as `api`
 * (the provider's moderation, not the model). Matched case-insensitively (Gemini's native names are upper case).
 */
const FINISH_ALIASES: Readonly<Record<string, Exclude<FinishReason, null>>> = {
  stop: 'stop',
  length: 'length',
  content_filter: 'content_filter',
  tool_calls: 'tool_calls',
  function_call: 'function_call',
  /** Mistral: the model's context was full. */
  model_length: 'length',
  /** Anthropic's and Gemini's names for the output budget. */
  max_tokens: 'length',
  /** Anthropic: the model ended its turn, or hit a stop sequence; llama.cpp/TGI: end of sequence. */
  end_turn: 'stop',
  stop_sequence: 'stop',
  eos_token: 'stop',
  eos: 'stop',
  /** Gemini's native safety, recitation and blocklist stops. */
  safety: 'content_filter',
  recitation: 'content_filter',
  prohibited_content: 'content_filter',
  blocklist: 'content_filter',
  spii: 'content_filter',
  image_safety: 'content_filter',
  tool_use: 'tool_calls',
};

/**
 * The provider's finish reason as ours (`model_length` → `length`, …); an unknown one is null. `raw` is the
 * provider's own word when it differs from the mapped value (kept on the record, so nothing is lost).
 */
export function mapFinishReason(raw: string | null | undefined): { finishReason: FinishReason; raw?: string } {
  if (raw == null) return { finishReason: null };
  const mapped = Object.hasOwn(FINISH_ALIASES, raw.toLowerCase()) ? FINISH_ALIASES[raw.toLowerCase()] : null;
  return mapped === raw ? { finishReason: mapped } : { finishReason: mapped, raw };
}

export interface Completion {
  text: string;
  /** The provider's separate reasoning channel, when it sent one (never graded). */
  reasoning?: string;
  /** The model's refusal text (`message.refusal`); the answer text is then usually empty. */
  refusal?: string;
  finishReason: FinishReason;
  /** The provider's own finish reason when it differs from `finishReason` (`model_length`, an unknown word). */
  rawFinishReason?: string;
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

/**
 * A provider's usage in our convention: `completionTokens` is every output token billed, reasoning included, and
 * `reasoningTokens` the reasoning part of it. OpenAI counts reasoning inside `completion_tokens` and reports it in
 * `completion_tokens_details.reasoning_tokens`; Gemini leaves its thinking tokens out of `completion_tokens` and
 * counts them in `total_tokens` only, so the gap `total − prompt − completion` is output too: it is added to
 * the completion and, when no detail says otherwise, is the reasoning. A reasoning count above the completion
 * cannot be part of it either, and is added the same way.
 */
export function readUsage(usage: z.infer<typeof usageSchema>): Usage {
  const reported = usage.completion_tokens_details?.reasoning_tokens ?? undefined;
  const gap = usage.total_tokens !== undefined ? usage.total_tokens - usage.prompt_tokens - usage.completion_tokens : 0;
  let completionTokens = usage.completion_tokens;
  let reasoningTokens = reported;
  if (gap > 0) {
    completionTokens += gap;
    reasoningTokens = reported ?? gap;
  } else if (reported !== undefined && reported > completionTokens) {
    completionTokens += reported;
  }
  const cachedPromptTokens = usage.prompt_tokens_details?.cached_tokens ?? usage.prompt_cache_hit_tokens;
  return {
    promptTokens: usage.prompt_tokens,
    completionTokens,
    ...(reasoningTokens !== undefined ? { reasoningTokens } : {}),
    ...(cachedPromptTokens != null ? { cachedPromptTokens } : {}),
    ...(usage.cost !== undefined ? { costUsd: usage.cost } : {}),
  };
}

const emptyChoicesSchema = z.object({
  choices: z.array(z.unknown()).max(0),
  usage: usageSchema.nullable().optional().catch(null),
});

/**
 * A 200 whose `choices` is empty (Gemini when it blocks a prompt, gateways when the upstream failed): no answer,
 * but the prompt was usually billed, and its usage is kept. Not retryable: the same prompt is refused the same
 * way, and each retry is billed again. (retry.ts reads `retryable`; this module only classifies.)
 */
function emptyChoices(body: unknown): ProviderFaultError | undefined {
  const parsed = emptyChoicesSchema.safeParse(body);
  if (!parsed.success) return undefined;
  const usage = parsed.data.usage ? readUsage(parsed.data.usage) : undefined;
  const billed = usage ? ` (billed ${usage.promptTokens} prompt and ${usage.completionTokens} completion tokens)` : '';
  return new ProviderFaultError(
    `provider fault: a 200 with empty 'choices'${billed}, no answer; not retried (the same request is refused the same way and billed again)`,
    false,
    false,
    usage,
  );
}

/** Validates what the SDK returned (it passes non-JSON bodies through as strings) and normalises the shape. */
export function readCompletion(body: unknown): Completion {
  const parsed = completionSchema.safeParse(body);
  if (!parsed.success) {
    const empty = emptyChoices(body);
    if (empty) throw empty;
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
  const usage = parsed.data.usage;
  if (reason === 'error') {
    const detail = choice.error?.message;
    throw new ProviderFaultError(
      `provider fault: finish_reason 'error'${detail ? `: ${clip(detail)}` : ''} (the generation failed upstream)`,
      true,
      false,
      usage ? readUsage(usage) : undefined,
    );
  }
  const { text, thinking } = readContent(choice.message.content);
  const provided = choice.message.reasoning_content ?? choice.message.reasoning ?? '';
  const thought = [provided, thinking].filter((t) => t !== '').join('\n');
  const refusal = choice.message.refusal;
  const finish = mapFinishReason(reason);
  return {
    text,
    ...(thought !== '' ? { reasoning: thought } : {}),
    ...(refusal != null && refusal !== '' ? { refusal } : {}),
    finishReason: finish.finishReason,
    ...(finish.raw !== undefined ? { rawFinishReason: finish.raw } : {}),
    usage: usage ? readUsage(usage) : null,
    ...(parsed.data.model ? { servedModel: parsed.data.model } : {}),
    ...(parsed.data.provider ? { servedProvider: parsed.data.provider } : {}),
  };
}
