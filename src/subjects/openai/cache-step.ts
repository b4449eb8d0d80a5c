import { answerDetails, CACHE_FORMAT, type CacheEntry } from '../cache/entry.js';
import { cacheKey, trialIdentity } from '../cache/key.js';
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
      const cached = await options.cache?.get(key);
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
        };
      }
      const response = await miss(key);
      if (response.kind !== 'answer') return response;
      await options.cache?.put(entryOf(key, request, options, call.params, response));
      return { ...response, cacheKey: key };
    },
  };
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
