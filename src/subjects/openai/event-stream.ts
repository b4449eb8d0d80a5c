import { z } from 'zod';
import {
  type Completion,
  errorBodyFault,
  MalformedResponseError,
  ProviderFaultError,
  partSchema,
  readCompletion,
  readContent,
} from './completion.js';

/**
 * A chat-completion event stream (`text/event-stream`), read into the same normalised completion as a JSON body.
 * Streams arrive in two ways: a streaming request (`CEILINGBENCH_STREAM`), or a stream-only endpoint that
 * answers every request with a stream. Content deltas are the answer; `reasoning_content`/`reasoning` deltas
 * and thinking parts the reasoning channel; the last finish_reason, `model` and `provider` are kept; the usage
 * is the last usage a chunk carried (OpenAI's final `include_usage` chunk), else null (unknown). The reassembled
 * body goes through `readCompletion`, so every rule of the JSON path (finish reasons, usage validation,
 * `finish_reason: "error"`) holds for streams too.
 *
 * Provider faults: an `{"error": …}` event is the provider's fault (retryable when its code says so, as in a
 * 200 body); data that is not JSON, a stream without any choice, and a stream cut off before both `[DONE]`
 * and a finish_reason are malformed (retryable), never a model failure.
 */

const deltaSchema = z
  .object({
    content: z
      .union([z.string(), z.array(partSchema)])
      .nullable()
      .optional()
      .catch(undefined),
    reasoning_content: z.string().nullable().optional().catch(undefined),
    reasoning: z.string().nullable().optional().catch(undefined),
    refusal: z.string().nullable().optional().catch(undefined),
  })
  .loose();

const chunkSchema = z
  .object({
    model: z.string().optional().catch(undefined),
    provider: z.string().optional().catch(undefined),
    choices: z
      .array(
        z
          .object({
            index: z.number().optional().catch(undefined),
            delta: deltaSchema.nullable().optional().catch(undefined),
            finish_reason: z.string().nullable().optional().catch(undefined),
            error: z.object({ message: z.string().optional() }).loose().optional().catch(undefined),
          })
          .loose(),
      )
      .optional()
      .catch(undefined),
    usage: z.unknown().optional(),
  })
  .loose();

interface SseEvent {
  event?: string;
  data: string;
}

/** Server-sent events as the WHATWG spec splits them: `data:` lines joined by newlines, comments skipped. */
export function parseServerSentEvents(text: string): SseEvent[] {
  const events: SseEvent[] = [];
  let data: string[] = [];
  let event: string | undefined;
  const dispatch = () => {
    if (data.length > 0) events.push({ ...(event !== undefined ? { event } : {}), data: data.join('\n') });
    data = [];
    event = undefined;
  };
  for (const line of text.split(/\r\n|\r|\n/)) {
    if (line === '') {
      dispatch();
      continue;
    }
    if (line.startsWith(':')) continue; // a comment (OpenRouter's `: OPENROUTER PROCESSING` keep-alives)
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') data.push(value);
    else if (field === 'event') event = value;
  }
  dispatch(); // a last event without its blank line
  return events;
}

/** Whether a body is an event stream: by its content type, or (a mislabelled one) by its first field. */
export const isEventStream = (contentType: string | null, text: string): boolean =>
  /text\/event-stream/i.test(contentType ?? '') || /^\s*(data|event):/.test(text);

export function readEventStream(text: string): Completion {
  let answer = '';
  let thinking = '';
  let reasoningContent = '';
  let reasoning = '';
  let refusal = '';
  let finishReason: string | null = null;
  let choiceError: { message?: string } | undefined;
  let usage: unknown;
  let model: string | undefined;
  let provider: string | undefined;
  let sawChoice = false;
  let done = false;
  for (const { event, data } of parseServerSentEvents(text)) {
    if (data.trim() === '[DONE]') {
      done = true;
      break;
    }
    let json: unknown;
    try {
      json = JSON.parse(data);
    } catch {
      throw new MalformedResponseError(`event stream data that is not JSON: '${data.slice(0, 80)}'`);
    }
    const fault = errorBodyFault(json);
    if (fault) throw fault;
    if (event === 'error')
      throw new ProviderFaultError(`provider error event in the stream: ${data.slice(0, 300)}`, true);
    const chunk = chunkSchema.safeParse(json);
    if (!chunk.success) throw new MalformedResponseError(`event stream chunk: ${chunk.error.issues[0]?.message}`);
    const c = chunk.data;
    if (c.model) model = c.model;
    if (c.provider) provider = c.provider;
    if (c.usage !== undefined && c.usage !== null) usage = c.usage;
    for (const choice of c.choices ?? []) {
      if ((choice.index ?? 0) !== 0) continue; // one answer per request (n = 1)
      sawChoice = true;
      const delta = choice.delta;
      if (delta) {
        const content = readContent(delta.content);
        answer += content.text;
        thinking += content.thinking;
        reasoningContent += delta.reasoning_content ?? '';
        reasoning += delta.reasoning ?? '';
        refusal += delta.refusal ?? '';
      }
      if (choice.finish_reason != null) finishReason = choice.finish_reason;
      if (choice.error) choiceError = choice.error;
    }
  }
  // a stream that carried usage but no choice was billed for no answer (completion.ts: empty choices)
  if (!sawChoice && usage !== undefined) return readCompletion({ choices: [], usage });
  if (!sawChoice) throw new MalformedResponseError('event stream without a choice');
  if (!done && finishReason === null) {
    throw new MalformedResponseError('event stream ended before [DONE] and without a finish_reason (cut off)');
  }
  const message: Record<string, unknown> = {
    role: 'assistant',
    content:
      thinking !== ''
        ? [
            { type: 'thinking', thinking },
            { type: 'text', text: answer },
          ]
        : answer,
    ...(reasoningContent !== '' ? { reasoning_content: reasoningContent } : {}),
    ...(reasoning !== '' ? { reasoning } : {}),
    ...(refusal !== '' ? { refusal } : {}),
  };
  return readCompletion({
    ...(model !== undefined ? { model } : {}),
    ...(provider !== undefined ? { provider } : {}),
    choices: [{ message, finish_reason: finishReason, ...(choiceError ? { error: choiceError } : {}) }],
    ...(usage !== undefined ? { usage } : {}),
  });
}
