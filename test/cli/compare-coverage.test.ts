import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { comparisonSchema } from '../../src/compare/schema.js';
import type { Baseline } from '../../src/schema/baseline.js';
import { ladder, run, sweep } from '../compare/runs.js';
import { cliCaptured } from '../support/cli-captured.js';

// `ceilingbench compare` through the program, on baseline files: exit 1 when a baseline record was not compared,
// 0 when all were and none regressed, 2 on a usage error (--only naming a project neither run has).

let dir: string;
const path = (b: Baseline) => {
  const file = join(dir, `${b.name}.json`);
  writeFileSync(file, `${JSON.stringify(b, null, 2)}\n`);
  return file;
};

const cli = cliCaptured;

let base: string;
let partial: string;
let same: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'cb-compare-coverage-'));
  base = path(run('base', sweep('d1'), sweep('d2'), ladder('scc')));
  partial = path(run('partial', sweep('d2', { levels: [5, 10, 15] }), sweep('d3', { levels: [5] })));
  same = path(run('same', sweep('d1'), sweep('d2'), ladder('scc')));
});

describe('ceilingbench compare: coverage of the baseline', () => {
  it('exits 1 on records it did not compare, and lists them grouped by reason', async () => {
    const r = await cli('compare', base, partial);
    expect(r.err).toBe('');
    expect(r.code).toBe(1);
    expect(r.out).toContain('| p_d | d2 | standard |');
    expect(r.out).toContain('refit on the common levels 5, 10, 15; the candidate has no 20–50:');
    expect(r.out).toMatch(/\n\d+ not compared \(the gate fails on them\):\nabsent from the candidate \(\d+\):\n/);
    expect(r.out).toContain('- d1 d1 p_d (standard): the candidate partial ran no project d1');
    expect(r.out).toContain('- scc count counting_capacity: the candidate partial ran no project scc');
    expect(r.out).toContain(
      'other levels (2):\n- d2 d2 p_d (standard): levels 20–50: the candidate partial has no such level',
    );
    expect(r.out).toContain(
      '2 new in the candidate (not gated):\n- d3 d3 p_d (standard)\n- d3 d3 accuracy (standard): levels 5\n',
    );
    expect(r.out).toMatch(/\nFAIL: \d+ not compared\n$/);
  });

  it('--json carries the not-compared records with their kind', async () => {
    const r = await cli('compare', base, partial, '--json');
    expect(r.code).toBe(1);
    const c = comparisonSchema.parse(JSON.parse(r.out));
    expect(c.passed).toBe(false);
    expect(c.notCompared.find((n) => n.project === 'd2' && n.metric === 'p_d')).toMatchObject({
      kind: 'other-levels',
      levels: [20, 25, 30, 35, 40, 45, 50],
    });
  });

  it('exits 0 on two identical runs', async () => {
    const r = await cli('compare', base, same);
    expect(r.code, r.out).toBe(0);
    expect(r.out).not.toContain('not compared');
    expect(r.out).toMatch(/\nPASS: every baseline record in scope was compared, and none regressed\n$/);
  });

  it('--only narrows the scope (and says so); a project neither run has is a usage error (exit 2)', async () => {
    const d2 = await cli('compare', base, same, '--only', 'd2');
    expect(d2.code).toBe(0);
    expect(d2.out).toContain('scope: --only d2 — baseline projects d2; not in scope: d1, scc');
    const both = await cli('compare', base, partial, '--only', 'd2', '--only', 'd1,scc', '--json');
    expect(both.code).toBe(1);
    expect(comparisonSchema.parse(JSON.parse(both.out)).scope).toEqual({
      only: ['d2', 'd1', 'scc'],
      projects: ['d1', 'd2', 'scc'],
      excluded: [],
    });
    const unknown = await cli('compare', base, same, '--only', 'd2,d7');
    expect(unknown.code).toBe(2);
    expect(unknown.out).toBe('');
    expect(unknown.err).toBe(
      'ceilingbench: --only d7: neither run has project d7; the baseline base has d1, d2, scc, the candidate same has d1, d2, scc\n',
    );
  });
});
