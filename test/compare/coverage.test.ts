import { describe, expect, it } from 'vitest';
import { compareRuns } from '../../src/compare/compare.js';
import { comparisonSchema } from '../../src/compare/schema.js';
import { UsageError } from '../../src/errors.js';
import { fitRetention } from '../../src/stats/index.js';
import { CCB_LEVELS, ladder, puzzle, run, STOP, sweep } from './runs.js';

// `compareRuns` covers the whole baseline: every fit, cell, SCC ladder and collapse fit in scope is compared or
// listed as not compared with its kind and reason, and only a comparison with neither a regression nor a
// not-compared record passes.

const opts = { resamples: 200 };
const kinds = (c: ReturnType<typeof compareRuns>) => c.notCompared.map((n) => `${n.metric} ${n.where} ${n.kind}`);

describe('the three ways a gate used to pass on data it never checked', () => {
  it('a d2 baseline against a candidate that ran only d1: every d2 record is absent, d1 is new (not gated)', () => {
    const c = compareRuns(run('base', sweep('d2')), run('cand', sweep('d1')), opts);
    expect(c.passed).toBe(false);
    expect(c.metrics).toEqual([]);
    expect(c.notCompared).toHaveLength(1 + CCB_LEVELS.length);
    expect(new Set(c.notCompared.map((n) => n.kind))).toEqual(new Set(['absent']));
    expect(c.notCompared[0]).toMatchObject({
      metric: 'p_d',
      project: 'd2',
      task: 'd2',
      where: 'standard',
      reason: 'the candidate cand ran no project d2',
      levels: CCB_LEVELS,
    });
    expect(c.newInCandidate.map((r) => `${r.project} ${r.metric} ${r.where}`)).toEqual([
      'd1 p_d standard',
      ...CCB_LEVELS.map((l) => `d1 accuracy level ${l}`),
    ]);
    expect(comparisonSchema.parse(c)).toEqual(c);
  });

  it('a candidate missing levels 20–50: p_d refit on the common levels, and the missing levels are not compared', () => {
    const base = run('base', sweep('d2'));
    const cand = run('cand', sweep('d2', { levels: [5, 10, 15] }));
    const c = compareRuns(base, cand, opts);
    expect(c.passed).toBe(false);
    const pd = c.metrics.filter((m) => m.metric === 'p_d');
    expect(pd).toHaveLength(1);
    expect(pd[0].levels).toEqual([5, 10, 15]);
    expect(pd[0].reason).toBe(
      'refit on the common levels 5, 10, 15; the candidate has no 20–50: no statistically supported drop',
    );
    // both sides refit on 5–15: the same counts give the same p_d, not the baseline's 5–50 fit
    const common = base.fits[0].counts.slice(0, 3);
    expect(pd[0].baseline).toBe(fitRetention(common).pd);
    expect(pd[0].candidate).toBe(pd[0].baseline);
    expect(pd[0].difference).toBe(0);
    expect(kinds(c)).toEqual([
      'p_d standard other-levels',
      'tfbc_rate standard other-levels',
      ...[20, 25, 30, 35, 40, 45, 50].map((l) => `accuracy level ${l} absent`),
    ]);
    expect(c.notCompared[0].levels).toEqual([20, 25, 30, 35, 40, 45, 50]);
    expect(c.notCompared[0].reason).toBe(
      'levels 20–50: the candidate cand has no such level (p_d was refit on the common levels 5, 10, 15)',
    );
    expect(c.notCompared[2].reason).toBe('the candidate cand ran no level 20 of d2/d2');
    // three accuracy rows, none over a level the candidate lacks
    expect(c.metrics.filter((m) => m.metric === 'accuracy').map((m) => m.level)).toEqual([5, 10, 15]);
  });

  it('a candidate interrupted with 61.5% of its trials missing (every cell insufficient): nothing compared', () => {
    const missing = [14, 18, 22, 24, 26, 28, 28, 28, 28, 30];
    expect(missing.reduce((s, m) => s + m, 0) / (40 * 10)).toBe(0.615);
    const c = compareRuns(run('base', sweep('d2')), run('cand', sweep('d2', { missing })), opts);
    expect(c.passed).toBe(false);
    expect(c.metrics).toEqual([]);
    expect(c.notCompared).toHaveLength(11);
    expect(new Set(c.notCompared.map((n) => n.kind))).toEqual(new Set(['insufficient']));
    expect(c.notCompared[0].reason).toBe(
      'the candidate cand fit is insufficient: 10 of 10 cell(s) insufficient (too many missing trials): levels 5, 10, 15, 20, 25, 30, 35, 40, 45, 50',
    );
    expect(c.notCompared[1].reason).toBe(
      'level 5: the candidate cand is insufficient: 14 of 40 trials missing data (35%), above the 20% allowed',
    );
  });
});

