import { beforeAll, describe, expect, it } from 'vitest';
import { buildLeaderboard, type LeaderboardSubject } from '../../src/leaderboard/index.js';
import type { CollapseBoard, SccBoard } from '../../src/schema/leaderboard.js';
import { leaderboardSchema } from '../../src/schema/leaderboard.js';
import type { SccHeadline } from '../../src/schema/report.js';
import { simRecords } from './sim-records.js';

// The puzzle and SCC boards: puzzles ranked by λ* then pooled accuracy, separated by one McNemar over all paired
// trials of the puzzle; SCC ranked by CC and separated only by disjoint ladder bounds (no p-value).

describe('puzzle board', () => {
  let subjects: LeaderboardSubject[];
  beforeAll(async () => {
    subjects = [];
    for (const spec of ['sim:retention?p=0.80', 'sim:retention?p=0.97']) {
      subjects.push(await simRecords({ spec, runSeed: 0, tasks: ['hanoi'], trials: 20 }));
    }
  }, 60_000);

  it('ranks by λ* then accuracy, tests accuracy with McNemar on all paired trials pooled', () => {
    const lb = buildLeaderboard(subjects, { resamples: 200 });
    expect(leaderboardSchema.parse(lb)).toEqual(lb);
    const b = lb.projects[0].boards[0] as CollapseBoard;
    expect(b.kind).toBe('collapse');
    expect(b.task).toBe('hanoi');
    expect(b.entries.map((e) => e.subject)).toEqual(['sim:retention?p=0.97', 'sim:retention?p=0.80']);
    const [c] = b.comparisons;
    expect(c.method).toBe('mcnemar-exact');
    expect(c.metric).toBe('accuracy');
    expect(c.pairing).toEqual({ paired: true, pairs: 120, dropped: 0 });
    expect(c.separable).toBe(true);
    expect(b.relations[0].relation).toBe('>');
    expect(b.cells.map((r) => r.level)).toEqual([1, 2, 3, 4, 5, 6]);
    // Equal λ* here: accuracy breaks the tie.
    expect(b.entries[0].levelIndex).toBe(b.entries[1].levelIndex);
    expect(b.entries[0].accuracy).toBeGreaterThan(b.entries[1].accuracy ?? 1);
  });

  it("says '<' when λ* ranks a subject above one the accuracy test shows better, and its rank range follows the test", () => {
    // A record altered on purpose: the weaker subject given the later collapse.
    const [weaker, stronger] = subjects;
    const later = weaker.collapse[0].collapseThreshold;
    const altered = {
      ...weaker,
      collapse: [{ ...weaker.collapse[0], collapseThreshold: { ...later, levelIndex: 6 } }],
    };
    const b = buildLeaderboard([altered, stronger], { resamples: 200 }).projects[0].boards[0] as CollapseBoard;
    expect(b.entries.map((e) => [e.subject, e.rank, e.rankLabel])).toEqual([
      ['sim:retention?p=0.80', 1, '2'],
      ['sim:retention?p=0.97', 2, '1'],
    ]);
    expect(b.relations[0].relation).toBe('<');
    expect(b.relations[0].text).toContain('ranks above by λ*, but sim:retention?p=0.97 has the higher accuracy');
  });
});

const scc = (task: string, cc: number, ccUpper: number | null, skipped = false): SccHeadline => ({
  kind: 'scc',
  project: 'scc',
  task,
  cc,
  ccLower: cc,
  ccUpper,
  bounded: ccUpper !== null,
  ...(skipped ? { skipped } : {}),
});

const sccSubject = (subject: string, record: SccHeadline): LeaderboardSubject => ({
  subject,
  seed: 0,
  cells: [],
  fits: [],
  collapse: [],
  scc: [record],
});

describe('SCC board', () => {
  const lb = buildLeaderboard([
    sccSubject('model-b', scc('count', 128, 256)),
    sccSubject('model-a', scc('count', 256, 512)),
    sccSubject('model-c', scc('count', 32, 64)),
    sccSubject('model-d', scc('count', 0, null, true)),
    sccSubject('model-e', scc('count', 20000, null)),
  ]);
  const b = lb.projects[0].boards[0] as SccBoard;

  it('ranks by CC; a skipped record is unranked; no comparison has a p-value or a pairing', () => {
    expect(b.kind).toBe('scc');
    expect(b.entries.map((e) => [e.subject, e.rank])).toEqual([
      ['model-e', 1],
      ['model-a', 2],
      ['model-b', 3],
      ['model-c', 4],
      ['model-d', null],
    ]);
    expect(b.comparisons.every((c) => c.method === 'ladder-bounds' && c.p === null && c.pairing === null)).toBe(true);
    expect(b.notes.some((n) => n.includes('not a p-value'))).toBe(true);
  });

  it('separable only when the bounds, as closed intervals, do not overlap (touching bounds overlap)', () => {
    expect(b.relations.map((r) => r.text)).toEqual([
      'model-e > model-a (ladder bounds 20000–∞ and 256–512 do not overlap)',
      'model-a ≈ model-b (ladder bounds 256–512 and 128–256 overlap)',
      'model-b > model-c (ladder bounds 128–256 and 32–64 do not overlap)',
    ]);
    expect(b.entries.map((e) => e.rankLabel)).toEqual(['1', '2–3', '2–3', '4', null]);
  });
});
