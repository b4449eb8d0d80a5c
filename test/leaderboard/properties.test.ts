import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareAccuracy, compareRetention, type RetentionSide } from '../../src/leaderboard/differences.js';
import { bootstrapP, buildLeaderboard, type LeaderboardSubject, pairSweeps } from '../../src/leaderboard/index.js';
import { countedTally, levelsOf, sweepKey } from '../../src/leaderboard/input.js';
import type { Comparison } from '../../src/schema/leaderboard.js';
import type { CcbOutcomeKind } from '../../src/tasks/outcome.js';
import { type SynthTrial, synthSubject } from './synthetic.js';

const DEPTHS = [5, 10, 20];
const SETTINGS = { resamples: 60, seed: 3 };

/** Outcome kinds, weighted towards answers; every missing-data kind of the paper rule appears. */
const kind = fc.constantFrom<CcbOutcomeKind>(
  'correct',
  'correct',
  'correct',
  'reasoning',
  'reasoning',
  'constraint',
  'format',
  'truncation',
  'api',
  'budget',
);
const MISSING_KINDS: CcbOutcomeKind[] = ['api', 'budget', 'format', 'truncation'];

const identity = (depth: number, i: number) => ({ seed: depth * 10_000 + i, trialIndex: 0 });

/** A subject's trials: `sizes[d]` per depth; `shifted` = another run seed (other instance seeds: unpaired). */
const subjectTrials = (sizes: readonly number[]) =>
  fc.record({
    kinds: fc.tuple(...sizes.map((m) => fc.array(kind, { minLength: m, maxLength: m }))),
    shifted: fc.boolean(),
  });

const boardInput = fc
  .tuple(...DEPTHS.map(() => fc.integer({ min: 1, max: 8 })))
  .chain((sizes) => fc.array(subjectTrials(sizes), { minLength: 2, maxLength: 4 }));

function toSubjects(generated: ReadonlyArray<{ kinds: CcbOutcomeKind[][]; shifted: boolean }>): LeaderboardSubject[] {
  return generated.map((g, s) => {
    const byLevel = new Map<number, SynthTrial[]>();
    DEPTHS.forEach((depth, d) => {
      byLevel.set(
        depth,
        g.kinds[d].map((k, i) => {
          const id = identity(depth, i);
          return { ...id, seed: id.seed + (g.shifted ? 1_000_000 : 0), kind: k };
        }),
      );
    });
    return synthSubject(`s${s}`, byLevel, 'paper', g.shifted ? 1 : 0);
  });
}

const sideOf = (s: LeaderboardSubject): RetentionSide => ({
  label: s.subject,
  seed: s.seed,
  fit: s.fits[0],
  levels: levelsOf(s.cells, sweepKey(s.cells[0])),
});

/** +0 for −0, so that a negated 0 compares equal to 0. */
const plain = (x: number | null) => (x === null ? null : x + 0);

