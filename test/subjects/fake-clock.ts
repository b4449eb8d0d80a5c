import type { RetryClock } from '../../src/subjects/openai/retry.js';

/**
 * A retry clock that never waits: `sleep` records the delay asked for and moves time forward by it at once, so
 * tests check backoffs and time budgets by counting, never by measuring wall time.
 */
export function fakeClock(start = 1_000): RetryClock & { sleeps: number[]; advance(ms: number): void } {
  let now = start;
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => now,
    advance: (ms) => {
      now += ms;
    },
    sleep: async (ms, signal) => {
      if (signal?.aborted) return false;
      sleeps.push(ms);
      now += ms;
      return true;
    },
  };
}
