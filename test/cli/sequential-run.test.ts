import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reportSchema } from '../../src/schema/report.js';
import { runCeilingbench } from '../support/run-vitest.js';

// `--design sequential` through the CLI and Vitest on the sim subject: one test per retention sweep, stopped when
// the project's minRetention test decided, its gate line stating the decision, alpha and the design's power.

const GATES = JSON.stringify({ d2: { minRetention: { value: 0.9, evidence: 'test', margin: 0.02 } } });

describe('ceilingbench run --design sequential', () => {
  it('fails a model below the threshold with stated errors, and stops a model far above after one look', () => {
    const out = join(mkdtempSync(join(tmpdir(), 'cb-seq-')), 'reports');
    const low = runCeilingbench(
      ['run', '--project', 'd2', '--subject', 'sim:retention?p=0.85', '--design', 'sequential', '--out', out],
      { CEILINGBENCH_GATES: GATES },
    );
    expect(low.status, low.stderr + low.stdout).toBe(1);
    expect(low.stdout).toMatch(
      /gate d2\.minRetention FAILED \(hard\): .*likelihood-ratio test of 0\.9 against 0\.880 finds a shortfall .* — alpha 0\.05, power 0\.\d{3} \(the sequential design's, 400 simulated runs\) at margin 0\.02/,
    );
    const report = reportSchema.parse(JSON.parse(readFileSync(join(out, 'ceilingbench.json'), 'utf8')));
    expect(report.gates.find((g) => g.gate === 'minRetention')).toMatchObject({ evidence: 'test', alpha: 0.05 });

    const high = runCeilingbench(
      ['run', '--project', 'd2', '--subject', 'sim:retention?p=0.99', '--design', 'sequential', '--out', `${out}-high`],
      { CEILINGBENCH_GATES: GATES },
    );
    expect(high.status, high.stderr + high.stdout).toBe(0);
    // one look: 2 trials at each of the 10 depths, against the grid's 400 calls at --trials 40
    expect(high.stdout).toMatch(/ceilingbench: 1 tests in .* · calls 20 /);
  }, 300_000);

  it('without a minRetention gate tested with stated errors, says how to configure one', () => {
    const run = runCeilingbench(
      ['run', '--project', 'd2', '--subject', 'sim:retention?p=0.9', '--design', 'sequential'],
      {
        CEILINGBENCH_GATES: JSON.stringify({ d2: { minRetention: 0.9 } }),
        CEILINGBENCH_OUT: join(mkdtempSync(join(tmpdir(), 'cb-seq-')), 'reports'),
      },
    );
    expect(run.status).toBe(1);
    expect(run.stdout + run.stderr).toMatch(
      /design 'sequential' decides the project's minRetention gate with evidence 'test'/,
    );
  }, 300_000);
});
