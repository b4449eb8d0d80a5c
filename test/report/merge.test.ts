import { beforeAll, describe, expect, it } from 'vitest';
import { mergedTestEntries, mergeReports, pairRuns } from '../../reporters/projections/merge/index.js';
import { buildLeaderboard, type LeaderboardSubject } from '../../src/leaderboard/index.js';
import type { RetentionBoard } from '../../src/schema/leaderboard.js';
import { type Report, reportSchema } from '../../src/schema/report.js';
import { simRecords } from '../leaderboard/sim-records.js';
import { simReport } from './merge-support.js';

// Issue 20 acceptance, merging: the three sim subjects run as three separate runs (seed 0, d1 and d2, 40 trials
// per cell) and merged give the leaderboard the one run gives — same ranks, same p_d, same tests — and runs with
// different seeds are named as not paired, with unpaired tests.

const SPECS = ['sim:retention?p=0.95', 'sim:retention?p=0.90', 'sim:retention?p=0.80'];
const run = (spec: string, runSeed = 0) => ({ spec, runSeed, tasks: ['d1', 'd2'], trials: 40 });

let reports: Report[];
let oneRun: LeaderboardSubject[];
let reseeded: Report;

beforeAll(async () => {
  reports = [];
  oneRun = [];
  for (const spec of SPECS) {
    reports.push(await simReport(run(spec)));
    oneRun.push(await simRecords(run(spec)));
  }
  reseeded = await simReport(run(SPECS[1], 1));
}, 180_000);

const inputs = () => reports.map((report, i) => ({ name: `run-${i}/ceilingbench.json`, report }));

const retention = (lb: { projects: Array<{ project: string; boards: unknown[] }> }, project: string) => {
  const board = lb.projects.find((p) => p.project === project)?.boards[0] as RetentionBoard | undefined;
  if (board?.kind !== 'retention') throw new Error(`no retention board for ${project}`);
  return board;
};

describe('merging three separate one-subject runs', () => {
  let merged: ReturnType<typeof mergeReports>;
  beforeAll(() => {
    // given out of rank order: the ranking comes from the numbers
    merged = mergeReports([inputs()[1], inputs()[2], inputs()[0]], { version: '9.9.9' });
  });

  it('gives the leaderboard of the one run over the same records: same ranks, p_d, tests and p-values', () => {
    // one run lists its subjects in spec order; its bootstrap is rooted at the run seed (0)
    const direct = buildLeaderboard([oneRun[2], oneRun[1], oneRun[0]], { seed: 0 });
    expect(merged.leaderboard).toEqual(direct);
    for (const project of ['d1', 'd2']) {
      const b = retention(merged.leaderboard, project);
      expect(b.entries.map((e) => e.subject)).toEqual(SPECS);
      expect(b.entries.map((e) => e.rank)).toEqual([1, 2, 3]);
      expect(b.relations.map((r) => r.relation)).toEqual(['>', '>']);
      expect(b.paired).toBe(true);
      for (const e of b.entries) {
        const fit = oneRun[SPECS.indexOf(e.subject)].fits.find((f) => f.project === project);
        expect(e.pd).toBe(fit?.pd);
      }
      expect(b.comparisons.every((c) => c.method === 'paired-bootstrap' && c.pairing?.paired === true)).toBe(true);
    }
  });

  it('says every pair of runs is paired, and lists no unpaired comparison', () => {
    expect(merged.runs).toHaveLength(3);
    for (const r of merged.runs) {
      expect(r.paired).toBe(true);
      expect(r.text).toMatch(
        /^runs run-\d\/ceilingbench\.json and run-\d\/ceilingbench\.json are paired: seed 0, 20 shared cells with the same trial counts and instance seeds — paired tests used$/,
      );
    }
    expect(merged.unpaired).toEqual([]);
  });

  it('is one schema-valid report: every record carries its subject, summary recomputed, leaderboard inside', () => {
    const report = reportSchema.parse(merged.report);
    expect(report.leaderboard).toEqual(merged.leaderboard);
    expect(report.subjects.map((s) => s.spec)).toEqual([...SPECS].sort());
    expect(report.cells).toHaveLength(60);
    expect(report.fits).toHaveLength(6);
    expect([...report.cells, ...report.fits].every((r) => SPECS.includes(r.subject ?? ''))).toBe(true);
    expect(report.cells.filter((c) => c.subject === SPECS[0])).toEqual(
      reportSchema.parse(reports[0]).cells.map((c) => ({ ...c, subject: SPECS[0] })),
    );
    expect(report.summary).toMatchObject({ cells: 60, trials: 2400, testsFailed: 0 });
    expect(report.seed).toBe(0);
    expect(report.tool.version).toBe('9.9.9');
    expect(report.timing.durationMs).toBe(180_000);
    expect(report.spend?.subjects.map((s) => s.subject)).toEqual([...SPECS].sort());
    expect(report.spend?.total.paid.trials).toBe(reports.reduce((s, r) => s + (r.spend?.total.paid.trials ?? 0), 0));
  });

  it('is deterministic: the same inputs give the same bytes; the records do not depend on the input order', () => {
    const again = mergeReports([inputs()[1], inputs()[2], inputs()[0]], { version: '9.9.9' });
    expect(JSON.stringify(again.report)).toBe(JSON.stringify(merged.report));
    const reordered = mergeReports(inputs(), { version: '9.9.9', resamples: 10 });
    expect(JSON.stringify(reordered.report.cells)).toBe(JSON.stringify(merged.report.cells));
    expect(JSON.stringify(reordered.report.fits)).toBe(JSON.stringify(merged.report.fits));
  });

  it('has a JUnit case per record, named by its subject', () => {
    const entries = mergedTestEntries(merged.report);
    expect(entries).toHaveLength(66);
    expect(new Set(entries.map((e) => `${e.project} ${e.name}`)).size).toBe(66);
    expect(entries[0].name).toMatch(/ · sim:retention\?p=0\.\d+$/);
  });
});

