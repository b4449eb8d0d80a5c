import type { TierWalk } from '../tier-walk.js';

/** Ours: `concurrency` trials in flight at once, promotion and the early decision after every completed trial. */
export async function runPool(walk: TierWalk, sequence: readonly number[], concurrency: number): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < sequence.length && !walk.stopped()) {
      const record = await walk.launch(sequence[next++], walk.budget);
      if (record) walk.absorb([record]);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, sequence.length)) }, worker));
}
