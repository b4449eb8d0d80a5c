import type { RetryClock } from '../../src/subjects/openai/retry.js';

/**
 * A retry clock in virtual time for many concurrent trials: `sleep` registers a timer, and `run` advances time to
 * the earliest timer (all timers due then) only once every pending promise has settled (the simulated endpoint answers without real
 * I/O), so a 40 s wait costs no wall time and concurrent sleeps keep their order. Sleeps that end at the same
 * time wake in the order they were asked for, as real timers do.
 */
export function virtualClock(start = 0) {
  let now = start;
  let seq = 0;
  const timers: { at: number; seq: number; resolve: (woke: boolean) => void }[] = [];
  const clock: RetryClock = {
    now: () => now,
    sleep: (ms, signal) =>
      new Promise<boolean>((resolve) => {
        if (signal?.aborted) return resolve(false);
        timers.push({ at: now + Math.max(0, ms), seq: seq++, resolve });
      }),
  };
  const settle = async () => {
    for (let i = 0; i < 30; i++) await new Promise((r) => setImmediate(r));
  };
  /** Drives `work` to its end, advancing time from timer to timer. */
  async function run<T>(work: Promise<T>): Promise<T> {
    let done = false;
    const watched = work.finally(() => {
      done = true;
    });
    for (let steps = 0; steps < 100_000; steps++) {
      await settle();
      if (done) return watched;
      timers.sort((a, b) => a.at - b.at || a.seq - b.seq);
      const at = timers[0]?.at;
      if (at === undefined) continue;
      now = Math.max(now, at);
      // every timer due now fires in one turn, in the order asked for, as real timers do
      while (timers[0]?.at === at) timers.shift()?.resolve(true);
    }
    throw new Error('virtual clock: the work did not finish');
  }
  return { clock, run, now: () => now };
}