describe('merging runs that are not paired', () => {
  it('names the pair with different seeds, and the leaderboard falls back to unpaired tests with its reason', () => {
    const merged = mergeReports([inputs()[0], { name: 'reseeded.json', report: reseeded }], {
      version: '9.9.9',
      resamples: 400,
    });
    expect(merged.runs).toEqual([
      {
        a: 'run-0/ceilingbench.json',
        b: 'reseeded.json',
        paired: false,
        text: 'runs run-0/ceilingbench.json and reseeded.json are not paired: seeds 0 and 1; instance seeds differ (d1/d1 L=5) — unpaired tests used',
      },
    ]);
    expect(merged.report.seed).toBeNull();
    for (const project of ['d1', 'd2']) {
      const b = retention(merged.leaderboard, project);
      expect(b.paired).toBe(false);
      expect(b.comparisons[0].method).toBe('parametric-bootstrap');
      expect(b.comparisons[0].pairing).toEqual({
        paired: false,
        reason: expect.stringMatching(/no partner with the same instance seed.*\(run seeds (0 and 1|1 and 0)\)$/),
      });
    }
    expect(merged.unpaired).toHaveLength(2);
    expect(merged.unpaired[0]).toMatch(
      /^d1\/d1: sim:retention\?p=0\.95 vs sim:retention\?p=0\.90 — unpaired: level 5: .*\(run seeds (0 and 1|1 and 0)\)$/,
    );
  });

  it('names different trial counts', () => {
    const half: Report = {
      ...reseeded,
      seed: 0,
      cells: reseeded.cells.map((c) => (c.level === 10 ? { ...c, n: 20, trials: c.trials.slice(0, 20) } : c)),
    };
    const pairing = pairRuns(inputs()[0], { name: 'half.json', report: half });
    expect(pairing.paired).toBe(false);
    expect(pairing.text).toContain('trial counts differ (d1/d1 L=10: 40 and 20)');
    expect(pairing.text).not.toContain('seeds 0 and');
  });

  it('two runs of one subject with different seeds stay two entries, labelled by seed, not separable', () => {
    const other = { ...reseeded, subjects: reports[1].subjects };
    const merged = mergeReports([inputs()[1], { name: 'again.json', report: other }], {
      version: '9.9.9',
      resamples: 400,
    });
    const b = retention(merged.leaderboard, 'd1');
    expect(b.entries.map((e) => e.subject).sort()).toEqual([`${SPECS[1]} (seed 0)`, `${SPECS[1]} (seed 1)`]);
    expect(b.comparisons[0].separable).toBe(false);
  });
});

describe('the same subject twice', () => {
  it('with the same seed and overlapping records is an error that names both files and the record', () => {
    expect(() => mergeReports([inputs()[0], { name: 'copy.json', report: reports[0] }], { version: '9.9.9' })).toThrow(
      /^sim:retention\?p=0\.95 \(run seed 0\): cell d1 d1 standard \S+ L=5 — run-0\/ceilingbench\.json and copy\.json both hold it\. Runs of the same subject and seed are merged as shards/,
    );
  });

  it('with the same seed and disjoint records (shards of one run) is united into one subject', () => {
    const shard = (project: string): Report => ({
      ...reports[0],
      cells: reports[0].cells.filter((c) => c.project === project),
      fits: reports[0].fits.filter((f) => f.project === project),
      projects: [project],
    });
    const merged = mergeReports(
      [inputs()[1], { name: 'shard-d1.json', report: shard('d1') }, { name: 'shard-d2.json', report: shard('d2') }],
      { version: '9.9.9', resamples: 400 },
    );
    expect(merged.leaderboard.subjects.map((s) => s.subject)).toEqual([SPECS[1], SPECS[0]]);
    expect(merged.report.cells).toHaveLength(40);
    expect(merged.runs.find((r) => r.a === 'shard-d1.json')?.text).toBe(
      'runs shard-d1.json and shard-d2.json share no cell — nothing to pair',
    );
  });

  it('a report of several subjects whose records do not name theirs cannot be attributed', () => {
    const two: Report = { ...reports[0], subjects: [...reports[0].subjects, ...reports[1].subjects] };
    expect(() => mergeReports([{ name: 'two.json', report: two }], { version: '9.9.9' })).toThrow(
      /two\.json: the report holds 2 subjects .* but its cell record d1\/d1 does not say which answered it/,
    );
  });
});
