import { beforeAll, describe, expect, it } from 'vitest';
import { buildLeaderboard, type LeaderboardSubject, notWorseThan } from '../../src/leaderboard/index.js';
import type { RetentionBoard } from '../../src/schema/leaderboard.js';
import { neverSent, simRecords } from './sim-records.js';

// Two copies of one subject (same p, different sim seeds) in one run are paired and not separable; runs made with
// different run seeds answered different instances, so their comparisons are unpaired, and say so; the
// non-inferiority decision passes copies, fails a clearly worse candidate, and never passes without data.

let best: LeaderboardSubject; // p = 0.95, run seed 0 (sim seed 0)
let copy: LeaderboardSubject; // p = 0.95, sim seed 7, run seed 0: the same instances
let otherRun: LeaderboardSubject; // p = 0.95, run seed 1: other instances
let worse: LeaderboardSubject; // p = 0.80, run seed 0
let stopped: LeaderboardSubject; // no trial sent

beforeAll(async () => {
  const d1 = { tasks: ['d1'], trials: 40 };
  best = await simRecords({ spec: 'sim:retention?p=0.95', runSeed: 0, ...d1 });
  copy = await simRecords({ spec: 'sim:retention?p=0.95&seed=7', runSeed: 0, ...d1 });
  otherRun = await simRecords({ spec: 'sim:retention?p=0.95', runSeed: 1, ...d1 });
  worse = await simRecords({ spec: 'sim:retention?p=0.80', runSeed: 0, ...d1 });
  stopped = await simRecords({ spec: 'sim:retention?p=0.90', runSeed: 0, ...d1, wrap: neverSent });
}, 120_000);

const onlyBoard = (subjects: LeaderboardSubject[]): RetentionBoard => {
  const b = buildLeaderboard(subjects).projects[0].boards[0];
  if (b.kind !== 'retention') throw new Error('expected a retention board');
  return b;
};

describe('two copies of the same subject', () => {
  it('are paired on the same instances and not separable: ≈, both "rank 1–2"', () => {
    const b = onlyBoard([best, copy]);
    const [c] = b.comparisons;
    expect(c.method).toBe('paired-bootstrap');
    expect(c.pairing).toEqual({ paired: true, pairs: 400, dropped: 0 });
    expect(c.separable).toBe(false);
    expect(c.p).toBeGreaterThan(0.05);
    expect(c.ci95?.[0]).toBeLessThan(0);
    expect(c.ci95?.[1]).toBeGreaterThan(0);
    expect(b.relations.map((r) => r.relation)).toEqual(['≈']);
    expect(b.relations[0].text).toMatch(/ ≈ .* \(p = 0\.\d+\)$/);
    expect(b.entries.map((e) => e.rankLabel)).toEqual(['1–2', '1–2']);
  });
});

describe('runs with different run seeds', () => {
  it('are compared unpaired (parametric bootstrap, Fisher per cell) and flagged with the reason', () => {
    // the worse subject is the project's gated baseline: compared with both others, besides the adjacent ranks
    const b = buildLeaderboard([best, otherRun, worse], { baselines: { d1: 'sim:retention?p=0.80' } }).projects[0]
      .boards[0];
    if (b.kind !== 'retention') throw new Error('expected a retention board');
    expect(b.comparisons).toHaveLength(3);
    expect(b.paired).toBe(false);
    const between = (x: string, y: string) =>
      b.comparisons.find((c) => [c.a, c.b].sort().join() === [x, y].sort().join());
    const s0 = 'sim:retention?p=0.95 (seed 0)';
    const s1 = 'sim:retention?p=0.95 (seed 1)';
    const w = 'sim:retention?p=0.80';
    expect(b.entries.map((e) => e.subject).sort()).toEqual([s0, s1, w].sort());
    for (const [x, y] of [
      [s0, s1],
      [s1, w],
    ]) {
      const c = between(x, y);
      expect(c?.method).toBe('parametric-bootstrap');
      expect(c?.pairing?.paired).toBe(false);
      if (c?.pairing?.paired === false) {
        expect(c.pairing.reason).toContain('no partner with the same instance seed and trial index');
        expect(c.pairing.reason).toContain('run seeds 0 and 1');
      }
    }
    // Same run seed: still paired within the mixed board.
    expect(between(s0, w)?.method).toBe('paired-bootstrap');
    expect(between(s0, s1)?.separable).toBe(false);
    expect(between(s1, w)?.separable).toBe(true);
    expect(b.notes.filter((n) => n.includes('unpaired test used'))).toHaveLength(2);
    const cellTests = b.cells.flatMap((r) => r.comparisons);
    expect(cellTests.filter((c) => c.method === 'fisher-exact')).toHaveLength(20);
    expect(cellTests.filter((c) => c.method === 'mcnemar-exact')).toHaveLength(10);
  });

  it('a different trial count is unpaired too (checked on the trials, whatever the seeds say)', () => {
    const fewer: LeaderboardSubject = {
      ...worse,
      cells: worse.cells.map((c) => (c.level === 30 ? { ...c, trials: c.trials.slice(0, 39) } : c)),
    };
    const [c] = onlyBoard([best, fewer]).comparisons;
    expect(c.pairing).toEqual({
      paired: false,
      reason: 'level 30: different trial counts (sim:retention?p=0.80: 39, sim:retention?p=0.95: 40)',
    });
    expect(c.method).toBe('parametric-bootstrap');
  });
  it('records without trials (a fit alone, or cells stored without their trials) are compared unpaired', () => {
    const fitOnly: LeaderboardSubject = { ...worse, cells: [] };
    const [c] = onlyBoard([best, fitOnly]).comparisons;
    expect(c.pairing).toEqual({ paired: false, reason: 'sim:retention?p=0.80 has no cells with trial records' });
    expect(c.method).toBe('parametric-bootstrap');
    expect(c.separable).toBe(true);
    const bare: LeaderboardSubject = { ...worse, cells: worse.cells.map((cell) => ({ ...cell, trials: [] })) };
    const [d] = onlyBoard([best, bare]).comparisons;
    expect(d.pairing).toEqual({ paired: false, reason: 'level 5: sim:retention?p=0.80 has no trial records' });
  });
});

