import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveRunConfig } from '../../src/config/resolve.js';
import { declaredProjectName } from '../../src/tasks/project-names.js';
import { claimReportSet, ensureReporter } from '../../src/vitest/ensure-reporter.js';
import { REPORTER_FILE, SPECS_DIR } from '../../src/vitest/files.js';
import { manifestOf, specFilesIn, standardGrid } from '../../src/vitest/manifest.js';

const GRID = { kind: 'grid' } as const;

describe('the evidence manifest of a configuration (before any test runs)', () => {
  it('a standard grid: each shipped sweep with its levels, the ladder of scc; the adaptive design picks its depths', () => {
    expect(standardGrid('d2', GRID)).toEqual([
      {
        task: 'd2',
        fit: 'retention',
        variant: 'standard',
        profile: expect.any(String),
        levels: [5, 10, 15, 20, 25, 30, 35, 40, 45, 50],
      },
    ]);
    const puzzles = standardGrid('puzzles', GRID);
    expect(puzzles).toHaveLength(9);
    expect(puzzles.every((r) => r.fit === 'collapse' && r.levels?.length === 6)).toBe(true);
    expect(standardGrid('scc', GRID)).toEqual([{ task: 'count', fit: 'scc' }]);
    expect(standardGrid('d2', { kind: 'adaptive', targetWidth: 0.05 } as never)[0]?.levels).toBeUndefined();
  });

  it('the user folder: its spec files by the include pattern, not what a filter lets run', () => {
    const root = mkdtempSync(join(tmpdir(), 'cb-manifest-'));
    const files = [
      'b/registers.spec.ts',
      'b/deep/social.spec.mjs',
      'b/helper.ts',
      'b/node_modules/x/y.spec.ts',
      'b/t.spec.js',
    ];
    for (const file of files) {
      mkdirSync(join(root, file, '..'), { recursive: true });
      writeFileSync(join(root, file), '');
    }
    expect(specFilesIn(join(root, 'b'), root)).toEqual([
      'b/deep/social.spec.mjs',
      'b/registers.spec.ts',
      'b/t.spec.js',
    ]);
    expect(specFilesIn(join(root, 'missing'), root)).toEqual([]);
  });

  it('per project and subject, from the declared projects (every one, whatever --project selected)', async () => {
    const root = mkdtempSync(join(tmpdir(), 'cb-manifest-'));
    mkdirSync(join(root, 'benchmarks'));
    writeFileSync(join(root, 'benchmarks/registers.spec.ts'), '');
    const config = await resolveRunConfig({
      root,
      env: {
        CEILINGBENCH_SUBJECTS: 'oracle,sim:default',
        CEILINGBENCH_GATES: '{"d2":{"minRetention":0.9},"benchmarks":{"minRetention":0.8}}',
      },
    });
    const needs = manifestOf({
      ...config,
      benchmarkProjects: ['d2@oracle', 'd2@sim-default', 'benchmarks@oracle', 'benchmarks@sim-default'],
      benchmarkDirs: { d2: resolve(SPECS_DIR, 'd2'), benchmarks: join(root, 'benchmarks') },
    });
    expect(needs?.map((n) => [n.project, n.subject, n.task ?? n.file, n.threshold])).toEqual([
      ['d2@oracle', 'oracle', 'd2', 0.9],
      ['d2@sim-default', 'sim:default', 'd2', 0.9],
      ['benchmarks@oracle', 'oracle', 'benchmarks/registers.spec.ts', 0.8],
      ['benchmarks@sim-default', 'sim:default', 'benchmarks/registers.spec.ts', 0.8],
    ]);
    // without the plugin's declaration there is no manifest (the report falls back to the projects that ran)
    expect(manifestOf(config)).toBeUndefined();
  });
});

describe("Vitest 5's container names", () => {
  it('`bench (d2)` is the declared `d2`; a name the plugin did not declare stays as it is', () => {
    expect(declaredProjectName('bench (d2)', ['d2', 'benchmarks'])).toBe('d2');
    expect(declaredProjectName('bench (d2)', ['d2@oracle'])).toBe('d2');
    expect(declaredProjectName('d2', ['d2'])).toBe('d2');
    expect(declaredProjectName('my tests (unit)', ['d2'])).toBe('my tests (unit)');
    expect(declaredProjectName('bench (d2)', undefined)).toBe('bench (d2)');
  });
});

describe('reporters: a --reporter flag adds to ceilingbench, and one report set is built per run', () => {
  it('adds ceilingbench to a list that lacks it, never removes one, once', () => {
    const vitest = { config: { reporters: [['dot', {}]] as unknown[] } };
    ensureReporter(vitest as never);
    ensureReporter(vitest as never);
    expect(vitest.config.reporters).toEqual([
      ['dot', {}],
      [REPORTER_FILE, {}],
    ]);
  });

  it('the first reporter instance of a Vitest claims the report set; another stays silent', () => {
    const vitest = {};
    const first = {};
    const second = {};
    expect(claimReportSet(vitest as never, first)).toBe(true);
    expect(claimReportSet(vitest as never, second)).toBe(false);
    expect(claimReportSet(vitest as never, first)).toBe(true);
    expect(claimReportSet({} as never, second)).toBe(true);
  });
});
