import type { AnyTaskPlugin, SimKnobs } from '../../tasks/task.js';
import type { SimSpec } from '../spec.js';

/**
 * Knobs of each sim profile, per task. `sim:default` — the subject used when nothing is configured:
 *
 * | task family | knobs |
 * |---|---|
 * | CCB d1, d2 (and any other CCB task) | retention p = 0.95 |
 * | CCB d3 | retention p = 0.80 |
 * | puzzles | retention p = 0.90 per move, at every level (the collapse comes from longer solutions) |
 * | counting (count, nested) | capacity cc = 96 |
 *
 * recover = 0 everywhere, so for a stepwise task with N steps P(correct | N) = p^N exactly.
 * Knobs a family does not use are neutral: retention 1 for counting, capacity ∞ for stepwise tasks.
 * `sim:retention?p=…` applies p (and recover) to every task; `sim:counting?cc=…` applies cc to every task.
 */
export const DEFAULT_MIX = {
  ccb: { d1: 0.95, d2: 0.95, d3: 0.8, other: 0.95 },
  puzzle: 0.9,
  countCapacity: 96,
} as const;

const stepwise = (retention: number, recover = 0): SimKnobs => ({
  retention,
  recover,
  capacity: Number.POSITIVE_INFINITY,
});

function defaultKnobs(task: AnyTaskPlugin): SimKnobs {
  switch (task.family) {
    case 'ccb': {
      const byId: Record<string, number> = DEFAULT_MIX.ccb;
      return stepwise(byId[task.id] ?? DEFAULT_MIX.ccb.other);
    }
    case 'puzzle':
      return stepwise(DEFAULT_MIX.puzzle);
    case 'count':
      return { retention: 1, recover: 0, capacity: DEFAULT_MIX.countCapacity };
  }
}

/** The knobs a sim profile gives one task (levels do not change them in any current profile). */
export function knobsFor(spec: SimSpec, task: AnyTaskPlugin): SimKnobs {
  switch (spec.profile) {
    case 'default':
      return defaultKnobs(task);
    case 'retention':
      return stepwise(spec.params.p, spec.params.recover);
    case 'counting':
      return { retention: 1, recover: 0, capacity: spec.params.cc };
  }
}
