import type { TierWalk } from '../tier-walk.js';

/** The authors' older runner: one trial at a time, promotion and the abort check after each. */
export async function runSequential(walk: TierWalk, sequence: readonly number[]): Promise<void> {
  for (let i = 0; i < sequence.length && !walk.stopped(); i++) {
    const record = await walk.launch(sequence[i], walk.budget);
    if (record) walk.absorb([record]);
  }
}
