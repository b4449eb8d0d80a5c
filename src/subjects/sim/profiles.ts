import type { AnyTaskPlugin, SimKnobs } from '../../tasks/task.js';
import type { SimSpec } from '../spec.js';

/**
 * Knobs of each sim profile, per task. `sim:default` — the subject used when nothing is configured — applies
 * what each plugin declares as its `simDefault` (shipped: CCB d1, d2 retention p = 0.95, d3 p = 0.80; puzzles
 * p = 0.90 per move at every level, the collapse coming from longer solutions; counting tasks capacity
 * cc = 96). recover = 0 in all of them, so for a stepwise task with N steps P(correct | N) = p^N exactly.
 * Knobs a task does not use are neutral: retention 1 for counting, capacity ∞ for stepwise tasks.
 * `sim:retention?p=…` applies p (and recover) to every task; `sim:counting?cc=…` applies cc to every task.
 */
const stepwise = (retention: number, recover = 0): SimKnobs => ({
  retention,
  recover,
  capacity: Number.POSITIVE_INFINITY,
});

/** The knobs a sim profile gives one task (levels do not change them in any current profile). */
export function knobsFor(spec: SimSpec, task: AnyTaskPlugin): SimKnobs {
  switch (spec.profile) {
    case 'default':
      return task.simDefault;
    case 'retention':
      return stepwise(spec.params.p, spec.params.recover);
    case 'counting':
      return { retention: 1, recover: 0, capacity: spec.params.cc };
  }
}
