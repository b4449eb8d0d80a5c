import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { declaredIn, declareProjects, forPackage } from '../../src/vitest/declare.js';
import { REPORTER_FILE, reportersToAdd, SPECS_DIR } from '../../src/vitest/files.js';
import { runConfigFor } from '../../src/vitest/run-config.js';

/** The pieces a workspace package's benchmark projects are made of (the whole runs in test/e2e/monorepo.test.ts). */
describe('a workspace package', () => {
  afterEach(() => vi.unstubAllEnvs());

  const packageRoot = (minRetention: number): string => {
    const root = mkdtempSync(join(tmpdir(), 'cb-pkg-'));
    writeFileSync(
      join(root, 'ceilingbench.config.mjs'),
      `export default { gates: { d2: { minRetention: ${minRetention} } } };`,
    );
    return root;
  };
  const host = (root: string) => ({ config: { root }, import: <T>(path: string) => import(path) as Promise<T> });

  it('resolves one configuration per root of a Vitest instance: each package its gates, reports and cache', async () => {
    vi.stubEnv('CEILINGBENCH_SUBJECT', 'sim:retention?p=0.9');
    vi.stubEnv('CEILINGBENCH_OUT', '');
    vi.stubEnv('CEILINGBENCH_CACHE_DIR', '');
    vi.stubEnv('CEILINGBENCH_GATES', '');
    const workspace = packageRoot(0.1);
    const a = packageRoot(0.5);
    const b = packageRoot(0.7);
    const vitest = host(workspace);
    const [own, ofA, ofB] = await Promise.all([runConfigFor(vitest), runConfigFor(vitest, a), runConfigFor(vitest, b)]);
    expect([own.root, ofA.root, ofB.root]).toEqual([workspace, a, b]);
    expect([own, ofA, ofB].map((c) => c.gates.d2?.minRetention)).toEqual([0.1, 0.5, 0.7]);
    expect(ofA.outDir).toBe(join(a, 'reports'));
    expect(ofA.cacheDir).toBe(join(a, '.ceilingbench/cache'));
    // once per (instance, root)
    expect(runConfigFor(vitest, a)).toBe(runConfigFor(vitest, `${a}/`));
    expect(runConfigFor(vitest, a)).not.toBe(runConfigFor(host(workspace), a));
  });

  it('declares its projects rooted at the package, extending its configuration file, declared for its root', async () => {
    vi.stubEnv('CEILINGBENCH_SUBJECT', 'sim:retention?p=0.9');
    vi.stubEnv('CEILINGBENCH_SUBJECTS', '');
    const root = mkdtempSync(join(tmpdir(), 'cb-pkg-'));
    mkdirSync(join(root, 'benchmarks'));
    const declared = await declareProjects(root, { projects: ['d2'] }, ['unit']);
    const projects = forPackage(declared, root, join(root, 'vitest.config.ts'));
    expect(projects.map((p) => [p.test?.name, p.root, p.extends])).toEqual([
      ['d2', root, join(root, 'vitest.config.ts')],
      ['benchmarks', root, join(root, 'vitest.config.ts')],
    ]);
    // the package's own spec files share a worker per project wherever they are declared; the user's keep isolation
    expect(projects.map((p) => p.test?.isolate)).toEqual([false, undefined]);
    for (const project of projects)
      expect(project.test?.provide?.['ceilingbench:declared']).toEqual({
        benchmark: ['d2', 'benchmarks'],
        other: ['unit'],
        dirs: { d2: resolve(SPECS_DIR, 'd2'), benchmarks: join(root, 'benchmarks') },
        root,
      });
    // what a package's configuration holds among its projects, once Vitest dropped them
    expect(declaredIn([{ test: { name: 'unit' } }, ...declared, 'packages/*'])).toEqual(declared);
  });

  it('adds the reporter once, whoever added it first', () => {
    expect(reportersToAdd(undefined)).toEqual(['default', REPORTER_FILE]);
    expect(reportersToAdd(['dot'])).toEqual([REPORTER_FILE]);
    expect(reportersToAdd(['default', REPORTER_FILE])).toEqual([]);
    expect(reportersToAdd([['ceilingbench/reporter', {}]])).toEqual([]);
    expect(reportersToAdd(['/x/node_modules/ceilingbench/dist/reporters/reporter.js'])).toEqual([]);
    expect(reportersToAdd(['/x/node_modules/ceilingbench/dist/vitest/reporter.js'])).toEqual([]); // an older install
  });
});
