import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SPECS_DIR } from '../../src/vitest/files.js';
import { ceilingbench } from '../../src/vitest/plugin.js';

const SPEC_DIR = (project: string) => resolve(SPECS_DIR, project);
/** The configuration root the tests give the plugin: the declaration names it (its ceilingbench root). */
const ROOT = '/nonexistent-cb-root';

interface DeclaredProject {
  test: { name: string; provide: Record<string, unknown> };
}

async function declared(env: Record<string, string>): Promise<DeclaredProject[]> {
  for (const [key, value] of Object.entries(env)) vi.stubEnv(key, value);
  const plugin = ceilingbench({ projects: ['d1', 'd2'], specs: false, tests: false });
  const hook = plugin.config as (config: object) => Promise<{ test: { projects: DeclaredProject[] } }>;
  return (await hook({ root: '/nonexistent-cb-root' })).test.projects;
}

describe('the plugin declares one project per standard project, whatever the number of subjects', () => {
  afterEach(() => vi.unstubAllEnvs());

  it('keeps the standard names and provides no subject with one subject', async () => {
    const projects = await declared({ CEILINGBENCH_SUBJECT: 'sim:retention?p=0.9', CEILINGBENCH_SUBJECTS: '' });
    expect(projects.map((p) => p.test.name)).toEqual(['d1', 'd2']);
    for (const p of projects)
      expect(p.test.provide).toEqual({
        'ceilingbench:benchmark': true,
        'ceilingbench:declared': {
          benchmark: ['d1', 'd2'],
          other: [],
          dirs: { d1: SPEC_DIR('d1'), d2: SPEC_DIR('d2') },
          root: ROOT,
        },
      });
  });

  it('provides every project all the subjects, and declares <project>@<label> per subject, with several', async () => {
    // a project per subject cost its own Vite server, setup and worker (BENCHMARKS.md, "per subject")
    const projects = await declared({ CEILINGBENCH_SUBJECT: '', CEILINGBENCH_SUBJECTS: 'oracle,openai:gpt-4o-mini' });
    expect(projects.map((p) => p.test.name)).toEqual(['d1', 'd2']);
    for (const p of projects) {
      expect(p.test.provide['ceilingbench:subjects']).toEqual([
        { spec: 'oracle', label: 'oracle' },
        { spec: 'openai:gpt-4o-mini', label: 'gpt-4o-mini' },
      ]);
      // records, gates and the report's scope name the subject's project
      expect(p.test.provide['ceilingbench:declared']).toEqual({
        benchmark: ['d1@oracle', 'd1@gpt-4o-mini', 'd2@oracle', 'd2@gpt-4o-mini'],
        other: [],
        dirs: { d1: SPEC_DIR('d1'), d2: SPEC_DIR('d2') },
        root: ROOT,
      });
    }
  });

  it("keeps the configuration's own tests as a project of their own when it declares none", async () => {
    vi.stubEnv('CEILINGBENCH_SUBJECT', 'oracle');
    const hook = ceilingbench({ projects: ['d2'] }).config as (config: object) => Promise<{
      test: {
        projects: Array<{
          extends?: boolean;
          test: { name: string; exclude?: string[]; provide?: Record<string, unknown> };
        }>;
      };
    }>;
    const bare = (await hook({ root: '/nonexistent-cb-root', test: { exclude: ['**/node_modules/**', 'tmp/**'] } }))
      .test.projects;
    expect(bare.map((p) => p.test.name)).toEqual(['tests', 'd2']);
    expect(bare[0]).toMatchObject({
      extends: true,
      test: { exclude: ['**/node_modules/**', 'tmp/**', 'benchmarks/**'] },
    });
    // the gate keys may name it: it is among the declaration's other projects
    expect(bare[1]?.test.provide?.['ceilingbench:declared']).toEqual({
      benchmark: ['d2'],
      other: ['tests'],
      dirs: { d2: SPEC_DIR('d2') },
      root: ROOT,
    });
    const withProjects = (
      await hook({ root: '/nonexistent-cb-root', test: { projects: [{ test: { name: 'unit' } }] } })
    ).test.projects;
    expect(withProjects.map((p) => p.test.name)).toEqual(['d2']);
    const named = ceilingbench({ projects: ['d2'], tests: 'unit' }).config as typeof hook;
    expect((await named({ root: '/nonexistent-cb-root' })).test.projects[0]?.test.name).toBe('unit');
  });

  it("standard projects carry the plugin instead of extending the root configuration; the user's spec folder extends it", async () => {
    // extends: true made Vitest load the configuration file again for every project (BENCHMARKS.md, "Start-up")
    vi.stubEnv('CEILINGBENCH_SUBJECT', 'oracle');
    const root = mkdtempSync(join(os.tmpdir(), 'cb-plugin-'));
    try {
      mkdirSync(join(root, 'benchmarks'));
      const hook = ceilingbench({ projects: ['d1'], tests: false }).config as (config: object) => Promise<{
        test: { projects: Array<{ extends?: boolean; plugins?: Array<{ name: string }>; test: { name: string } }> };
      }>;
      const projects = (await hook({ root })).test.projects;
      expect(projects.map((p) => [p.test.name, p.extends, p.plugins?.map((x) => x.name)])).toEqual([
        ['d1', undefined, ['ceilingbench:project']],
        ['benchmarks', true, undefined],
      ]);
      const own = projects[0]?.plugins?.[0] as { configureVitest?: unknown };
      expect(typeof own.configureVitest).toBe('function');
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
