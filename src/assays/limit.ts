export interface MapLimitOptions {
  /** The error the map rejects with when `signal` stops it; default: the signal's reason (`throwIfAborted`). */
  abortError?: () => Error;
}

/**
 * Runs `fn` over `items` with at most `limit` calls in flight (a positive integer); results keep the input
 * order. Abort rule: once `signal` aborts, no further item starts and the map rejects with
 * `options.abortError()` or, by default, the signal's reason; calls already in flight see the same signal
 * and end on their own, and the first of them to throw rejects the map instead.
 */
export async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
  signal?: AbortSignal,
  options: MapLimitOptions = {},
): Promise<R[]> {
  if (!Number.isInteger(limit) || limit < 1)
    throw new RangeError(`concurrency must be a positive integer, got ${limit}`);
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      if (signal?.aborted) {
        if (options.abortError) throw options.abortError();
        signal.throwIfAborted();
      }
      const index = next++;
      results[index] = await fn(items[index], index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, Math.max(1, items.length)) }, worker));
  return results;
}
