import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  charsPerTokenCounter,
  costFractionBound,
  likelihoodBelief,
  mostInformativeDepth,
  mostInformativeDepthPerCost,
  nextDepth,
  runAdaptiveDesign,
  runAdaptiveSweep,
  type TrialCost,
  trialCostModel,
  trialInformation,
} from '../../src/assays/adaptive/index.js';
import { PyRandom } from '../../src/rng/index.js';
import { fitRetention, profileLikelihoodCI } from '../../src/stats/index.js';
import { createSubject } from '../../src/subjects/index.js';
import { resolveTask } from '../../src/tasks/registry.js';
import type { AnyTaskPlugin } from '../../src/tasks/task.js';

const GRID = [5, 10, 15, 20, 25, 30, 35, 40, 45, 50].map((depth) => ({ depth, n: 40 }));
const d1 = resolveTask('d1');
/** The D1 length model: the paper's mean response tokens per depth (≈ 56 + 28.5·N). */
const d1Tokens: TrialCost = (depth) => d1.expectedOutputTokens?.(depth) ?? Number.NaN;

function bernoulli(p: number, seed: number | string) {
  const rng = new PyRandom(seed);
  const asked: number[] = [];
  return {
    asked,
    answer: async (depth: number) => {
      asked.push(depth);
      return rng.random() < p ** depth;
    },
  };
}

/** A cost that never falls with depth: a positive base plus non-negative increments (some may be 0). */
const growingCost = (maxDepth: number) =>
  fc
    .tuple(
      fc.double({ min: 0.01, max: 1000, noNaN: true }),
      fc.array(fc.double({ min: 0, max: 200, noNaN: true }), { minLength: maxDepth, maxLength: maxDepth }),
    )
    .map(([base, steps]) => {
      const table = [base];
      for (const step of steps) table.push(table[table.length - 1] + step);
      return (depth: number) => table[depth - 1];
    });

const depthRange = fc
  .tuple(fc.integer({ min: 1, max: 30 }), fc.integer({ min: 0, max: 40 }))
  .map(([minDepth, span]) => ({ minDepth, maxDepth: minDepth + span }));

const belief = fc.array(
  fc.record({
    p: fc.double({ min: 0.3, max: 0.999, noNaN: true }),
    weight: fc.double({ min: 0.01, max: 1, noNaN: true }),
  }),
  { minLength: 1, maxLength: 8 },
);

