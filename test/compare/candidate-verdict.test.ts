import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { comparisonSchema } from '../../src/compare/schema.js';
import { gateLine } from '../../src/gates/index.js';
import type { GateResult } from '../../src/schema/gate.js';
import type { RequirementOutcome } from '../../src/schema/manifest.js';
import type { Report } from '../../src/schema/report.js';
import { cliCaptured } from '../support/cli-captured.js';

// compare decides through the run's one verdict (src/gates decideVerdict): the candidate's own gates — threshold,
// notWorseThan, and each record its manifest needed and did not get — join the comparison's. On the fixture report
// (d1, d2, d3, puzzles, scc on the simulated subject), altered as a run under a filter or a failing gate writes it.

const FIXTURE = join(import.meta.dirname, '../../fixtures/report/ceilingbench.json');
const fixture = (): Report => JSON.parse(readFileSync(FIXTURE, 'utf8'));
const SUBJECT = 'sim:retention?p=0.95';

/** d3's fit needed by the hard gate d3.minRetention 0.8, skipped by `-t ^d2`: what the run judged. */
const d3Need = (got: RequirementOutcome['got'], detail: string): RequirementOutcome => ({
  key: 'd3',
  gate: 'minRetention',
  mode: 'hard',
  threshold: 0.8,
  evidence: 'point',
  project: 'd3',
  subject: SUBJECT,
  seed: 1,
  fit: 'retention',
  task: 'd3',
  variant: 'standard',
  got,
  detail,
});
const SKIPPED = "no finished record in project 'd3' for d3 retention fit: its fit test 'd3 · fit' was skipped";
/** The line decideVerdict wrote for it in the run. */
const unmetLine: GateResult = {
  project: 'd3',
  task: 'd3',
  gate: 'minRetention',
  mode: 'hard',
  threshold: 0.8,
  estimate: null,
  ci95: null,
  passed: false,
  message: gateLine('d3', 'minRetention', false, 'hard', `not evaluated — ${SKIPPED}`),
  subject: SUBJECT,
};

let dir: string;
const write = (name: string, report: Report) => {
  const file = join(dir, `${name}.json`);
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  return file;
};
const cli = cliCaptured;

let full: string;
let unchecked: string;
let stripped: string;
let notWorse: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'cb-compare-verdict-'));
  full = write('full', {
    ...fixture(),
    manifest: { requirements: [d3Need('passed', 'present')] },
  });
  unchecked = write('unchecked', {
    ...fixture(),
    gates: [...fixture().gates, unmetLine],
    manifest: { requirements: [d3Need('not evaluated', SKIPPED)] },
  });
  // the same need, its gate line gone from `gates` (a hand-edited or partly merged file): the manifest decides
  stripped = write('stripped', { ...fixture(), manifest: { requirements: [d3Need('not evaluated', SKIPPED)] } });
  const nwt: GateResult = {
    project: 'd2',
    task: 'd2',
    gate: 'notWorseThan',
    mode: 'hard',
    threshold: -0.01,
    estimate: -0.08,
    ci95: null,
    passed: false,
    message: gateLine('d2', 'notWorseThan', false, 'hard', 'Δp_d upper bound -0.05 < -0.01'),
    subject: SUBJECT,
    baseline: 'sim:retention?p=0.99',
    upper: -0.05,
  };
  notWorse = write('not-worse', { ...fixture(), gates: [...fixture().gates, nwt] });
});

describe('compare: the candidate’s own gates decide with the comparison (decideVerdict)', () => {
  it('two identical runs whose gates passed exit 0', async () => {
    const r = await cli('compare', full, full);
    expect(r.code, r.out).toBe(0);
    expect(r.out).toMatch(/\nPASS: every baseline record in scope was compared, and none regressed\n$/);
  });

  it('a candidate whose manifest left a needed record unchecked fails, though every baseline record compared', async () => {
    // the same run as baseline: no regression, nothing uncompared — the comparison alone passed it (exit 0 before)
    const r = await cli('compare', unchecked, unchecked);
    expect(r.code, r.out).toBe(1);
    expect(r.out).not.toContain('not compared');
    expect(r.out).toContain(
      "the candidate's own gates: 1 hard gate(s) failed or not evaluated (compare fails on them):\n" +
        `- [${SUBJECT}] gate d3.minRetention FAILED (hard): not evaluated — ${SKIPPED}\n`,
    );
    expect(r.out).toMatch(/\nFAIL: 1 hard gate\(s\) of the candidate failed\n$/);
    // against a full baseline the same
    expect((await cli('compare', full, unchecked)).code).toBe(1);
    // the baseline side's own gates do not decide: the candidate is what is judged
    expect((await cli('compare', unchecked, full)).code).toBe(0);
  });

  it('the stored needs decide, not only the stored gate lines: one line, rebuilt when absent', async () => {
    const r = await cli('compare', full, stripped, '--json');
    expect(r.code).toBe(1);
    const c = comparisonSchema.parse(JSON.parse(r.out));
    expect(c.passed).toBe(false);
    expect(c.candidateGates.filter((g) => !g.passed && g.mode === 'hard')).toEqual([unmetLine]);
    // with the line stored too, it is not doubled
    const both = comparisonSchema.parse(JSON.parse((await cli('compare', full, unchecked, '--json')).out));
    expect(both.candidateGates.filter((g) => !g.passed && g.mode === 'hard')).toEqual([unmetLine]);
  });

  it('a failed hard notWorseThan of the candidate fails compare', async () => {
    const r = await cli('compare', full, notWorse);
    expect(r.code, r.out).toBe(1);
    expect(r.out).toContain(`- [${SUBJECT}] gate d2.notWorseThan FAILED (hard): Δp_d upper bound -0.05 < -0.01`);
  });

  it('--only leaves the candidate’s gates of other projects out of the verdict', async () => {
    const d2 = await cli('compare', full, unchecked, '--only', 'd2');
    expect(d2.code, d2.out).toBe(0);
    const d3 = await cli('compare', full, unchecked, '--only', 'd3');
    expect(d3.code, d3.out).toBe(1);
  });

  it('an advisory gate of the candidate that failed is shown but does not fail compare', async () => {
    // the fixture's d3 pd gate is advisory and failed
    const c = comparisonSchema.parse(JSON.parse((await cli('compare', full, full, '--json')).out));
    expect(c.candidateGates.some((g) => g.mode === 'advisory' && !g.passed)).toBe(true);
    expect(c.passed).toBe(true);
  });
});
