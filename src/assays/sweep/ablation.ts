import type { CellResult } from '../../schema/cell.js';
import type { Ablation } from '../../schema/fit.js';
import { mcnemarFromPairs } from '../../stats/index.js';
import { isMissing, isSuccess } from '../../tasks/outcome.js';

/**
 * Paired comparison of prompt variants on the same instances (paper 000 ablations): trials are paired
 * by instance seed; a pair with an API fault on either side is missing data and dropped.
 */
export function compareVariants(baseline: CellResult, variants: readonly CellResult[], project: string): Ablation {
  const pairKey = (t: { seed: number; trialIndex: number }) => `${t.seed}:${t.trialIndex}`;
  const bySeed = new Map(baseline.trials.map((t) => [pairKey(t), t]));
  return {
    kind: 'ablation',
    project,
    task: baseline.task,
    level: baseline.level,
    baseline: baseline.variant,
    comparisons: variants.map((cell) => {
      const pairs: Array<[boolean, boolean]> = [];
      for (const trial of cell.trials) {
        const base = bySeed.get(pairKey(trial));
        if (!base || isMissing(base.outcome) || isMissing(trial.outcome)) continue;
        pairs.push([isSuccess(base.outcome), isSuccess(trial.outcome)]);
      }
      const test = mcnemarFromPairs(pairs);
      return {
        variant: cell.variant,
        pairs: pairs.length,
        baselineCorrect: pairs.filter(([a]) => a).length,
        variantCorrect: pairs.filter(([, b]) => b).length,
        table: test.table,
        b: test.b,
        c: test.c,
        p: test.p,
      };
    }),
  };
}
