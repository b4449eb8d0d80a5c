import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { LaunchOrder } from '../../src/assays/scc/config.js';
import { DEFAULT_SCC_CONFIG, SCHEDULES } from '../../src/assays/scc/config.js';
import { runSccAssay, type SccAssayOptions } from '../../src/assays/scc/run.js';
import type { SccResult } from '../../src/assays/scc/schema.js';
import { evaluateTier } from '../../src/assays/scc/tier.js';
import { PyRandom } from '../../src/rng/index.js';
import type { Subject, TrialRequest } from '../../src/subjects/subject.js';
import { type ArbitraryModel, arbitrarySubject, scriptedSubject, withPassingPreflight } from './helpers.js';

const path = (r: SccResult) => r.tiers.map((t) => [t.phase, t.center, t.passed, t.targets.join(',')].join(' '));
const headline = (r: SccResult) => ({
  skipped: r.skipped,
  cc: r.cc,
  upper: r.ccUpper,
  bounded: r.bounded,
  bar: r.errorBar,
});
const verdict = (r: SccResult) => ({ ...headline(r), path: path(r) });
const authors = (subject: Subject, seed: number) =>
  runSccAssay(subject, { seed, exactPeerCalls: true, schedule: 'batch-barrier' });

const arbitraryModel: fc.Arbitrary<ArbitraryModel> = fc.record({
  exact: fc.oneof(
    fc.constant(1),
    fc.double({ min: 0.9, max: 1, noNaN: true }),
    fc.double({ min: 0, max: 1, noNaN: true }),
  ),
  wrong: fc.double({ min: 0, max: 0.1, noNaN: true }),
  spread: fc.double({ min: 0, max: 0.5, noNaN: true }),
  blank: fc.double({ min: 0, max: 0.05, noNaN: true }),
  error: fc.double({ min: 0, max: 0.03, noNaN: true }),
  cut: fc.double({ min: 0, max: 0.2, noNaN: true }),
  preflight: fc.constantFrom('same', 'same', 'blank', 'error'),
  salt: fc.integer(),
});
const scriptedModel = fc.record({
  capacity: fc.integer({ min: 1, max: 3000 }),
  blank: fc.double({ min: 0, max: 0.3, noNaN: true }),
  cut: fc.double({ min: 0, max: 0.2, noNaN: true }),
  salt: fc.integer(),
});

