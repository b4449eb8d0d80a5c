import type { TierWalk } from '../tier-walk.js';
import type { SccTrialRecord } from '../trial.js';

/**
 * The authors' parallel runner: the first trial alone, then batches of `batchSize` at the budget in force when the
 * batch starts; promotion and the abort rule after each batch (in index order), the early decision on every
 * completion.
 */
export async function runBatchBarrier(walk: TierWalk, sequence: readonly number[], batchSize: number): Promise<void> {
  const first = await walk.launch(sequence[0], walk.budget);
  if (first) walk.absorb([first]);
  for (let start = 1; start < sequence.length && !walk.stopped(); start += batchSize) {
    const batchBudget = walk.budget;
    const done: SccTrialRecord[] = [];
    const results = await Promise.all(
      sequence.slice(start, start + batchSize).map(async (index) => {
        const record = await walk.launch(index, batchBudget);
        if (record) {
          done.push(record);
          walk.watch(done);
        }
        return record;
      }),
    );
    walk.absorb(results.filter((r): r is SccTrialRecord => r !== null).sort((a, b) => a.trialIndex - b.trialIndex));
  }
}