describe('leaderboard properties', () => {
  it('Holm-adjusted p ≥ raw p and ≤ 1, and separable ⇔ adjusted p < α, for every test of the board', () => {
    fc.assert(
      fc.property(boardInput, (generated) => {
        const board = buildLeaderboard(toSubjects(generated), SETTINGS);
        const b = board.projects[0].boards[0];
        const tests: Comparison[] = [...b.comparisons, ...b.cells.flatMap((r) => r.comparisons)];
        for (const c of tests) {
          if (c.p === null) {
            expect(c.pAdjusted).toBeNull();
            expect(c.separable).toBe(false);
          } else {
            expect(c.pAdjusted).toBeGreaterThanOrEqual(c.p);
            expect(c.pAdjusted).toBeLessThanOrEqual(1);
            expect(c.separable).toBe((c.pAdjusted as number) < board.alpha);
          }
        }
      }),
      { numRuns: 40 },
    );
  });

  it('exchanging A and B negates Δ and its interval and keeps p (retention and accuracy, paired or not)', () => {
    fc.assert(
      fc.property(boardInput, (generated) => {
        const [a, b] = toSubjects(generated).map(sideOf);
        const forward = compareRetention(a, b, 'paper', SETTINGS);
        const backward = compareRetention(b, a, 'paper', SETTINGS);
        const forwardAcc = compareAccuracy(a, b, 'paper');
        const backwardAcc = compareAccuracy(b, a, 'paper');
        for (const [f, r] of [
          [forward, backward],
          [forwardAcc, backwardAcc],
        ]) {
          expect([r.a, r.b]).toEqual([f.b, f.a]);
          expect(plain(r.difference)).toBe(f.difference === null ? null : plain(-f.difference));
          expect(r.ci95?.map(plain)).toEqual(f.ci95 ? [plain(-f.ci95[1]), plain(-f.ci95[0])] : undefined);
          expect(r.p).toBe(f.p);
          expect(r.pairing).toEqual(f.pairing);
          expect(r.status).toBe(f.status);
        }
      }),
      { numRuns: 40 },
    );
  });

  it('missing data never turns a pair into a success: a pair with a missing side counts as no pair at all', () => {
    const sizes = DEPTHS.map(() => 6);
    const touched = fc.tuple(
      ...DEPTHS.map(() =>
        fc.array(fc.option(fc.constantFrom(...MISSING_KINDS), { nil: null }), { minLength: 5, maxLength: 5 }),
      ),
    );
    fc.assert(
      fc.property(
        fc.array(subjectTrials(sizes), { minLength: 2, maxLength: 2 }),
        touched,
        fc.boolean(),
        (generated, marks, onA) => {
          const paired = generated.map((g) => ({ ...g, shifted: false }));
          const [a, b] = toSubjects(paired);
          // Trial 0 of each depth is never touched, so no level loses all its trials.
          const isTouched = (depth: number, seed: number) => {
            const i = seed - depth * 10_000;
            return i > 0 && marks[DEPTHS.indexOf(depth)][i - 1] !== null;
          };
          const rebuild = (s: LeaderboardSubject, change: (level: number, t: SynthTrial) => SynthTrial | null) => {
            const byLevel = new Map<number, SynthTrial[]>();
            for (const cell of s.cells) {
              const trials = cell.trials.map((t) => ({ seed: t.seed, trialIndex: t.trialIndex, kind: t.outcome.kind }));
              byLevel.set(
                cell.level,
                trials.flatMap((t) => change(cell.level, t as SynthTrial) ?? []),
              );
            }
            return synthSubject(s.subject, byLevel, 'paper', s.seed);
          };
          const spoil = (level: number, t: SynthTrial): SynthTrial =>
            isTouched(level, t.seed)
              ? { ...t, kind: marks[DEPTHS.indexOf(level)][t.seed - level * 10_000 - 1] as CcbOutcomeKind }
              : t;
          const drop = (level: number, t: SynthTrial) => (isTouched(level, t.seed) ? null : t);
          const spoiledA = onA ? rebuild(a, spoil) : a;
          const spoiledB = onA ? b : rebuild(b, spoil);
          const removedA = rebuild(a, drop);
          const removedB = rebuild(b, drop);

          const spoiledPairing = pairSweeps(sideOf(spoiledA).levels, sideOf(spoiledB).levels, 'paper', ['A', 'B']);
          const removedPairing = pairSweeps(sideOf(removedA).levels, sideOf(removedB).levels, 'paper', ['A', 'B']);
          expect(spoiledPairing.paired && removedPairing.paired).toBe(true);
          if (!spoiledPairing.paired || !removedPairing.paired) return;
          spoiledPairing.tables.forEach((t, i) => {
            const r = removedPairing.tables[i];
            const marked = marks[i].filter((m) => m !== null).length;
            expect({ ...t, dropped: 0 }).toEqual({ ...r, dropped: 0 });
            expect(t.dropped).toBe(r.dropped + marked);
          });

          const spoiledSide = onA ? spoiledA : spoiledB;
          const original = onA ? a : b;
          expect(countedTally(spoiledSide.cells, 'paper').successes).toBeLessThanOrEqual(
            countedTally(original.cells, 'paper').successes,
          );

          const accuracy = [
            compareAccuracy(sideOf(spoiledA), sideOf(spoiledB), 'paper'),
            compareAccuracy(sideOf(removedA), sideOf(removedB), 'paper'),
          ];
          expect(accuracy[0].difference).toBe(accuracy[1].difference);
          expect(accuracy[0].p).toBe(accuracy[1].p);
          const bothOk = [spoiledA, spoiledB, removedA, removedB].every((s) => s.fits[0].status === 'ok');
          if (bothOk) {
            const retention = [
              compareRetention(sideOf(spoiledA), sideOf(spoiledB), 'paper', SETTINGS),
              compareRetention(sideOf(removedA), sideOf(removedB), 'paper', SETTINGS),
            ];
            expect(retention[0].difference).toBe(retention[1].difference);
            expect(retention[0].ci95).toEqual(retention[1].ci95);
            expect(retention[0].p).toBe(retention[1].p);
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it('the bootstrap p lies in [2/(B + 1), 1] and is unchanged when every draw is negated', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: -1, max: 1, noNaN: true }), { minLength: 1, maxLength: 50 }), (draws) => {
        const p = bootstrapP(draws);
        expect(p).toBeGreaterThanOrEqual(2 / (draws.length + 1));
        expect(p).toBeLessThanOrEqual(1);
        expect(bootstrapP(draws.map((d) => -d))).toBe(p);
      }),
    );
    expect(bootstrapP([0, 0, 0])).toBe(1);
    expect(bootstrapP(Array.from({ length: 1999 }, () => 0.01))).toBe(2 / 2000);
  });
});