describe('information per unit cost: the depth choice', () => {
  it('with a cost constant in N picks the call design’s depth (the most informative at p)', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0.05, max: 0.999, noNaN: true }),
        depthRange,
        fc.double({ min: 1e-6, max: 1e6, noNaN: true }),
        (p, { minDepth, maxDepth }, c) => {
          const perCost = mostInformativeDepthPerCost([{ p, weight: 1 }], () => c, maxDepth, minDepth);
          expect(perCost).toBe(mostInformativeDepth(p, maxDepth, minDepth));
        },
      ),
    );
  });

  it('with a cost growing in N never picks a deeper depth than the call design', () => {
    fc.assert(
      fc.property(fc.double({ min: 0.05, max: 0.999, noNaN: true }), depthRange, (p, { minDepth, maxDepth }) =>
        fc.assert(
          fc.property(growingCost(maxDepth), (cost) => {
            expect(mostInformativeDepthPerCost([{ p, weight: 1 }], cost, maxDepth, minDepth)).toBeLessThanOrEqual(
              mostInformativeDepth(p, maxDepth, minDepth),
            );
          }),
          { numRuns: 5 },
        ),
      ),
      { numRuns: 60 },
    );
  });

  it('under a belief spread over p: the brute-force argmax of expected information per cost, never deeper than at a constant cost', () => {
    fc.assert(
      fc.property(belief, depthRange, growingCost(70), (points, { minDepth, maxDepth }, cost) => {
        const chosen = mostInformativeDepthPerCost(points, cost, maxDepth, minDepth);
        const value = (d: number) =>
          points.reduce((s, { p, weight }) => s + weight * trialInformation(p, d), 0) / cost(d);
        for (let d = minDepth; d <= maxDepth; d++) expect(value(chosen)).toBeGreaterThanOrEqual(value(d));
        expect(chosen).toBeLessThanOrEqual(mostInformativeDepthPerCost(points, () => 1, maxDepth, minDepth));
      }),
    );
  });

  it("the design's next depth: growing cost never deeper than constant cost on the same data; p̂ = 1 climbs from the interval's middle", () => {
    const data = fc
      .array(
        fc.record({
          depth: fc.integer({ min: 5, max: 50 }),
          n: fc.integer({ min: 1, max: 60 }),
          share: fc.double({ min: 0, max: 1, noNaN: true }),
        }),
        { minLength: 1, maxLength: 6 },
      )
      .map((cells) => cells.map(({ depth, n, share }) => ({ depth, n, correct: Math.round(share * n) })));
    fc.assert(
      fc.property(data, growingCost(50), (counts, cost) => {
        const fit = fitRetention(counts);
        const state = { data: counts, pd: fit.pd, profileCi95: profileLikelihoodCI(counts) };
        const growing = nextDepth({ kind: 'cost', cost }, state, 50, 5);
        const flat = nextDepth({ kind: 'cost', cost: () => 1 }, state, 50, 5);
        expect(growing).toBeGreaterThanOrEqual(5);
        expect(growing).toBeLessThanOrEqual(flat);
      }),
      { numRuns: 60 },
    );
    // Eight successes at depth 5 and no failure: not the deepest depth (the call design's choice at p̂ = 1).
    const allRight = [{ depth: 5, correct: 8, n: 8 }];
    const state = { data: allRight, pd: 1, profileCi95: profileLikelihoodCI(allRight) };
    expect(nextDepth({ kind: 'calls' }, state, 50, 5)).toBe(50);
    expect(nextDepth({ kind: 'cost', cost: d1Tokens }, state, 50, 5)).toBeLessThan(20);
  });

  it('weights the belief by the likelihood: the heaviest point sits next to p̂', () => {
    const counts = [{ depth: 10, correct: 30, n: 80 }];
    const fit = fitRetention(counts);
    const points = likelihoodBelief(counts, fit.pd, profileLikelihoodCI(counts));
    const heaviest = points.reduce((a, b) => (b.weight > a.weight ? b : a));
    expect(Math.abs(heaviest.p - fit.pd)).toBeLessThan((points[1].p - points[0].p) * 1.01);
    expect(() => likelihoodBelief([{ depth: 5, correct: 4, n: 4 }], 1, [0.9, 1])).toThrow(/failure/);
  });

  it('its cost bound is below the call bound in cost and equal to it at a constant cost', () => {
    for (const p of [0.7, 0.9, 0.99]) {
      expect(costFractionBound(p, GRID, () => 3, 50, 5)).toBeCloseTo(
        // at a constant cost the cost fraction is the calls fraction
        GRID.reduce((s, c) => s + c.n * trialInformation(p, c.depth), 0) /
          400 /
          trialInformation(p, mostInformativeDepth(p, 50, 5)),
        12,
      );
      expect(costFractionBound(p, GRID, d1Tokens, 50, 5)).toBeLessThanOrEqual(1);
    }
  });
});

