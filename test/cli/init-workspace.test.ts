import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findPlace } from '../../src/cli/commands/init-place.js';
import { placeWorkflow, WorkflowTemplateError } from '../../src/cli/commands/init-workflow.js';
import { init } from '../support/init-cli.js';

const WORKFLOW = '.github/workflows/ceilingbench.yml';
const template = readFileSync(new URL(`../../examples/consumer/${WORKFLOW}`, import.meta.url), 'utf8');
const engines = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).engines.node as string;

function write(root: string, file: string, text: string): void {
  mkdirSync(join(root, file, '..'), { recursive: true });
  writeFileSync(join(root, file), text);
}

/** An npm workspace in a git repository: `packages/bench` is the benchmark package; the root installs everything. */
function workspace(rootDeps: object = { ceilingbench: '^0.1.0', vitest: '^4.1.0' }): string {
  const root = mkdtempSync(join(tmpdir(), 'cb-init-ws-'));
  mkdirSync(join(root, '.git'));
  write(
    root,
    'package.json',
    JSON.stringify({ name: 'mono', private: true, workspaces: ['packages/*'], devDependencies: rootDeps }),
  );
  write(root, 'packages/bench/package.json', JSON.stringify({ name: 'bench', type: 'module' }));
  return root;
}

/** The DOCS pattern of the plan job's first step: a pull request changing only such files is skipped. */
const docs = new RegExp(/DOCS: '([^']+)'/.exec(template)?.[1] ?? 'no DOCS line');

describe('the shipped workflow', () => {
  it('runs on a Node that satisfies package.json engines (the newest release of the floor major)', () => {
    const floor = /^>=(\d+)\.(\d+)\.(\d+)$/.exec(engines);
    expect(floor, `engines.node ${engines}`).not.toBeNull();
    const versions = [...template.matchAll(/node-version: (\S+)/g)].map((m) => m[1]);
    expect(versions).toHaveLength(3);
    // setup-node resolves a bare major to its newest release, which is at or after the floor of that major
    for (const v of versions) expect(Number(v)).toBeGreaterThanOrEqual(Number(floor?.[1]));
  });

  it('benchmarks a pull request that changes anything the measurement depends on, skips documentation only', () => {
    const runs = [
      'subjects/agent.ts',
      'src/agent/prompt.ts',
      'package.json',
      'package-lock.json',
      'pnpm-lock.yaml',
      'ceilingbench.config.ts',
      'ceilingbench.config.mts',
      'vitest.config.ts',
      'benchmarks/registers.spec.ts',
      '.github/workflows/ceilingbench.yml',
      'packages/bench/subjects/agent.ts',
      'packages/agent/src/index.ts',
    ];
    for (const path of runs) expect(docs.test(path), path).toBe(false);
    const skipped = ['README.md', 'docs/setup.md', 'docs/img/flow.png', 'packages/bench/CHANGELOG.md', 'LICENSE'];
    for (const path of [...skipped, '.github/dependabot.yml', '.github/ISSUE_TEMPLATE/bug.yml']) {
      expect(docs.test(path), path).toBe(true);
    }
  });
});

