import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runSccAssay, type SccAssayOptions } from '../../src/assays/scc/run.js';
import type { SccResult } from '../../src/assays/scc/schema.js';
import { tierMustFail } from '../../src/assays/scc/tally.js';
import type { TrialRequest } from '../../src/subjects/subject.js';
import { type ScriptedModel, scriptedSubject } from './helpers.js';

/**
 * A deferred preflight (`if-first-tier-fails`) that fails ends the run as the authors' skipped record, yet keeps
 * the first tier it followed in `tiers`: those trials were spent, but they are not on the authors' search path.
 */
const skippedAfterFirstTier = (r: SccResult) => r.skipped && r.preflightPolicy === 'if-first-tier-fails';
const path = (r: SccResult) =>
  skippedAfterFirstTier(r) ? [] : r.tiers.map((t) => [t.phase, t.center, t.passed, t.targets.join(',')].join(' '));
const verdict = (r: SccResult) => ({ cc: r.cc, upper: r.ccUpper, bounded: r.bounded, bar: r.errorBar, path: path(r) });

async function run(model: ScriptedModel, options: SccAssayOptions) {
  return runSccAssay(scriptedSubject(model), options);
}

describe('early tier decision', () => {
  it('gives the same path, verdicts and CC as full tiers under every schedule', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          capacity: fc.integer({ min: 1, max: 3000 }),
          blank: fc.double({ min: 0, max: 0.3, noNaN: true }),
          cut: fc.double({ min: 0, max: 0.2, noNaN: true }),
          salt: fc.integer(),
        }),
        fc.integer({ min: 0, max: 1000 }),
        fc.integer({ min: 1, max: 16 }),
        async (model, seed, concurrency) => {
          const full = await run(model, { seed, exactPeerCalls: true, schedule: 'batch-barrier' });
          const early = await run(model, { seed, concurrency });
          const earlyBatch = await run(model, { seed, schedule: 'batch-barrier' });
          const earlySeq = await run(model, { seed, schedule: 'sequential' });
          for (const r of [early, earlyBatch, earlySeq]) {
            expect(verdict(r)).toEqual(verdict(full));
            if (skippedAfterFirstTier(r)) expect(r.tiers.map((t) => t.passed)).toEqual([false]);
          }
          // The one schedule that can cost more than the authors': a failed first tier before a failed preflight.
          const extra = skippedAfterFirstTier(earlySeq) ? full.config.samplesPerLength : 0;
          expect(early.calls).toBeLessThanOrEqual(full.calls + extra + early.tiers.length * concurrency);
          expect(earlySeq.calls + earlySeq.callsSaved).toBe(full.calls + extra);
        },
      ),
      { numRuns: 40 },
    );
  }, 60_000);

  it('keeps the failed first tier of a model its deferred preflight then skips (the counterexample CI found)', async () => {
    const model = { capacity: 1, blank: 0.09212911291979255, cut: 0, salt: 7008734 };
    const full = await run(model, { seed: 0, exactPeerCalls: true, schedule: 'batch-barrier' });
    const early = await run(model, { seed: 0, concurrency: 1 });
    expect(full.skipped && early.skipped).toBe(true);
    expect(full.tiers).toEqual([]);
    expect(early.tiers.map((t) => [t.center, t.passed])).toEqual([[32, false]]);
    expect(verdict(early)).toEqual(verdict(full));
  });

  it('saves calls on failing tiers and none on passing ones', async () => {
    const model = { capacity: 100, blank: 0, cut: 0, salt: 1 };
    const full = await run(model, { seed: 7, exactPeerCalls: true, schedule: 'sequential' });
    const early = await run(model, { seed: 7, schedule: 'sequential' });
    expect(early.callsSaved).toBeGreaterThan(0);
    expect(early.calls).toBe(full.calls - early.callsSaved);
    for (const tier of early.tiers) {
      if (tier.passed) expect(tier.trials).toHaveLength(16);
      if (tier.decidedEarly) expect(tier.passed).toBe(false);
    }
    expect(full.tiers.every((t) => !t.decidedEarly && t.trials.length === 16)).toBe(true);
  });

  it('aborts trials in flight through the AbortSignal', async () => {
    const requests: TrialRequest[] = [];
    const model = { capacity: 60, blank: 0.5, cut: 0, salt: 3, latencyMs: 2 };
    const result = await runSccAssay(scriptedSubject(model, requests), { seed: 11, concurrency: 8 });
    const aborted = result.tiers.reduce((s, t) => s + t.aborted, 0);
    expect(aborted).toBeGreaterThan(0);
    expect(requests.some((r) => r.signal?.aborted)).toBe(true);
    const reference = await run({ ...model, latencyMs: 0 }, { seed: 11, exactPeerCalls: true });
    expect(verdict(result)).toEqual(verdict(reference));
  });

  it('never decides a tier the exact rule would pass', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 0, max: 0.2, noNaN: true }), { minLength: 16, maxLength: 16 }),
        (errors) => {
          const trials = errors.map((relativeError) => ({ relativeError }));
          const mean = errors.reduce((a, b) => a + b, 0) / 16;
          for (let k = 1; k <= 16; k++) {
            if (tierMustFail(trials.slice(0, k), 16, 0.05)) expect(mean).toBeGreaterThan(0.05);
          }
        },
      ),
    );
    expect(tierMustFail([{ relativeError: null }], 16, 0.05)).toBe(true);
    expect(tierMustFail([{ relativeError: 0.8 }], 16, 0.05)).toBe(false);
    expect(tierMustFail([{ relativeError: 0.81 }], 16, 0.05)).toBe(true);
  });

  it('is off in lazy draw mode, which runs one trial at a time', async () => {
    const result = await run({ capacity: 100, blank: 0, cut: 0, salt: 1 }, { seed: 7, drawMode: 'lazy' });
    expect(result.earlyDecision).toBe(false);
    expect(result.schedule).toBe('sequential');
    expect(result.tiers.every((t) => !t.decidedEarly && t.issued === 16)).toBe(true);
    // only the preflight, not needed after a passed first tier
    expect(result.callsSaved).toBe(1);
  });
});
