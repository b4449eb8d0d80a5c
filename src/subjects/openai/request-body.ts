import type { Prompt } from '../../tasks/task.js';

/** How the task's system prompt reaches the provider. */
export type SystemRole = 'system' | 'developer' | 'merge';
/** The body field that carries the output budget. */
export type MaxTokensParam = 'max_completion_tokens' | 'max_tokens';
/** A request parameter value we send (objects and arrays are not supported: they could not be cache-key scalars). */
export type ParamValue = string | number | boolean;

export interface ProviderOptions {
  /** 'merge' sends one user message `system + "\n\n" + user` (models without a system role). Default 'system'. */
  systemRole?: SystemRole;
  /**
   * Default: 'max_completion_tokens' for api.openai.com, 'max_tokens' for every other endpoint; when the
   * default is rejected as unsupported, the other one (see `adaptToRejection`).
   */
  maxTokensParam?: MaxTokensParam;
  /** Default 0 (dropped when the provider rejects it, see `adaptToRejection`); null omits the field. */
  temperature?: number | null;
  /** The provider `seed` parameter. Off (not sent) unless set; independent of the run/instance seed. */
  seed?: number | null;
  reasoningEffort?: 'minimal' | 'low' | 'medium' | 'high' | null;
  /**
   * Any other body field, sent as given (`top_p`, `presence_penalty`, …); null removes a field this module
   * would otherwise send (e.g. `{ temperature: null }`). Applied last, so it also overrides the fields above.
   */
  params?: Record<string, ParamValue | null>;
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

/** What a provider taught us by rejecting a default (see `adaptToRejection`); process-wide per endpoint+model. */
export interface Adaptation {
  maxTokensParam?: MaxTokensParam;
  dropTemperature?: boolean;
  /** The endpoint answers streamed requests only (its 400 said so): every request is sent with `stream: true`. */
  streamOnly?: boolean;
  /** The endpoint rejected `stream_options`: streamed requests are sent without it (usage may then be unknown). */
  noStreamOptions?: boolean;
}

/**
 * Transport lessons from a 400, no configuration needed: an endpoint that answers only streamed requests and says
 * so ("only support stream mode", "stream must be true", …) is sent every request streamed from then on; one that
 * rejects `stream_options` is sent streamed requests without it. Undefined when the rejection teaches neither.
 */
export function adaptTransport(
  current: Adaptation,
  streamed: boolean,
  rejection: { status: number | undefined; param?: string | null; message: string },
): Adaptation | undefined {
  if (rejection.status !== 400) return undefined;
  const { message } = rejection;
  if (streamed && !current.noStreamOptions && (rejection.param === 'stream_options' || /stream_options/i.test(message)))
    return { ...current, noStreamOptions: true };
  const streamOnly =
    /only supports? (the )?stream(ing)?( mode)?|only stream(ing)?( mode)? (is )?supported|stream(ing)?( mode)? (is )?required|stream must be (set to )?true|requires? (`|')?stream(`|')?(: ?| to be | = )?true|non-stream(ing)? (mode |requests? )?(is |are )?not supported/i;
  if (!streamed && !current.streamOnly && streamOnly.test(message)) return { ...current, streamOnly: true };
  return undefined;
}

/**
 * The request parameters other than model and messages, for a given output budget. Without `adaptation`
 * these are the *configured* parameters: the cache key and the identity are computed from them, so a key
 * does not depend on what this process happened to learn, and spelling out a default changes nothing.
 */
export function buildParams(
  options: ProviderOptions,
  endpointIdentity: string,
  budget: number,
  adaptation: Adaptation = {},
): Record<string, ParamValue> {
  const params: Record<string, ParamValue | null> = {};
  const temperature = options.temperature === undefined ? (adaptation.dropTemperature ? null : 0) : options.temperature;
  if (temperature !== null) params.temperature = temperature;
  if (options.seed !== undefined && options.seed !== null) params.seed = options.seed;
  if (options.reasoningEffort !== undefined && options.reasoningEffort !== null)
    params.reasoning_effort = options.reasoningEffort;
  const budgetField = options.maxTokensParam ?? adaptation.maxTokensParam ?? defaultMaxTokensParam(endpointIdentity);
  params[budgetField] = budget;
  for (const [name, value] of Object.entries(options.params ?? {})) {
    if (name === 'model' || name === 'messages' || name === budgetField) continue; // never overridden
    params[name] = value;
  }
  return Object.fromEntries(Object.entries(params).filter((entry): entry is [string, ParamValue] => entry[1] !== null));
}

/**
 * o-series and gpt-5 models (and Azure deployments of them, whose names are the user's) reject `max_tokens`
 * and any `temperature` but the default with a 400 "Unsupported parameter"/"Unsupported value". We do not
 * guess from model names (deployment names and OpenRouter slugs say nothing reliable); we learn it from the
 * provider's rejection instead: once per endpoint+model the rejected *default* is replaced (`max_tokens` ↔
 * `max_completion_tokens`) or dropped (`temperature`), the request is sent again at once, and the rest of
 * the process sends the adapted body. A parameter the user set explicitly is never adapted: its 400 stands.
 * Returns the new adaptation, or undefined when the rejection is not one we can adapt to.
 */
export function adaptToRejection(
  options: ProviderOptions,
  current: Adaptation,
  sent: Record<string, ParamValue>,
  rejection: { status: number | undefined; param?: string | null; code?: string | null; message: string },
): Adaptation | undefined {
  if (rejection.status !== 400) return undefined;
  const unsupported =
    rejection.code === 'unsupported_parameter' ||
    rejection.code === 'unsupported_value' ||
    /unsupported (parameter|value)|not supported|does not support/i.test(rejection.message);
  if (!unsupported) return undefined;
  const named = (name: string) =>
    rejection.param === name || new RegExp(`['"\`]${name}['"\`]|\\b${name}\\b`).test(rejection.message);
  const explicit = options.params ?? {};
  // A default we sent, that the provider names, and that the user did not set explicitly.
  const rejectedDefault = (name: string) => name in sent && named(name) && !(name in explicit);
  if (current.maxTokensParam === undefined && options.maxTokensParam === undefined) {
    if (rejectedDefault('max_tokens')) return { ...current, maxTokensParam: 'max_completion_tokens' };
    if (rejectedDefault('max_completion_tokens')) return { ...current, maxTokensParam: 'max_tokens' };
  }
  if (!current.dropTemperature && options.temperature === undefined && rejectedDefault('temperature'))
    return { ...current, dropTemperature: true };
  return undefined;
}

/** What `after` learned beyond `before`, in words for the record (`max_completion_tokens`, `stream only`, …). */
export function lessonsOf(before: Adaptation, after: Adaptation): string[] {
  const lessons: string[] = [];
  if (after.maxTokensParam !== before.maxTokensParam && after.maxTokensParam) lessons.push(after.maxTokensParam);
  if (after.dropTemperature && !before.dropTemperature) lessons.push('no temperature');
  if (after.streamOnly && !before.streamOnly) lessons.push('stream only');
  if (after.noStreamOptions && !before.noStreamOptions) lessons.push('no stream_options');
  return lessons;
}

const learned = new Map<string, Adaptation>();
const NOTHING_LEARNED: Adaptation = Object.freeze({});

/** What this process learned for an endpoint+model (one object per lesson, so callers may compare identity). */
export const learnedAdaptation = (endpointIdentity: string, model: string): Adaptation =>
  learned.get(`${endpointIdentity}|${model}`) ?? NOTHING_LEARNED;

export function rememberAdaptation(endpointIdentity: string, model: string, adaptation: Adaptation): void {
  learned.set(`${endpointIdentity}|${model}`, adaptation);
}

/** The request parameters a report may show (budget field name, not its per-level value). */
export function identityParameters(
  options: ProviderOptions,
  endpoint: string,
): Record<string, string | number | boolean> {
  const parameters: Record<string, string | number | boolean> = {};
  for (const [name, value] of Object.entries(buildParams(options, endpoint, 0))) {
    if (value === null) continue;
    if (name.startsWith('max_')) parameters.maxTokensParam = name;
    else parameters[name] = value;
  }
  parameters.systemRole = options.systemRole ?? 'system';
  return parameters;
}
