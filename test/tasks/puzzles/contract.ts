import fc from 'fast-check';
import { expect } from 'vitest';
import { PyRandom } from '../../../src/rng/index.js';
import type { AnyTaskPlugin, TaskInstance } from '../../../src/tasks/index.js';

/**
 * Checks shared by the puzzle families' tests. Fuzz: texts built from the family's own answer-format
 * tokens and arbitrary strings must grade as pass/fail/collapse (never throw) and parse without throwing.
 */
export function expectGarbageClassified(task: AnyTaskPlugin, instance: TaskInstance, tokens: string[]): void {
  const piece = fc.oneof(fc.string(), fc.constantFrom(...tokens));
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 30 }), fc.constantFrom('stop', 'length', null), (parts, reason) => {
      const outcome = task.grade(instance, parts.join(''), { finishReason: reason });
      expect(['pass', 'fail', 'collapse']).toContain(outcome.kind);
      task.parse(parts.join(''));
    }),
    { numRuns: 500 },
  );
}

/** Pass rate of the simulated model over `samples` instances (seeds 0…samples−1) at one level and retention. */
export function simulatedPassRate(
  task: AnyTaskPlugin,
  make: (level: number, seed: number) => TaskInstance,
  level: number,
  retention: number,
  options: { samples: number; rngSeedBase: number },
): number {
  let pass = 0;
  for (let seed = 0; seed < options.samples; seed++) {
    const instance = make(level, seed);
    const text = task.simulate(instance, new PyRandom(options.rngSeedBase + seed), {
      retention,
      recover: 0,
      capacity: 0,
    });
    if (task.grade(instance, text).kind === 'pass') pass++;
  }
  return pass / options.samples;
}
