import { answerDetails, CACHE_FORMAT, type CacheEntry } from '../cache/entry.js';
import { cacheKey, canonicalJson, trialIdentity } from '../cache/key.js';
import type { ResponseCache } from '../cache/store.js';
import type { TrialRequest, TrialResponse } from '../subject.js';
import type { ChatMessage, ParamValue } from './request-body.js';

/** One request as the cache sees it: what is sent besides the trial. */
export interface CachedCall {
  messages: ChatMessage[];
  /** The configured body fields, output budget included (never what the process learned; see request-body.ts). */
  params: Record<string, ParamValue>;
}

export interface CacheStepOptions {
  /** No cache: every call is a miss (the key is still computed: it names the trial to the server). */
  cache?: ResponseCache;
  /** The endpoint identity (no credentials, query or fragment). */
  endpoint: string;
  model: string;
  now?: () => number;
}

/**
 * The response cache around one request. The key is everything that determines the request (endpoint, model,
 * parameters with the output budget, messages) plus the trial: task, level, instance seed and profile, and the
 * replicate index, so repeated trials are distinct entries. A hit is served with `cacheHit`, `attempts` 0 and the
 * lookup time as latency; a miss asks `miss` (given the key) and writes its answer. Errors are never written.
 */
export interface CacheStep {
  keyOf(request: TrialRequest, call: CachedCall): string;
  answer(
    request: TrialRequest,
    call: CachedCall,
    miss: (key: string) => Promise<TrialResponse>,
    startedAt?: number,
  ): Promise<TrialResponse>;
}

export function createCacheStep(options: CacheStepOptions): CacheStep {
  const now = options.now ?? (() => performance.now());
  const keyOf = (request: TrialRequest, call: CachedCall): string => {
    const { instance } = request;
    return cacheKey({
      endpoint: options.endpoint,
      model: options.model,
      params: call.params,
      messages: call.messages,
      trialIndex: request.trialIndex,
      taskId: request.taskId,
      level: instance.level,
      seed: instance.seed,
      instanceProfile: instance.profile,
    });
  };
  return {
    keyOf,
    async answer(request, call, miss, startedAt = now()) {
      const key = keyOf(request, call);
      const found = await options.cache?.get(key);
      // an entry is this request's only when the request identity it stored is this one (a hand-edited entry, or
      // one copied from another endpoint under this trial's key, is a miss: said, counted on the trial, replaced)
      const foreign = found ? foreignField(found, request, options, call.params) : undefined;
      if (found && foreign)
        options.cache?.warn(`cache: entry ${options.cache.pathOf(key)} ${foreign}; treated as a miss`);
      const cached = foreign ? undefined : found;
      if (cached) {
        const { text, finishReason, usage } = cached.response;
        return {
          kind: 'answer',
          text,
          ...answerDetails(cached.response),
          finishReason,
          usage,
          latencyMs: now() - startedAt,
          cacheHit: true,
          attempts: 0,
          cacheKey: key,
          ...(cached.response.batch !== undefined ? { batch: cached.response.batch } : {}),
        };
      }
      const response = await miss(key);
      if (response.kind !== 'answer') return response;
      await options.cache?.put(entryOf(key, request, options, call.params, response));
      return { ...response, cacheKey: key, ...(foreign ? { cacheMismatch: foreign } : {}) };
    },
  };
}

/**
 * Why a stored entry is not this request's, naming the first field that differs (subject endpoint, model, trial,
 * prompt hash, sampling and budget parameters); undefined when it is.
 */
export function foreignField(
  entry: CacheEntry,
  request: TrialRequest,
  options: Pick<CacheStepOptions, 'endpoint' | 'model'>,
  params: CacheEntry['meta']['params'],
): string | undefined {
  const expected: Record<string, unknown> = {
    endpoint: options.endpoint,
    model: options.model,
    ...trialIdentity(request),
  };
  const stored = entry.meta as unknown as Record<string, unknown>;
  for (const [field, value] of Object.entries(expected))
    if (stored[field] !== value)
      return `belongs to another request (${field}: stored ${JSON.stringify(stored[field])}, this request ${JSON.stringify(value)})`;
  if (canonicalJson(entry.meta.params) !== canonicalJson(params))
    return `belongs to another request (parameters: stored ${canonicalJson(entry.meta.params)}, this request ${canonicalJson(params)})`;
  return undefined;
}

function entryOf(
  key: string,
  request: TrialRequest,
  options: CacheStepOptions,
  params: CacheEntry['meta']['params'],
  response: Extract<TrialResponse, { kind: 'answer' }>,
): CacheEntry {
  const { text, finishReason, usage, latencyMs, attempts } = response;
  return {
    format: CACHE_FORMAT,
    key,
    meta: {
      endpoint: options.endpoint,
      model: options.model,
      ...trialIdentity(request),
      params,
    },
    response: {
      text,
      ...answerDetails(response),
      finishReason,
      usage,
      latencyMs,
      attempts,
    },
  };
}
