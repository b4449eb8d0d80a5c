import { beforeAll, describe, expect, it } from 'vitest';
import { buildLeaderboard, type LeaderboardSubject } from '../../src/leaderboard/index.js';
import { type Leaderboard, leaderboardSchema, type RetentionBoard } from '../../src/schema/leaderboard.js';
import { simRecords } from './sim-records.js';

// Issue 20 acceptance, the statistical core: sim:retention at p = 0.95, 0.90, 0.80 on d1 and d2, 40 trials per
// cell over depths 5…50, one run (same run seed, so the same instances): ranked 0.95 > 0.90 > 0.80 in both
// projects, every adjacent pair separable by the paired bootstrap of Δp_d after Holm.

const SPECS = ['sim:retention?p=0.95', 'sim:retention?p=0.90', 'sim:retention?p=0.80'];

let subjects: LeaderboardSubject[];
let board: Leaderboard;

beforeAll(async () => {
  subjects = [];
  for (const spec of SPECS) subjects.push(await simRecords({ spec, runSeed: 0, tasks: ['d1', 'd2'], trials: 40 }));
  // Given out of rank order: the ranking must come from the numbers.
  board = buildLeaderboard([subjects[1], subjects[2], subjects[0]]);
}, 120_000);

const retention = (project: string): RetentionBoard => {
  const found = board.projects.find((p) => p.project === project)?.boards[0];
  if (found?.kind !== 'retention') throw new Error(`no retention board for ${project}`);
  return found;
};

describe('leaderboard of three sim subjects in one run', () => {
  it('has one retention board per project, d1 and d2, schema-valid and exactly as the schema says', () => {
    expect(board.projects.map((p) => p.project)).toEqual(['d1', 'd2']);
    expect(board.projects.every((p) => p.boards.length === 1 && p.boards[0].kind === 'retention')).toBe(true);
    expect(leaderboardSchema.parse(board)).toEqual(board);
    expect(board.resamples).toBe(2000);
    expect(board.alpha).toBe(0.05);
  });

  for (const project of ['d1', 'd2']) {
    it(`${project}: ranks 0.95 > 0.90 > 0.80, every adjacent pair separable, all paired`, () => {
      const b = retention(project);
      expect(b.entries.map((e) => e.subject)).toEqual(SPECS);
      expect(b.entries.map((e) => e.rank)).toEqual([1, 2, 3]);
      expect(b.entries.map((e) => e.rankLabel)).toEqual(['1', '2', '3']);
      expect(b.relations.map((r) => r.relation)).toEqual(['>', '>']);
      expect(b.relations[0].text).toMatch(/^sim:retention\?p=0\.95 > sim:retention\?p=0\.90 \(p = 0\.\d+\)$/);
      expect(b.paired).toBe(true);
      expect(b.comparisons).toHaveLength(2); // adjacent ranks: linear in the subjects
      expect(b.comparisons.map((c) => [c.a, c.b])).toEqual([
        [SPECS[0], SPECS[1]],
        [SPECS[1], SPECS[2]],
      ]);
      for (const c of b.comparisons) {
        expect(c.method).toBe('paired-bootstrap');
        expect(c.pairing).toEqual({ paired: true, pairs: 400, dropped: 0 });
        expect(c.separable).toBe(true);
        expect(c.pAdjusted).toBeLessThan(0.05);
        // Δ is the difference of the two fits (no pair dropped), inside its own interval.
        const pd = (label: string) => b.entries.find((e) => e.subject === label)?.pd ?? Number.NaN;
        expect(c.difference).toBeCloseTo(pd(c.a) - pd(c.b), 12);
        expect(c.ci95?.[0]).toBeGreaterThan(0);
        expect(c.ci95?.[0]).toBeLessThanOrEqual(c.difference ?? Number.NaN);
        expect(c.ci95?.[1]).toBeGreaterThanOrEqual(c.difference ?? Number.NaN);
      }
    });

    it(`${project}: cells side by side — 10 depths × 3 subjects, adjacent subjects tested, Holm over the project`, () => {
      const b = retention(project);
      expect(b.cells.map((r) => r.level)).toEqual([5, 10, 15, 20, 25, 30, 35, 40, 45, 50]);
      for (const row of b.cells) {
        expect(row.subjects.map((s) => s.subject)).toEqual(SPECS);
        expect(row.subjects.every((s) => s.n === 40 && s.counted === 40)).toBe(true);
        expect(row.comparisons.map((c) => c.method)).toEqual(['mcnemar-exact', 'mcnemar-exact']);
        for (const c of row.comparisons) expect(c.pAdjusted).toBeGreaterThanOrEqual(c.p ?? 1);
      }
      // The sim uses common random numbers: a trial right at p = 0.80 is right at 0.95, so no discordant pair
      // ever favours the weaker subject.
      expect(b.cells.flatMap((r) => r.comparisons).every((c) => c.discordant?.bOnly === 0)).toBe(true);
    });
  }

  it('shows the side rates of each fit (TFBC, k* mean, format, truncation) beside p_d', () => {
    const e = retention('d1').entries[2];
    const fit = subjects[2].fits.find((f) => f.project === 'd1');
    expect(e).toMatchObject({
      pd: fit?.pd,
      ci95: fit?.ci95,
      tfbcRate: fit?.tfbcRate,
      kStarMean: fit?.kStar.mean,
      formatRate: fit?.formatRate,
      truncationRate: fit?.truncationRate,
      nTrials: 400,
    });
  });

  it('is deterministic and does not depend on the order the subjects are given in', () => {
    const again = buildLeaderboard([subjects[0], subjects[2], subjects[1]]);
    expect(JSON.stringify(again.projects)).toBe(JSON.stringify(board.projects));
  });
});
