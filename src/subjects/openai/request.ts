import OpenAI, { APIError } from 'openai';
import type { ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions';
import { type Completion, openAiErrorShape, readCompletion } from './completion.js';
import type { Endpoint } from './endpoint.js';
import {
  type Adaptation,
  adaptToRejection,
  type ChatMessage,
  learnedAdaptation,
  type ParamValue,
  type ProviderOptions,
  rememberAdaptation,
} from './request-body.js';

/** Header carrying the trial's cache key, so a server (or a proxy log) can tell repeated trials apart. */
export const TRIAL_HEADER = 'x-ceilingbench-trial';

/** The SDK client, reading error messages from the top level of the body too (see `openAiErrorShape`). */
class ChatClient extends OpenAI {
  protected override makeStatusError(
    status: number,
    error: object,
    message: string | undefined,
    headers: Headers,
  ): APIError {
    return super.makeStatusError(status, openAiErrorShape(error) as object, message, headers);
  }
}

/**
 * The SDK client of an endpoint. Its own retries are off (`maxRetries: 0`): ours are in retry.ts. The key and
 * the extra headers live in the client only; they are never part of a request record, a key or an error.
 */
export function createChatClient(endpoint: Endpoint, headers?: Record<string, string>): OpenAI {
  return new ChatClient({
    baseURL: endpoint.baseURL,
    apiKey: endpoint.apiKey,
    defaultQuery: endpoint.defaultQuery,
    ...(headers ? { defaultHeaders: headers } : {}),
    maxRetries: 0,
  });
}

export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  /** Every other body field, the output budget included (request-body.ts `buildParams`). */
  params: Record<string, ParamValue>;
  signal?: AbortSignal;
  timeoutMs: number;
  /** Sent as TRIAL_HEADER when given. */
  trialKey?: string;
}

/** Sends one chat-completion request (no retry) and normalises the answer; throws what the SDK or `readCompletion` throws. */
export async function sendChatCompletion(client: OpenAI, request: ChatRequest): Promise<Completion> {
  const body = { model: request.model, messages: request.messages, ...request.params };
  const raw: unknown = await client.chat.completions.create(body as ChatCompletionCreateParamsNonStreaming, {
    signal: request.signal,
    timeout: Math.max(1, Math.floor(request.timeoutMs)),
    maxRetries: 0,
    headers: request.trialKey === undefined ? undefined : { [TRIAL_HEADER]: request.trialKey },
  });
  return readCompletion(raw);
}

/**
 * Learns from a 400 that rejected one of our defaults (o-series and friends, see `adaptToRejection`): returns
 * true when the request should be sent again at once with the adapted body. `sentWith` is the adaptation the
 * failed request was built with; when another trial learned something newer meanwhile, that lesson is kept.
 */
export function learnFromRejection(
  error: unknown,
  options: ProviderOptions,
  endpointIdentity: string,
  model: string,
  sentWith: Adaptation,
  sent: Record<string, ParamValue>,
): boolean {
  if (!(error instanceof APIError)) return false;
  const current = learnedAdaptation(endpointIdentity, model);
  const adapted = adaptToRejection(options, sentWith, sent, error);
  if (!adapted) return false;
  if (current === sentWith) rememberAdaptation(endpointIdentity, model, adapted);
  return true;
}