describe('insufficient data on either side', () => {
  it('one insufficient cell: that cell and its fit are not compared, the other cells are', () => {
    const missing = CCB_LEVELS.map((l) => (l === 30 ? 9 : 0)); // 9/40 = 22.5% > 20%
    const c = compareRuns(run('base', sweep('d2', { missing })), run('cand', sweep('d2')), opts);
    expect(kinds(c)).toEqual(['p_d standard insufficient', 'accuracy level 30 insufficient']);
    expect(c.notCompared[0].reason).toMatch(/^the baseline base fit is insufficient: 1 of 10 cell\(s\) insufficient/);
    expect(c.metrics.filter((m) => m.metric === 'accuracy')).toHaveLength(9);
    // 8 of 40 is 20%, not above the fraction: compared
    const atLimit = CCB_LEVELS.map((l) => (l === 30 ? 8 : 0));
    expect(compareRuns(run('base', sweep('d2', { missing: atLimit })), run('cand', sweep('d2')), opts).passed).toBe(
      true,
    );
    // the fraction is an option, as in the harness's config
    const strict = compareRuns(run('base', sweep('d2', { missing: atLimit })), run('cand', sweep('d2')), {
      ...opts,
      maxMissingFraction: 0.1,
    });
    expect(kinds(strict)).toEqual(['p_d standard insufficient', 'accuracy level 30 insufficient']);
  });

  it("the harness's own verdict, as `baseline save` records it, is honoured", () => {
    const cand = run('cand', sweep('d2'));
    cand.fits[0] = { ...cand.fits[0], status: 'insufficient', insufficientReason: '1 of 10 cell(s) insufficient' };
    cand.cells[0] = { ...cand.cells[0], status: 'insufficient', missing: 5 };
    const c = compareRuns(run('base', sweep('d2')), cand, opts);
    expect(c.notCompared.map((n) => n.reason)).toEqual([
      'the candidate cand fit is insufficient: 1 of 10 cell(s) insufficient',
      "level 5: the candidate cand is insufficient: 5 of 45 trials missing data (11.1%); insufficient by the run's own verdict (its trials missing or set aside)",
    ]);
  });

  it('a collapse fit with an insufficient level is not compared', () => {
    const cand = run('cand', puzzle('puzzles', 'hanoi'));
    cand.cells[2] = { ...cand.cells[2], answered: 10, missing: 10 };
    const c = compareRuns(run('base', puzzle('puzzles', 'hanoi')), cand, opts);
    expect(kinds(c)).toEqual(['accuracy level 3 insufficient', 'collapse_threshold  insufficient']);
  });
});

describe('a stopped SCC ladder', () => {
  it('is not compared (kind stopped) on either side', () => {
    const stopped = { cc: 32, ccLower: 32, ccUpper: null, bounded: false, stopped: STOP };
    for (const [base, cand] of [
      [run('base', ladder('scc')), run('cand', ladder('scc', stopped))],
      [run('base', ladder('scc', stopped)), run('cand', ladder('scc'))],
    ]) {
      const c = compareRuns(base, cand, opts);
      expect(c.passed).toBe(false);
      expect(c.notCompared.map((n) => [n.metric, n.kind])).toEqual([['counting_capacity', 'stopped']]);
    }
  });
});