describe('runAdaptiveDesign with objective cost', () => {
  const run = (p: number, seed: number, extra: Partial<Parameters<typeof runAdaptiveDesign>[0]> = {}) => {
    const sim = bernoulli(p, `cost|${p}|${seed}`);
    return runAdaptiveDesign({
      answer: sim.answer,
      minDepth: 5,
      maxDepth: 50,
      targetWidth: 0.03,
      seed,
      maxTrials: 4000,
      resamples: 200,
      objective: { kind: 'cost', cost: d1Tokens },
      ...extra,
    }).then((result) => ({ result, asked: sim.asked }));
  };

  it('pilots at the cheapest depth, keeps every trial inside the depth range, and adds up the cost of what it asked', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.double({ min: 0.6, max: 0.995, noNaN: true }),
        depthRange,
        fc.integer({ min: 0, max: 1e6 }),
        async (p, { minDepth, maxDepth }, seed) => {
          const sim = bernoulli(p, seed);
          const result = await runAdaptiveDesign({
            answer: sim.answer,
            minDepth,
            maxDepth,
            targetWidth: 0.05,
            seed,
            maxTrials: 120,
            resamples: 50,
            objective: { kind: 'cost', cost: (d) => 40 + 29 * d },
          });
          expect(result.steps[0]).toMatchObject({ phase: 'pilot', depth: minDepth, trials: 8 });
          for (const depth of sim.asked) {
            expect(depth).toBeGreaterThanOrEqual(minDepth);
            expect(depth).toBeLessThanOrEqual(maxDepth);
          }
          expect(result.calls).toBe(sim.asked.length);
          expect(result.calls).toBeLessThanOrEqual(120);
          expect(result.cost).toBeCloseTo(
            sim.asked.reduce((s, d) => s + 40 + 29 * d, 0),
            6,
          );
        },
      ),
      { numRuns: 25 },
    );
  });

  it('honours the stop rule: it stops at the first look whose interval is narrow enough, and not before', async () => {
    for (const p of [0.7, 0.9, 0.99]) {
      const { result } = await run(p, 1, { targetWidth: 0.02 });
      expect(result.stopReason).toBe('width');
      const looks = result.steps.filter((s, i) => s.phase === 'allocate' || i === 0);
      expect(looks.at(-1)?.width).toBeLessThanOrEqual(0.02);
      for (const look of looks.slice(0, -1)) expect(look.width).toBeGreaterThan(0.02);
      expect(result.profileCi95[1] - result.profileCi95[0]).toBeLessThanOrEqual(0.02);
    }
    const capped = await run(0.9, 2, { targetWidth: 0.001, maxTrials: 50 });
    expect(capped.result).toMatchObject({ stopReason: 'maxTrials', calls: 50 });
    const matched = await run(0.8, 3, { targetWidth: { matchDesign: GRID } });
    expect(matched.result.stopReason).toBe('width');
    expect(matched.result.profileCi95[1] - matched.result.profileCi95[0]).toBeLessThanOrEqual(
      matched.result.targetWidth,
    );
  });

  it('never stops on an interval that reaches the fit’s floor p = 0.5 (a truncated width, not a precise one)', async () => {
    // 24 failures at depth 5 give the profile interval [0.5, 0.638]: narrower than 0.14, and far from p = 0.7.
    const allWrong = [{ depth: 5, correct: 0, n: 24 }];
    const [lo, hi] = profileLikelihoodCI(allWrong);
    expect(lo).toBe(0.5);
    expect(hi - lo).toBeLessThan(0.14);
    for (const targetWidth of [0.14, { matchDesign: GRID }]) {
      const result = await runAdaptiveDesign({
        answer: async () => false,
        minDepth: 5,
        maxDepth: 50,
        targetWidth,
        seed: 0,
        maxTrials: 64,
        resamples: 50,
        objective: { kind: 'cost', cost: d1Tokens },
      });
      expect(result).toMatchObject({ stopReason: 'maxTrials', calls: 64 });
    }
  });

  it('is deterministic: the same seed gives the same allocation, interval and cost', async () => {
    const [a, b] = [await run(0.95, 7), await run(0.95, 7)];
    expect(a.asked).toEqual(b.asked);
    expect(a.result).toEqual(b.result);
  });

  it('never counts a missing answer as a success: it is a call (and a cost), in no denominator', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 1e6 }),
        fc.double({ min: 0.1, max: 0.9, noNaN: true }),
        async (seed, missingShare) => {
          const rng = new PyRandom(seed);
          let successes = 0;
          let failures = 0;
          let missing = 0;
          const answer = async (depth: number) => {
            if (rng.random() < missingShare) {
              missing++;
              return null;
            }
            const right = rng.random() < 0.9 ** depth;
            if (right) successes++;
            else failures++;
            return right;
          };
          const result = await runAdaptiveDesign({
            answer,
            minDepth: 5,
            maxDepth: 50,
            targetWidth: 0.05,
            seed,
            maxTrials: 200,
            resamples: 50,
            objective: { kind: 'cost', cost: d1Tokens },
          });
          expect(result.missing).toBe(missing);
          expect(result.counts.reduce((s, c) => s + c.correct, 0)).toBe(successes);
          expect(result.counts.reduce((s, c) => s + c.n - c.correct, 0)).toBe(failures);
          expect(result.calls).toBe(successes + failures + missing);
        },
      ),
      { numRuns: 20 },
    );
    // Only missing answers: no data, so no estimate above the model's floor and no stop on width.
    const none = await runAdaptiveDesign({
      answer: async () => null,
      minDepth: 5,
      maxDepth: 50,
      targetWidth: 0.05,
      seed: 0,
      maxTrials: 40,
      resamples: 50,
      objective: { kind: 'cost', cost: d1Tokens },
    });
    expect(none).toMatchObject({ calls: 40, missing: 40, counts: [], stopReason: 'maxTrials' });
  });

  it('spends less priced cost than the call design for the same width when deeper trials cost more (p = 0.9, D1 lengths)', async () => {
    let cost = 0;
    let calls = 0;
    for (let seed = 0; seed < 12; seed++) {
      cost += (await run(0.9, seed)).result.cost ?? Number.NaN;
      const sim = bernoulli(0.9, `cost|0.9|${seed}`);
      const callDesign = await runAdaptiveDesign({
        answer: sim.answer,
        minDepth: 5,
        maxDepth: 50,
        targetWidth: 0.03,
        seed,
        maxTrials: 4000,
        resamples: 200,
      });
      expect(callDesign.objective).toBe('calls');
      expect(callDesign.cost).toBeNull();
      calls += sim.asked.reduce((s, d) => s + d1Tokens(d), 0);
    }
    // The asymptotic ratio at p = 0.9 is ≈ 0.6 (depth 5 against depth 15); a gross failure, not an estimate.
    expect(cost / calls).toBeLessThan(0.8);
  });

  it('never spends more than maxCost: a batch is cut to what fits, and the stop says why', async () => {
    for (const maxCost of [183 * 8, 5000, 20000]) {
      const { result, asked } = await run(0.95, 4, { targetWidth: 0.001, maxCost });
      expect(result.stopReason).toBe('maxCost');
      expect(result.cost).toBeLessThanOrEqual(maxCost);
      expect(asked.reduce((s, d) => s + d1Tokens(d), 0)).toBeCloseTo(result.cost ?? Number.NaN, 6);
      // it stopped because the next trial did not fit, not earlier: less than the dearest trial was left
      expect(maxCost - (result.cost ?? 0)).toBeLessThan(d1Tokens(50));
    }
    await expect(
      runAdaptiveDesign({
        answer: async () => true,
        maxDepth: 10,
        targetWidth: 0.1,
        seed: 0,
        maxTrials: 10,
        maxCost: 5,
      }),
    ).rejects.toThrow(/maxCost=5 needs objective 'cost'/);
  });

  it('rejects a cost that is not finite and positive, naming the depth', async () => {
    const answer = async () => true;
    const base = { answer, minDepth: 5, maxDepth: 10, targetWidth: 0.1, seed: 0, maxTrials: 10 };
    await expect(
      runAdaptiveDesign({ ...base, objective: { kind: 'cost', cost: (d) => (d === 7 ? 0 : 1) } }),
    ).rejects.toThrow(/cost\(7\)=0/);
    await expect(runAdaptiveDesign({ ...base, objective: { kind: 'cost', cost: () => Number.NaN } })).rejects.toThrow(
      /cost\(5\)/,
    );
    await expect(
      runAdaptiveDesign({ ...base, objective: { kind: 'cost', cost: () => 1 }, pilot: { depths: [4] } }),
    ).rejects.toThrow(/pilot depth 4 is outside 5…10/);
  });
});