describe('SCC schedule: largest targets first, the preflight only after a failed first tier', () => {
  it('gives the authors’ CC and every verdict on random ladders, monotone-ish or arbitrary, under every runner', async () => {
    const seen = { skipped: 0, divergent: 0, failedFirst: 0, deep: 0 };
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          scriptedModel.map((m) => ({ subject: scriptedSubject(m), preflight: 'same' })),
          arbitraryModel.map((m) => ({ subject: arbitrarySubject(m), preflight: m.preflight })),
        ),
        fc.integer({ min: 0, max: 1000 }),
        fc.integer({ min: 1, max: 16 }),
        fc.constantFrom(...SCHEDULES),
        async ({ subject }, seed, concurrency, schedule) => {
          const reference = await authors(subject, seed);
          const ours = await runSccAssay(subject, { seed, concurrency, schedule });
          expect(ours).toMatchObject({ launchOrder: 'largest-first', preflightPolicy: 'if-first-tier-fails' });
          expect(ours.tiers[0].center).toBe(DEFAULT_SCC_CONFIG.initialLength);
          // the same order with full tiers: the early decision changes no verdict there either
          const fullTiers = await runSccAssay(subject, { seed, concurrency, schedule, earlyDecision: false });
          expect(verdict(fullTiers)).toEqual(verdict(ours));
          const issued = ours.tiers.reduce((sum, t) => sum + t.issued, 0);
          expect(ours.calls).toBe(issued + (ours.preflight ? 1 : 0));
          expect(issued).toBeLessThanOrEqual(DEFAULT_SCC_CONFIG.samplesPerLength * ours.tiers.length);
          if (reference.skipped && !ours.skipped) {
            // The one record the policy changes (config.ts, PREFLIGHT_POLICIES): a first tier that passes and
            // a preflight that would not. Ours is then the authors' ladder as if the preflight had passed.
            seen.divergent++;
            expect(ours.tiers[0].passed).toBe(true);
            expect(verdict(ours)).toEqual(verdict(await authors(withPassingPreflight(subject), seed)));
            return;
          }
          expect(headline(ours)).toEqual(headline(reference));
          if (reference.skipped) {
            // The authors stopped at the preflight; ours asked it once the first tier had failed.
            seen.skipped++;
            expect(ours.tiers.map((t) => [t.center, t.passed])).toEqual([[DEFAULT_SCC_CONFIG.initialLength, false]]);
            expect(ours.preflight).toEqual(reference.preflight);
            return;
          }
          expect(path(ours)).toEqual(path(reference));
          if (!ours.tiers[0].passed) {
            seen.failedFirst++;
            expect(ours.preflight).toEqual(reference.preflight);
          } else {
            expect(ours.preflight).toBeUndefined();
          }
          if (ours.tiers.length > 3) seen.deep++;
        },
      ),
      { numRuns: 150 },
    );
    // every branch of the property was exercised
    for (const [branch, count] of Object.entries(seen)) expect(count, branch).toBeGreaterThan(0);
  }, 120_000);

  it('launches a tier by decreasing target, each trial index still with its own target', async () => {
    for (const launchOrder of ['largest-first', 'index'] as const satisfies readonly LaunchOrder[]) {
      const launched: { index: number; target: number }[] = [];
      const run = await evaluateTier(
        {
          run: async (index, target) => {
            launched.push({ index, target });
            return { kind: 'aborted', usage: null };
          },
        },
        {
          step: { phase: 'expansion', center: 32 },
          config: DEFAULT_SCC_CONFIG,
          rng: new PyRandom(7),
          drawMode: 'upfront',
          schedule: 'sequential',
          launchOrder,
          concurrency: 1,
          earlyDecision: true,
          budget: 4096,
        },
      );
      // seed 7, tier 32: the authors' draws (docs/spec/scc.md §4), whatever the launch order
      const drawn = [30, 27, 31, 35, 25, 26, 38, 33, 26, 30, 34, 25, 39, 33, 28, 25];
      expect(run.targets).toEqual(drawn);
      for (const { index, target } of launched) expect(target).toBe(drawn[index]);
      const order = launched.map((l) => l.index);
      if (launchOrder === 'index') expect(order).toEqual([...drawn.keys()]);
      else {
        expect(launched.map((l) => l.target)).toEqual([...drawn].sort((a, b) => b - a));
        // equal targets keep index order: 25 at 4, 11, 15
        expect(order.slice(-3)).toEqual([4, 11, 15]);
        expect(order[0]).toBe(12);
      }
    }
  });

  it('with early decision, settles a failing tier in fewer calls than the authors’ order', async () => {
    // Exact up to 30, 50% too high above: only the large targets can fail the tier.
    const subject: Subject = {
      identity: { spec: 'threshold', kind: 'sim', parameters: {} },
      answer: async (request: TrialRequest) => {
        const n = request.instance.answer as number;
        const text = request.instance.level === 8 || n <= 30 ? String(n) : String(Math.round(1.5 * n));
        return { kind: 'answer', text, finishReason: 'stop', latencyMs: 0, cacheHit: false, attempts: 1, usage: null };
      },
    };
    const options: SccAssayOptions = { seed: 7, concurrency: 1 };
    const ours = await runSccAssay(subject, options);
    const index = await runSccAssay(subject, { ...options, launchOrder: 'index', preflight: 'first' });
    expect(verdict(ours)).toEqual(verdict(index));
    expect(ours.cc).toBe(0);
    // Each wrong answer is ≈ 0.51 off, two of them exceed 0.05·16: index order meets them at trials 2 (31) and
    // 3 (35), largest first asks 39 and 38 first. Both ask the preflight too (first, or after the failed tier).
    expect(ours.tiers[0].issued).toBe(2);
    expect(index.tiers[0].issued).toBe(4);
    expect([ours.calls, index.calls]).toEqual([3, 5]);
  });

  it('keeps the authors’ call sequence under exactPeerCalls and lazy draws, whatever else is asked', async () => {
    const model = { capacity: 100, blank: 0, cut: 0, salt: 1 };
    const requests: TrialRequest[] = [];
    const exact = await runSccAssay(scriptedSubject(model, requests), {
      seed: 7,
      exactPeerCalls: true,
      launchOrder: 'largest-first',
      preflight: 'if-first-tier-fails',
      schedule: 'sequential',
    });
    expect(exact).toMatchObject({ launchOrder: 'index', preflightPolicy: 'first', earlyDecision: false });
    expect(requests[0].instance.level).toBe(8);
    expect(requests.slice(1, 17).map((r) => r.trialIndex)).toEqual([...Array(16).keys()]);
    const lazy = await runSccAssay(scriptedSubject(model), { seed: 7, drawMode: 'lazy', launchOrder: 'largest-first' });
    expect(lazy).toMatchObject({ launchOrder: 'index', schedule: 'sequential', earlyDecision: false });
    await expect(
      evaluateTier(
        { run: async () => ({ kind: 'aborted', usage: null }) },
        {
          step: { phase: 'expansion', center: 32 },
          config: DEFAULT_SCC_CONFIG,
          rng: new PyRandom(7),
          drawMode: 'lazy',
          schedule: 'sequential',
          launchOrder: 'largest-first',
          concurrency: 1,
          earlyDecision: false,
          budget: 4096,
        },
      ),
    ).rejects.toThrow(/needs the 'upfront' draw mode/);
  });
});