describe('other level sets', () => {
  it('no level in common: the fit is not compared at all', () => {
    const c = compareRuns(run('base', sweep('d2', { levels: [5, 10] })), run('cand', sweep('d2', { levels: [20] })));
    expect(c.metrics.filter((m) => m.metric === 'p_d')).toEqual([]);
    expect(c.notCompared[0]).toMatchObject({ kind: 'other-levels', levels: [5, 10] });
    expect(c.notCompared[0].reason).toBe('no level in common: the baseline has 5, 10, the candidate 20');
  });

  it('a candidate with more levels: p_d refit on the baseline levels, its new levels not gated, TFBC listed', () => {
    const c = compareRuns(run('base', sweep('d2', { levels: [5, 10, 15] })), run('cand', sweep('d2')), opts);
    const pd = c.metrics.find((m) => m.metric === 'p_d');
    expect(pd?.reason).toBe(
      "refit on the common levels 5, 10, 15; the candidate's 20–50 are new (not gated): no statistically supported drop",
    );
    expect(c.newInCandidate.map((r) => r.where)).toEqual([20, 25, 30, 35, 40, 45, 50].map((l) => `level ${l}`));
    // TFBC is kept as totals over a fit's levels, so it cannot be restricted to the common ones
    expect(kinds(c)).toEqual(['tfbc_rate standard other-levels']);
  });

  it('fits counted under different missing-data rules are not compared', () => {
    const c = compareRuns(run('base', sweep('d2')), run('cand', sweep('d2', { missingRule: 'paper' })), opts);
    expect(kinds(c)).toEqual(['p_d standard other-rule']);
  });

  it('a collapse fit over other levels, or with a λ* on one side only, is not compared', () => {
    const base = run('base', puzzle('puzzles', 'hanoi'));
    const fewer = run('cand', puzzle('puzzles', 'hanoi'));
    fewer.cells.pop();
    expect(kinds(compareRuns(base, fewer, opts))).toEqual([
      'accuracy level 6 absent',
      'collapse_threshold  other-levels',
    ]);
    const flat = run('cand', puzzle('puzzles', 'hanoi', { levelIndex: null, ci95: null }));
    expect(kinds(compareRuns(base, flat, opts))).toEqual(['collapse_threshold  no-estimate']);
    const bothFlat = compareRuns(run('base', puzzle('puzzles', 'hanoi', { levelIndex: null, ci95: null })), flat, opts);
    expect(bothFlat.passed).toBe(true);
    expect(bothFlat.metrics.find((m) => m.metric === 'collapse_threshold')?.reason).toMatch(/^no λ\* on either side/);
  });
});

describe('compare --only', () => {
  const base = run('base', sweep('d1'), sweep('d2'), ladder('scc'));
  const cand = run('cand', sweep('d2'), sweep('d3'));

  it('narrows the gate to the named projects, and says what was left out', () => {
    expect(compareRuns(base, cand, opts).passed).toBe(false);
    const c = compareRuns(base, cand, { ...opts, only: ['d2'] });
    expect(c.passed).toBe(true);
    expect(c.scope).toEqual({ only: ['d2'], projects: ['d2'], excluded: ['d1', 'scc'] });
    expect(c.newInCandidate).toEqual([]); // d3 is out of scope too
    expect(compareRuns(base, cand, { ...opts, only: ['d2', 'd1'] }).notCompared[0].reason).toBe(
      'the candidate cand ran no project d1',
    );
  });

  it('a name covers its per-subject projects (d2 → d2@label)', () => {
    const multi = run('cand', sweep('d2@sim-a'));
    const c = compareRuns(run('base', sweep('d2@sim-a'), sweep('d1')), multi, { ...opts, only: ['d2'] });
    expect(c.scope.projects).toEqual(['d2@sim-a']);
    expect(c.passed).toBe(true);
  });

  it('a project neither run has, or a scope with no baseline record, is a usage error naming what the runs have', () => {
    expect(() => compareRuns(base, cand, { only: ['d9'] })).toThrow(UsageError);
    expect(() => compareRuns(base, cand, { only: ['d2', 'd9'] })).toThrow(
      '--only d9: neither run has project d9; the baseline base has d1, d2, scc, the candidate cand has d2, d3',
    );
    expect(() => compareRuns(base, cand, { only: ['d3'] })).toThrow(
      /^nothing to compare: the baseline base has no record of d3/,
    );
    expect(() => compareRuns(run('empty'), cand)).toThrow('nothing to compare: the baseline empty holds no record');
  });
});

describe('identical runs', () => {
  it('pass: every record compared, nothing new, no regression', () => {
    const b = run(
      'base',
      sweep('d1'),
      sweep('d2', { missing: 2 }),
      sweep('d2', { variant: 'scratchpad', levels: [10] }),
      puzzle('puzzles', 'hanoi'),
      ladder('scc'),
    );
    const c = compareRuns(b, structuredClone({ ...b, name: 'same' }), opts);
    expect(c.notCompared).toEqual([]);
    expect(c.regressions).toEqual([]);
    expect(c.newInCandidate).toEqual([]);
    expect(c.passed).toBe(true);
    expect(c.metrics.filter((m) => m.metric === 'p_d').map((m) => m.levels)).toEqual([CCB_LEVELS, CCB_LEVELS, [10]]);
    expect(c.metrics).toHaveLength(3 * 2 + 2 * CCB_LEVELS.length + 1 + 6 + 1 + 1);
  });
});
