import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reportSchema } from '../../src/schema/report.js';
import { runCeilingbench } from '../support/run-vitest.js';

/**
 * Issue 40 (acceptance): a model whose output falls apart at depth — perfect at N ≤ 10, prose with no answer from
 * N = 15 on — fails `d2: { minRetention: 0.9 }` as insufficient, and the set-aside share is printed where a user reads
 * the result: the progress lines, the gate line, summary.md. Before, it passed with p_d 1.000 [1.000, 1.000].
 */
describe('the deep-Format subject through `ceilingbench run`', () => {
  it('fails its gate as insufficient, with the set-aside share printed', () => {
    const out = mkdtempSync(join(tmpdir(), 'cb-deep-format-'));
    const run = runCeilingbench(
      [
        'run',
        '--project',
        'd2',
        '--subject',
        'sim:retention?p=1&format=1&faultsFrom=15',
        '--trials',
        '3',
        '--out',
        out,
      ],
      { CEILINGBENCH_GATES: JSON.stringify({ d2: { minRetention: 0.9 } }) },
    );
    const said = `${run.stdout}\n${run.stderr}`;
    expect(run.status, said).toBe(1);
    // the gate line: insufficient, with the levels and their shares; never a p_d
    expect(said).toMatch(
      /gate d2\.minRetention FAILED \(hard\): d2 p_d: insufficient data \(8 of 10 cell\(s\) insufficient \(too many trials missing or set aside\) — levels 15, 20, 25, 30, 35, 40, 45, 50: 100% \(format 3 of 3\) each\)/,
    );
    expect(said).not.toMatch(/p_d = 1\.000/);
    // the progress lines: every accuracy and the fit with the share beside it
    expect(said).toMatch(/d2 · N=5 — accuracy 100\.0% · set aside 0\.0%/);
    expect(said).toMatch(/d2 · N=15 — accuracy 0\.0% · set aside 100\.0%/);
    expect(said).toMatch(/p_d insufficient data · set aside 80\.0%/);
    // each deep cell fails its own test with its share
    expect(said).toContain(
      'd2 level 15: insufficient data — 3 of 3 trials are missing data or set aside (100%: format 3)',
    );
    const report = reportSchema.parse(JSON.parse(readFileSync(join(out, 'ceilingbench.json'), 'utf8')));
    expect(report.fits[0]).toMatchObject({ status: 'insufficient', setAsideRate: 0.8 });
    expect(report.summary.insufficientCells).toBe(8);
    const summary = readFileSync(join(out, 'summary.md'), 'utf8');
    expect(summary).toMatch(/\| d2 \| standard \| insufficient \| 80\.0% \| – \|/);
    expect(summary).toMatch(/\| d2 · N=15 \| 3 \| 0\.0% \| 100\.0% \(insufficient\) \|/);
  });
});