describe('trialCostModel: what one trial at a depth is expected to cost', () => {
  it('without a price: the task’s expected output tokens (the D1 length model), no prompt rendered', () => {
    const cost = trialCostModel(d1, { price: null });
    expect(cost(5)).toBe(183);
    expect(cost(50)).toBe(1497);
    expect(cost(12)).toBeGreaterThan(cost(10));
    // a zero price orders nothing: tokens alone
    expect(trialCostModel(d1, { price: { input: 0, output: 0 }, tokens: charsPerTokenCounter })(5)).toBe(183);
  });

  it('with a price: prompt tokens × input + expected output tokens × output, per million, from the rendered prompts', () => {
    const price = { input: 0.15, output: 0.6 };
    const counted: string[] = [];
    const tokens = {
      prompt: (prompt: { system: string; user: string }) => {
        counted.push(prompt.user);
        return 1000;
      },
      text: () => 1,
    };
    const cost = trialCostModel(d1, { price, tokens, samples: 3 });
    expect(cost(20)).toBeCloseTo((1000 * 0.15 + 636 * 0.6) / 1e6, 15);
    expect(counted).toHaveLength(3);
    cost(20);
    expect(counted).toHaveLength(3); // memoised per depth
    const real = trialCostModel(d1, { price, tokens: charsPerTokenCounter });
    expect(real(50) - real(5)).toBeGreaterThan(0); // deeper prompts are longer, and so are the answers
  });

  it('a task without a length model: the counted canonical responses; a needed counter that is missing is an error', () => {
    const { expectedOutputTokens: _, ...rest } = d1;
    const bare = rest as AnyTaskPlugin;
    const cost = trialCostModel(bare, { price: null, tokens: charsPerTokenCounter });
    expect(cost(10)).toBeGreaterThan(0);
    expect(cost(40)).toBeGreaterThan(cost(10));
    expect(() => trialCostModel(bare, { price: null })).toThrow(/token counter/);
    expect(() => trialCostModel(d1, { price: { input: 1, output: 1 } })).toThrow(/token counter/);
  });
});

