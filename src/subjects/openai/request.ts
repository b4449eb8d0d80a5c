import OpenAI, { APIError } from 'openai';
import type { ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions';
import { type Completion, readCompletion } from './completion.js';
import type { Endpoint } from './endpoint.js';
import { errorEnvelope } from './error-body.js';
import { isEventStream, readEventStream } from './event-stream.js';
import {
  type Adaptation,
  adaptToRejection,
  adaptTransport,
  type ChatMessage,
  learnedAdaptation,
  lessonsOf,
  type ParamValue,
  type ProviderOptions,
  rememberAdaptation,
} from './request-body.js';
import { createTransport } from './transport.js';

/** Header carrying the trial's cache key, so a server (or a proxy log) can tell repeated trials apart. */
export const TRIAL_HEADER = 'x-ceilingbench-trial';

/**
 * The SDK client, reading error bodies of every shape (error-body.ts): the SDK hands over the body parsed as JSON,
 * or its text when it is not JSON, and reads a message from `body.error` only (a Gemini list, a FastAPI `detail`,
 * vLLM's top-level message, a proxy's HTML page all became "(no body)" or raw text).
 */
class ChatClient extends OpenAI {
  protected override makeStatusError(
    status: number,
    error: object,
    message: string | undefined,
    headers: Headers,
  ): APIError {
    const envelope = errorEnvelope(error ?? undefined, message);
    return super.makeStatusError(status, (envelope ?? error) as object, envelope ? undefined : message, headers);
  }
}

/**
 * The SDK client of an endpoint. Its own retries are off (`maxRetries: 0`): ours are in retry.ts. The key and
 * the extra headers live in the client only; they are never part of a request record, a key or an error.
 * `timeoutMs` (the request timeout) sets the transport's connect, headers and body timeouts (transport.ts), so
 * no default of the HTTP stack cuts a long generation before it does.
 */
export function createChatClient(
  endpoint: Endpoint,
  headers: Record<string, string> | undefined,
  timeoutMs: number,
  fetch?: typeof globalThis.fetch,
): OpenAI {
  return new ChatClient({
    baseURL: endpoint.baseURL,
    apiKey: endpoint.apiKey,
    defaultQuery: endpoint.defaultQuery,
    ...(headers ? { defaultHeaders: headers } : {}),
    maxRetries: 0,
    // an injected fetch (tests' simulated endpoints) replaces the transport and its timeouts
    fetch: fetch ?? createTransport(timeoutMs, SDK_TIMEOUT_BACKSTOP_MS),
  });
}

export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  /** Every other body field, the output budget included (request-body.ts `buildParams`). */
  params: Record<string, ParamValue>;
  signal?: AbortSignal;
  /** One timeout over the whole response: connection, headers and the body to its last byte. */
  timeoutMs: number;
  /** Ask for an event stream (`stream: true`, with `stream_options.include_usage` so usage is still reported). */
  stream?: boolean;
  /** Leave `stream_options` out of a streamed request (an endpoint that rejected it, see `adaptTransport`). */
  noStreamOptions?: boolean;
  /** Sent as TRIAL_HEADER when given. */
  trialKey?: string;
  /** Told the headers of a 2xx response (the rate limits an endpoint states, limiter.ts `learn`). */
  onHeaders?: (headers: Headers) => void;
}

/**
 * The request did not complete within its timeout, headers and body together (a hung server, or a body that
 * trickles in): a transport fault, retried; `api` when the attempts run out.
 */
export class RequestTimeoutError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`request timed out after ${timeoutMs} ms (headers and body)`);
    this.name = 'RequestTimeoutError';
  }
}

/** The SDK's own timeout stops at the headers; ours covers the body, so the SDK's is only a backstop behind it. */
const SDK_TIMEOUT_BACKSTOP_MS = 1_000;

/** What a streaming request adds to the body; never part of the cache key (a transport detail). */
const STREAM_FIELDS = { stream: true, stream_options: { include_usage: true } } as const;
const STREAM_ONLY_FIELD = { stream: true } as const;

/**
 * Sends one chat-completion request (no retry) and normalises the answer, a JSON body or an event stream
 * (asked for, or sent by a stream-only endpoint unasked). `timeoutMs` bounds the whole response: when it
 * passes, headers or body still pending, the request is aborted with a RequestTimeoutError. Throws what the
 * SDK (status and connection errors), the body (a cut-off connection) or the readers throw.
 */
export async function sendChatCompletion(client: OpenAI, request: ChatRequest): Promise<Completion> {
  const body = {
    model: request.model,
    messages: request.messages,
    ...request.params,
    ...(request.stream ? (request.noStreamOptions ? STREAM_ONLY_FIELD : STREAM_FIELDS) : {}),
  };
  const timeoutMs = Math.max(1, Math.floor(request.timeoutMs));
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(), timeoutMs);
  const signal = request.signal ? AbortSignal.any([request.signal, timeout.signal]) : timeout.signal;
  try {
    const response = await client.chat.completions
      .create(body as ChatCompletionCreateParamsNonStreaming, {
        signal,
        timeout: timeoutMs + SDK_TIMEOUT_BACKSTOP_MS,
        maxRetries: 0,
        headers: request.trialKey === undefined ? undefined : { [TRIAL_HEADER]: request.trialKey },
      })
      .asResponse();
    request.onHeaders?.(response.headers);
    const text = await response.text(); // aborted with the request when the timeout passes mid-body
    return readBody(response.headers.get('content-type'), text);
  } catch (error) {
    if (timeout.signal.aborted && !request.signal?.aborted) throw new RequestTimeoutError(timeoutMs);
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A 2xx body: an event stream, else JSON (a JSON content type that does not parse throws SyntaxError, a
 * retryable truncated body), else the text itself, which `readCompletion` rejects as not a completion.
 */
function readBody(contentType: string | null, text: string): Completion {
  if (isEventStream(contentType, text)) return readEventStream(text);
  const mediaType = contentType?.split(';')[0]?.trim() ?? '';
  if (mediaType.includes('application/json') || mediaType.endsWith('+json')) return readCompletion(JSON.parse(text));
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON either: readCompletion reports the text body
  }
  return readCompletion(parsed);
}

/**
 * Learns from a 400 that rejected one of our defaults (o-series and friends, see `adaptToRejection`; a stream-only
 * endpoint or one rejecting `stream_options`, see `adaptTransport`; `streamed`: the failed request was): returns
 * what was learned, in words (`lessonsOf`), when the request should be sent again at once with the adapted body,
 * else undefined. `sentWith` is the adaptation the failed request was built with; when another trial learned
 * something newer meanwhile, that lesson is kept.
 */
export function learnFromRejection(
  error: unknown,
  options: ProviderOptions,
  endpointIdentity: string,
  model: string,
  sentWith: Adaptation,
  sent: Record<string, ParamValue>,
  streamed = false,
): string[] | undefined {
  if (!(error instanceof APIError)) return undefined;
  const current = learnedAdaptation(endpointIdentity, model);
  const adapted = adaptToRejection(options, sentWith, sent, error) ?? adaptTransport(sentWith, streamed, error);
  if (!adapted) return undefined;
  if (current === sentWith) rememberAdaptation(endpointIdentity, model, adapted);
  return lessonsOf(sentWith, adapted);
}