describe('ceilingbench init in a workspace package', () => {
  it('writes the workflow at the repository root, running in the package, installing at the root', async () => {
    const root = workspace();
    const bench = join(root, 'packages/bench');
    const { code, out } = await init(bench);
    expect(code).toBe(0);
    expect(existsSync(join(bench, '.github'))).toBe(false);
    const flow = readFileSync(join(root, WORKFLOW), 'utf8');
    expect(flow).toBe(placeWorkflow(template, { bench: 'packages/bench', install: '' }));
    expect(flow).toContain('    shell: bash\n    working-directory: packages/bench\n');
    expect(flow.match(/run: npm ci\n\s+working-directory: \.\n/g)).toHaveLength(3);
    expect(flow).toContain('path: packages/bench/.ceilingbench/cache');
    expect(flow).toContain('path: packages/bench/.vitest-reports/*');
    expect(flow).toContain('            packages/bench/reports/junit.xml\n');
    expect(flow).toContain("hashFiles('packages/bench/reports/ceilingbench.json')");
    // every path an action reads or writes is under the package; every path a `run:` names is in its folder
    for (const m of flow.matchAll(/^\s+path: ([^|\s]+)$/gm)) expect(m[1]).toMatch(/^packages\/bench\//);
    expect(out).toContain(`wrote    ../../${WORKFLOW} (at the repository's root; its steps run in packages/bench)`);
    expect(out).not.toContain('npm install');
    expect(out).toContain("ceilingbenchWorkspace('packages/bench')");
    // the package's own files stay in the package
    for (const file of ['vitest.config.ts', 'ceilingbench.config.ts', 'benchmarks/registers.spec.ts', '.gitignore']) {
      expect(existsSync(join(bench, file)), file).toBe(true);
    }
  });

  it('names the root install when the workspace has none, and a re-run changes nothing', async () => {
    const root = workspace({});
    const bench = join(root, 'packages/bench');
    const first = await init(bench);
    expect(first.out).toMatch(/npm install -D ceilingbench vitest/);
    write(root, 'vitest.config.ts', "plugins: [ceilingbenchWorkspace('packages/bench')]\n");
    write(root, 'node_modules/ceilingbench/package.json', '{}');
    write(root, 'node_modules/vitest/package.json', '{}');
    const flow = readFileSync(join(root, WORKFLOW), 'utf8');
    const second = await init(bench);
    expect(second.out).toContain(`kept     ../../${WORKFLOW} (exists; --force overwrites it)`);
    expect(second.out).toMatch(/init changed nothing: ceilingbench is already set up here\n$/);
    expect(readFileSync(join(root, WORKFLOW), 'utf8')).toBe(flow);
  });

  it('a folder of a git repository that is no workspace installs in the folder', async () => {
    const root = mkdtempSync(join(tmpdir(), 'cb-init-sub-'));
    mkdirSync(join(root, '.git'));
    write(root, 'tools/bench/package.json', JSON.stringify({ name: 'bench', type: 'module' }));
    const place = findPlace(join(root, 'tools/bench'));
    expect(place).toEqual({
      root: join(root, 'tools/bench'),
      repository: root,
      install: join(root, 'tools/bench'),
      workspace: undefined,
    });
    await init(join(root, 'tools/bench'));
    const flow = readFileSync(join(root, WORKFLOW), 'utf8');
    expect(flow.match(/run: npm ci\n\s+working-directory: tools\/bench\n/g)).toHaveLength(3);
    expect(flow.match(/cache-dependency-path: tools\/bench\/package-lock\.json/g)).toHaveLength(3);
  });

  it('finds pnpm and object-form workspaces, and never looks above the git root', () => {
    const root = mkdtempSync(join(tmpdir(), 'cb-init-pnpm-'));
    write(root, 'pnpm-workspace.yaml', 'packages:\n  - \'apps/*\'\n  - "tools/**"\n');
    write(root, 'tools/x/bench/package.json', '{}');
    expect(findPlace(join(root, 'tools/x/bench')).workspace).toBe(root);
    write(root, 'apps/a/package.json', '{}');
    mkdirSync(join(root, 'apps/a/.git'));
    expect(findPlace(join(root, 'apps/a'))).toMatchObject({ repository: join(root, 'apps/a'), workspace: undefined });
    const yarn = mkdtempSync(join(tmpdir(), 'cb-init-yarn-'));
    write(yarn, 'package.json', JSON.stringify({ workspaces: { packages: ['packages/*'] } }));
    expect(findPlace(join(yarn, 'packages/b')).workspace).toBe(yarn);
    expect(findPlace(join(yarn, 'other/b')).workspace).toBeUndefined();
  });

  it('refuses a template that lost a line it moves, instead of writing a workflow that runs in the wrong folder', () => {
    const broken = template.replace('path: .ceilingbench/cache', 'path: cache');
    expect(() => placeWorkflow(broken, { bench: 'packages/bench', install: '' })).toThrow(WorkflowTemplateError);
    expect(placeWorkflow(template, { bench: '', install: '' })).toBe(template);
  });
});
