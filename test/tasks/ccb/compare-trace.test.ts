import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { firstDivergence } from '../../../src/assays/sweep/examples.js';
import { PyRandom } from '../../../src/rng/index.js';
import { generateCell } from '../../../src/tasks/instances.js';
import { resolveTask } from '../../../src/tasks/registry.js';

// compareTrace shows the trace the grader read: its first divergent step is the grader's k* whenever the
// trace is readable, and the canonical response matches the canonical trace everywhere.

describe.each(['d1', 'd2', 'd3'])('%s compareTrace', (id) => {
  const task = resolveTask(id);
  const compare = task.compareTrace;
  if (!compare) throw new Error(`${id} declares no compareTrace`);
  const instances = [5, 15].flatMap((level) => generateCell(task, level, 4, { profile: task.profiles[0] }));

  it('finds no divergence in the canonical response, and the answer matches', () => {
    for (const instance of instances) {
      const comparison = compare(instance, task.canonicalResponse(instance));
      expect(firstDivergence(comparison)).toBe(-1);
      expect(comparison.canonical.length).toBe(instance.level);
      expect(comparison.answer.model).toBe(comparison.answer.canonical);
    }
  });

  it("marks the grader's k* on simulated responses with a readable trace", () => {
    fc.assert(
      fc.property(
        fc.nat({ max: instances.length - 1 }),
        fc.nat(),
        fc.double({ min: 0.3, max: 1, noNaN: true }),
        (i, seed, p) => {
          const instance = instances[i];
          const text = task.simulate(instance, new PyRandom(seed), { retention: p, recover: 0.2, capacity: 10 });
          const outcome = task.grade(instance, text);
          if (outcome.family !== 'ccb' || outcome.traceReadable !== true) return;
          expect(firstDivergence(compare(instance, text))).toBe(outcome.kStar);
        },
      ),
      { numRuns: 60 },
    );
  });
});