describe('runAdaptiveSweep: cost by default, over the grid’s depths', () => {
  it('uses depths 5…50 and the task’s cost model; objective calls stays available and reproducible', async () => {
    const subject = await createSubject('sim:retention?p=0.9');
    const options = { seed: 0, missing: 'paper' as const, concurrency: 4, maxMissingFraction: 0.1, gridTrials: 40 };
    const cost = await runAdaptiveSweep({ project: 'd1', task: d1 }, subject, options);
    expect(cost.design.objective).toBe('cost');
    // same seed, same subject: the same allocation, counts, interval and cells
    const costAgain = await runAdaptiveSweep({ project: 'd1', task: d1 }, subject, options);
    expect(costAgain.design).toEqual(cost.design);
    expect(costAgain.cells.map((c) => [c.level, c.n, c.successes])).toEqual(
      cost.cells.map((c) => [c.level, c.n, c.successes]),
    );
    for (const cell of cost.cells) {
      expect(cell.level).toBeGreaterThanOrEqual(5);
      expect(cell.level).toBeLessThanOrEqual(50);
    }
    const spent = cost.cells.reduce((s, c) => s + c.n * d1Tokens(c.level), 0);
    expect(cost.design.cost).toBeCloseTo(spent, 6);
    // capped by default at what the grid would cost (40 trials at each of 5, 10, …, 50)
    const grid = GRID.reduce((s, c) => s + c.n * d1Tokens(c.depth), 0);
    const capped = await runAdaptiveSweep({ project: 'd1', task: d1, targetWidth: 0.0005 }, subject, options);
    expect(capped.design.stopReason).toBe('maxCost');
    expect(capped.design.cost).toBeLessThanOrEqual(grid);
    expect(capped.design.cost).toBeGreaterThan(grid - d1Tokens(50));
    expect(cost.fit.ci95[0]).toBeLessThanOrEqual(0.9);
    expect(cost.fit.ci95[1]).toBeGreaterThanOrEqual(0.9);

    const calls = await runAdaptiveSweep({ project: 'd1', task: d1, objective: 'calls' }, subject, options);
    const again = await runAdaptiveSweep({ project: 'd1', task: d1, objective: 'calls' }, subject, options);
    expect(calls.design.objective).toBe('calls');
    expect(again.design).toEqual(calls.design);
    expect(calls.cells.every((c) => c.level >= 5)).toBe(true);
    const callsSpent = calls.cells.reduce((s, c) => s + c.n * d1Tokens(c.level), 0);
    expect(spent).toBeLessThan(callsSpent);
  });
});
