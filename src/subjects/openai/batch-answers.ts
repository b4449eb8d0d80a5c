import type { TrialResponse } from '../subject.js';
import { BATCH_ABSENT, type BatchState, batchMiss, emptyBatchState, readBatchState } from './batch-state.js';

/**
 * What a batch-mode openai subject (`ceilingbench run --batch`) reads in the batch state beside the response cache
 * (batches.json, read once): the answer to a request the cache does not hold — never sent live — and whether an
 * answer the cache holds was bought for this run.
 */
export interface BatchAnswers {
  /**
   * A request the cache does not hold: `api` with the provider's reason when a batch failed it (or saying that no
   * batch answered it), `budget` (not sent) when a spending limit held it back.
   */
  miss(key: string, start: number): Promise<TrialResponse>;
  /**
   * An answer the last `run --batch` pass collected was bought for this run (one request, sent through the batch):
   * not a cache hit — its tokens are this run's spend, at the batch price (reporters/projections/spend.ts). An answer
   * of an earlier pass's batch is a cache hit like any other.
   */
  paid(response: TrialResponse): Promise<TrialResponse>;
}

export function batchAnswers(cacheDir: string | undefined, now: () => number): BatchAnswers {
  let state: Promise<BatchState> | undefined;
  const read = (): Promise<BatchState> =>
    (state ??= cacheDir ? readBatchState(cacheDir) : Promise.resolve(emptyBatchState()));
  return {
    async miss(key, start) {
      const miss = batchMiss(await read(), key);
      const latencyMs = now() - start;
      if (miss.kind === 'held') return { kind: 'not-sent', reason: miss.reason, latencyMs, attempts: 0 };
      return { kind: 'error', error: miss.kind === 'failed' ? miss.reason : BATCH_ABSENT, latencyMs, attempts: 0 };
    },
    async paid(response) {
      if (response.kind !== 'answer' || !response.cacheHit || response.batch === undefined) return response;
      const batch = response.batch;
      const record = (await read()).batches.find((r) => r.batchId === batch);
      return record?.lastPass ? { ...response, cacheHit: false, attempts: 1 } : response;
    },
  };
}
