import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/program.js';
import { compareRuns } from '../../src/compare/compare.js';
import type { Baseline } from '../../src/schema/baseline.js';

const stop = { by: 'budget' as const, reason: 'not sent: the spending limit --max-calls 40 was reached', tiers: 2 };

function baseline(name: string, scc: Partial<Baseline['scc'][number]>): Baseline {
  return {
    schemaVersion: 1,
    name,
    runStartedAt: '2026-01-01T00:00:00.000Z',
    gitSha: null,
    seed: 0,
    subjects: [],
    fits: [],
    cells: [],
    collapse: [],
    scc: [{ project: 'scc', task: 'count', cc: 100, ccLower: 96, ccUpper: 104, bounded: true, ...scc }],
  };
}

async function cli(...args: string[]) {
  const out: string[] = [];
  const exit = await runCli(args, { stdout: (t) => out.push(t), stderr: (t) => out.push(t) });
  return { exit, out: out.join('') };
}

function file(dir: string, b: Baseline): string {
  const path = join(dir, `${b.name}.json`);
  writeFileSync(path, JSON.stringify(b));
  return path;
}

const retentionFit = (counts: Array<{ depth: number; correct: number; n: number }>): Baseline['fits'][number] => ({
  project: 'd2',
  task: 'd2',
  variant: 'standard',
  missing: 'release',
  pd: 0.95,
  ci95: [0.9, 0.97],
  counts,
  tfbc: 0,
  correct: counts.reduce((s, c) => s + c.correct, 0),
  tfbcRate: null,
});
const cell = (successes: number, answered: number): Baseline['cells'][number] => ({
  project: 'd2',
  task: 'd2',
  variant: 'standard',
  level: 10,
  successes,
  answered,
});

describe('a fit or cell with no answered trial on one side (every trial missing data)', () => {
  const answered = [
    { depth: 5, correct: 18, n: 20 },
    { depth: 10, correct: 12, n: 20 },
  ];
  const unanswered = answered.map((c) => ({ ...c, correct: 0, n: 0 }));
  const runs = (candFit: Baseline['fits'][number], candCell: Baseline['cells'][number]) => [
    { ...baseline('base', {}), fits: [retentionFit(answered)], cells: [cell(12, 20)] },
    { ...baseline('cand', {}), fits: [candFit], cells: [candCell] },
  ];

  it('is listed as not compared (p_d and accuracy), never shown as "no statistically supported drop"', () => {
    const [base, cand] = runs(retentionFit(unanswered), cell(0, 0));
    const c = compareRuns(base, cand);
    expect(c.metrics.filter((m) => m.metric === 'p_d' || m.metric === 'accuracy')).toEqual([]);
    expect(c.notCompared.map((n) => [n.metric, n.kind, n.where, n.reason])).toEqual([
      [
        'p_d',
        'no-answered-trials',
        'standard',
        'the candidate cand has no answered trial in this fit (all missing data)',
      ],
      [
        'accuracy',
        'no-answered-trials',
        'level 10',
        'level 10: the candidate cand has no answered trial in this cell (all missing data)',
      ],
    ]);
    const [base2, cand2] = runs(retentionFit(answered), cell(12, 20));
    expect(compareRuns(base2, cand2).notCompared).toEqual([]);
    expect(compareRuns(cand, base).notCompared.map((n) => n.reason)[0]).toMatch(/^the baseline cand has no answered/);
  });
});

describe('a stopped SCC ladder in a comparison', () => {
  // a stopped ladder's cc is the highest tier passed before the stop: far below the baseline, yet no measure
  const stopped = { cc: 32, ccLower: 32, ccUpper: null, bounded: false, stopped: stop };

  it('is not compared on either side, and the comparison says so instead of "no regression"', () => {
    for (const [base, cand] of [
      [baseline('base', {}), baseline('cand', stopped)],
      [baseline('base', stopped), baseline('cand', {})],
    ]) {
      const c = compareRuns(base, cand);
      expect(c.metrics.filter((m) => m.metric === 'counting_capacity')).toEqual([]);
      expect(c.regressions).toEqual([]);
      expect(c.notCompared.map((n) => n.kind)).toEqual(['stopped']);
      expect(c.notCompared[0].reason).toMatch(/measured no CC: stopped after 2 tiers \(not sent: the spending limit/);
    }
    const finished = compareRuns(baseline('base', {}), baseline('cand', { cc: 98, ccLower: 94, ccUpper: 102 }));
    expect(finished.notCompared).toEqual([]);
    expect(finished.metrics.map((m) => m.reason)).toEqual(['ladder bounds overlap']);
  });

  it('fails `ceilingbench compare` (exit 1): a gate never passes on data it did not check', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cb-compare-stopped-'));
    const base = file(dir, baseline('base', {}));
    const run = await cli('compare', base, file(dir, baseline('cand', stopped)));
    expect(run.exit).toBe(1);
    expect(run.out).toContain('1 not compared (the gate fails on them):');
    expect(run.out).toContain('- scc count counting_capacity: the candidate cand measured no CC');
    const same = await cli('compare', base, file(dir, baseline('same', {})));
    expect(same.exit, same.out).toBe(0);
  });

  it('shows in the release history as stopped with its lower bound, not as a CC', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cb-history-stopped-'));
    file(dir, baseline('r1', {}));
    file(dir, { ...baseline('r2', stopped), runStartedAt: '2026-02-01T00:00:00.000Z' });
    const history = await cli('baseline', 'history', '--dir', dir);
    expect(history.exit).toBe(0);
    expect(history.out).toMatch(/\| r1 \| 2026-01-01 \| 100 \(96–104\) \|/);
    expect(history.out).toMatch(/\| r2 \| 2026-02-01 \| stopped \(≥ 32\) \|/);
  });
});