describe('too few resamples for the Holm family', () => {
  it('says so on the board instead of reading as "all ≈"', () => {
    const lb = buildLeaderboard([best, copy, worse], { resamples: 60 });
    const b = lb.projects[0].boards[0];
    expect(b.comparisons.every((c) => !c.separable)).toBe(true);
    expect(b.notes.at(-1)).toBe(
      'With 2 tests in the Holm family and B = 60 resamples the smallest adjusted bootstrap p is 0.066 ≥ α: no Δp_d can be separable at this B; use at least 80 resamples.',
    );
    const enough = buildLeaderboard([best, copy, worse], { resamples: 80 }).projects[0].boards[0];
    expect(enough.notes.some((n) => n.includes('resamples the smallest'))).toBe(false);
    expect(enough.comparisons.filter((c) => c.separable)).toHaveLength(1); // the copies ≈, the worse one below
  });
});

describe('notWorseThan', () => {
  const d1 = { project: 'd1' };

  it('passes two copies of the same subject, both ways round', () => {
    for (const [candidate, baseline] of [
      [copy, best],
      [best, copy],
    ]) {
      const r = notWorseThan(candidate, baseline, 0.01, 0.05, d1);
      expect(r.verdict).toBe('pass');
      expect(r.method).toBe('paired-bootstrap');
      expect(r.upper).toBeGreaterThanOrEqual(-0.01);
    }
  });

  it('fails a clearly worse candidate, and passes the better one against it', () => {
    const r = notWorseThan(worse, best, 0.01, 0.05, d1);
    expect(r.verdict).toBe('fail');
    expect(r.upper).toBeLessThan(-0.01);
    expect(r.difference).toBeCloseTo(worse.fits[0].pd - best.fits[0].pd, 12);
    expect(r.message).toContain('is worse than');
    expect(notWorseThan(best, worse, 0.01, 0.05, d1).verdict).toBe('pass');
  });

  it('a worse candidate passes once the margin covers the drop: the margin is honoured', () => {
    const drop = best.fits[0].pd - worse.fits[0].pd;
    expect(notWorseThan(worse, best, drop + 0.1, 0.05, d1).verdict).toBe('pass');
  });

  it('decides unpaired runs with the parametric bootstrap and says so', () => {
    const r = notWorseThan(otherRun, best, 0.01, 0.05, d1);
    expect(r.method).toBe('parametric-bootstrap');
    expect(r.pairing?.paired).toBe(false);
    expect(r.verdict).toBe('pass');
    expect(r.message).toContain('unpaired');
  });

  it('never passes without data: no trial sent, no fit, or no such project → insufficient', () => {
    expect(stopped.fits[0].status).toBe('insufficient');
    expect(notWorseThan(stopped, best, 0.01, 0.05, d1).verdict).toBe('insufficient');
    expect(notWorseThan(best, stopped, 0.01, 0.05, d1).verdict).toBe('insufficient');
    expect(notWorseThan(best, { ...copy, fits: [] }, 0.01, 0.05, d1).verdict).toBe('insufficient');
    expect(notWorseThan(best, copy, 0.01, 0.05, { project: 'd2' }).verdict).toBe('insufficient');
  });

  it('an insufficient fit is listed unranked on the board and never tested', () => {
    const b = onlyBoard([best, stopped, worse]);
    expect(b.entries.map((e) => [e.rank, e.status])).toEqual([
      [1, 'ok'],
      [2, 'ok'],
      [null, 'insufficient'],
    ]);
    expect(b.comparisons).toHaveLength(1);
    expect(b.entries[2].insufficientReason).toContain('no counted trials');
  });
});
