import { describe, expect, it } from 'vitest';
import { runSccAssay } from '../../src/assays/scc/run.js';
import { sccResultSchema } from '../../src/assays/scc/schema.js';
import { PyRandom } from '../../src/rng/index.js';
import { createSubject } from '../../src/subjects/index.js';
import { gradeCount } from '../../src/tasks/count/grade.js';
import { countInstance, countPlugin } from '../../src/tasks/count/plugin.js';

describe('sim:counting', () => {
  it('measures a CC whose ladder bounds contain 96 for sim:counting?cc=96, on 60 seeds', async () => {
    const subject = await createSubject('sim:counting?cc=96');
    for (let seed = 0; seed < 60; seed++) {
      const result = sccResultSchema.parse(await runSccAssay(subject, { seed }));
      expect(result.ccLower, `seed ${seed}`).toBeLessThanOrEqual(96);
      expect(result.ccUpper ?? Number.POSITIVE_INFINITY, `seed ${seed}`).toBeGreaterThanOrEqual(96);
    }
  }, 60_000);

  it('lands within the ladder precision (≈10%) of other capacities', async () => {
    for (const capacity of [40, 150, 333, 1000]) {
      const subject = await createSubject(`sim:counting?cc=${capacity}`);
      for (let seed = 0; seed < 10; seed++) {
        const result = await runSccAssay(subject, { seed });
        // The bracket [ccLower, ccUpper] is ≈10% wide and lies within 10% of the capacity.
        expect(result.ccLower).toBeLessThanOrEqual(1.1 * capacity);
        expect(result.ccUpper ?? Number.POSITIVE_INFINITY).toBeGreaterThanOrEqual(0.9 * capacity);
        expect(result.ccLower).toBeGreaterThanOrEqual(0.8 * capacity);
      }
    }
  }, 60_000);

  it('is exact below capacity and collapses to attractors and broken formats far past it', () => {
    const knobs = { retention: 1, recover: 0, capacity: 96 };
    const rng = new PyRandom(1);
    for (let n = 1; n <= 86; n++) expect(countPlugin.simulate(countInstance(n, n, 0), rng, knobs)).toBe(String(n));
    const far = Array.from({ length: 400 }, (_, i) =>
      countPlugin.simulate(countInstance(300, 300, 0), new PyRandom(i), knobs),
    );
    const formats = new Set(far.map((text) => gradeCount(300, text).format));
    expect(formats).toEqual(new Set(['single-integer', 'step-by-step', 'blank', 'prompt-echo']));
    const numbers = far.filter((t) => /^\d+$/.test(t)).map(Number);
    expect(numbers.every((v) => [50, 100, 200, 250, 500, 1000].includes(v))).toBe(true);
  });

  it('reports attractors, tokens per count at CC and the format audit', async () => {
    const result = await runSccAssay(await createSubject('sim:counting?cc=96'), { seed: 7 });
    expect(result.attractors.length).toBeGreaterThan(0);
    expect(result.attractors.every((a) => a.count >= 2 && a.share > 0 && a.share <= 1)).toBe(true);
    expect(result.tokensPerCountAtCc.center).toBe(result.cc);
    expect(result.tokensPerCountAtCc.trials).toBe(16);
    // the first tier passed, so the default schedule never asked the preflight
    expect(result.preflight).toBeUndefined();
    expect(result.formatAudit.reduce((s, r) => s + r.cases, 0)).toBe(
      result.tiers.reduce((s, t) => s + t.trials.length, 0),
    );
  });
});
