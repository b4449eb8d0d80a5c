import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GITIGNORE_ENTRIES, GITIGNORE_HEADER, INIT_FILES } from '../../src/cli/commands/init.js';
import { findConfigFile } from '../../src/config/load.js';
import { VITEST_CONFIG_FILES } from '../../src/vitest/files.js';
import { init } from '../support/init-cli.js';

const EXAMPLE = new URL('../../examples/consumer/', import.meta.url);
const example = (file: string) => readFileSync(new URL(file, EXAMPLE), 'utf8');

function repo(pkg?: object): string {
  const root = mkdtempSync(join(tmpdir(), 'cb-init-'));
  if (pkg) writeFileSync(join(root, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
  return root;
}

const read = (root: string, file: string) => readFileSync(join(root, file), 'utf8');
const vitestConfigs = (root: string) => VITEST_CONFIG_FILES.filter((f) => existsSync(join(root, f)));

describe('ceilingbench init', () => {
  it("writes the example repository's config, gate, spec and workflow byte for byte, and a .gitignore", async () => {
    const root = repo({ name: 'app', type: 'module' });
    const { code, out } = await init(root);
    expect(code).toBe(0);
    for (const file of INIT_FILES) expect(read(root, file)).toBe(example(file));
    expect(read(root, '.gitignore')).toBe(`${GITIGNORE_HEADER}\n${GITIGNORE_ENTRIES.join('\n')}\n`);
    expect(out).toMatch(/npm install -D ceilingbench vitest/);
    expect(out).not.toMatch(/\.mts/);
  });

  it('writes .mts files in a CommonJS package, says why, and the config loader finds them', async () => {
    for (const pkg of [{ name: 'app', type: 'commonjs' }, { name: 'app' }]) {
      const root = repo(pkg);
      const { code, out } = await init(root);
      expect(code).toBe(0);
      expect(out.match(/^note .*written as \.mts.*ESM-only/gm)).toHaveLength(1);
      expect(read(root, 'vitest.config.mts')).toBe(example('vitest.config.ts'));
      expect(read(root, 'ceilingbench.config.mts')).toBe(example('ceilingbench.config.ts'));
      expect(read(root, 'benchmarks/registers.spec.mts')).toBe(example('benchmarks/registers.spec.ts'));
      expect(read(root, '.github/workflows/ceilingbench.yml')).toBe(example('.github/workflows/ceilingbench.yml'));
      expect(vitestConfigs(root)).toEqual(['vitest.config.mts']);
      expect(existsSync(join(root, 'ceilingbench.config.ts'))).toBe(false);
      expect(findConfigFile({}, root)).toBe(join(root, 'ceilingbench.config.mts'));
    }
  });

  it('keeps an existing Vite config and prints the plugin lines to add to it', async () => {
    const root = repo({ name: 'app', type: 'module' });
    writeFileSync(join(root, 'vite.config.ts'), '// mine\n');
    const { code, out } = await init(root);
    expect(code).toBe(0);
    expect(vitestConfigs(root)).toEqual(['vite.config.ts']);
    expect(read(root, 'vite.config.ts')).toBe('// mine\n');
    expect(out).toMatch(/kept {5}vite\.config\.ts \(exists; --force writes vitest\.config\.ts beside it\)/);
    expect(out).toContain('add the plugin to vite.config.ts:');
    expect(out).toContain("import { ceilingbench } from 'ceilingbench/plugin';");
    expect(out).toContain("plugins: [ceilingbench({ specs: 'benchmarks' })],");
    // the other files are still written
    expect(read(root, 'ceilingbench.config.ts')).toBe(example('ceilingbench.config.ts'));
  });

  it('keeps any Vitest config Vitest would read (vitest.config.mts beside an ESM package)', async () => {
    const root = repo({ name: 'app', type: 'module' });
    writeFileSync(join(root, 'vitest.config.mts'), '// mine\n');
    const { out } = await init(root);
    expect(vitestConfigs(root)).toEqual(['vitest.config.mts']);
    expect(out).toContain('add the plugin to vitest.config.mts:');
  });

  it('tells a CommonJS config to become an ES module before it can import the plugin', async () => {
    const root = repo({ name: 'app' });
    writeFileSync(join(root, 'vite.config.cjs'), 'module.exports = {};\n');
    const { out } = await init(root);
    expect(vitestConfigs(root)).toEqual(['vite.config.cjs']);
    expect(out).toMatch(/vite\.config\.cjs is CommonJS .* rename it to vite\.config\.mjs/);
  });

  it('tells a CommonJS package that tsc reads its vite.config.ts as CommonJS', async () => {
    const root = repo({ name: 'app', type: 'commonjs' });
    writeFileSync(join(root, 'vite.config.ts'), '// mine\n');
    const { out } = await init(root);
    expect(out).toContain('tsc reads vite.config.ts as CommonJS: rename it to vite.config.mts');
    expect(vitestConfigs(root)).toEqual(['vite.config.ts']);
  });

  it('keeps an existing ceilingbench config of any name', async () => {
    const root = repo({ name: 'app' });
    writeFileSync(join(root, 'ceilingbench.config.ts'), '// mine\n');
    const { out } = await init(root);
    expect(out).toMatch(/kept {5}ceilingbench\.config\.ts \(exists; --force writes ceilingbench\.config\.mts/);
    expect(existsSync(join(root, 'ceilingbench.config.mts'))).toBe(false);
  });

  it('appends only the missing .gitignore entries under one comment, and a second init adds nothing', async () => {
    const root = repo({ name: 'app', type: 'module' });
    writeFileSync(join(root, '.gitignore'), 'node_modules/\n/reports');
    const first = await init(root);
    expect(first.out).toContain('updated  .gitignore (added .ceilingbench/, .vitest-reports/)');
    const after = read(root, '.gitignore');
    expect(after).toBe(`node_modules/\n/reports\n\n${GITIGNORE_HEADER}\n.ceilingbench/\n.vitest-reports/\n`);
    const second = await init(root);
    expect(second.out).toMatch(/kept {5}\.gitignore/);
    expect(read(root, '.gitignore')).toBe(after);
    for (const file of INIT_FILES.filter((f) => f !== 'vitest.config.ts')) {
      expect(second.out).toContain(`kept     ${file} (exists; --force overwrites it)`);
    }
    expect(second.out).toContain('kept     vitest.config.ts (it loads the ceilingbench plugin; --force overwrites it)');
    expect(second.out).not.toContain('add the plugin');
  });

  it('a second init where everything is set up and installed changes nothing and says so', async () => {
    const root = repo({ name: 'app', type: 'module', devDependencies: { ceilingbench: '^0.1.0', vitest: '^4.1.0' } });
    const first = await init(root);
    expect(first.out).not.toContain('npm install');
    const files = [...INIT_FILES, '.gitignore'].map((f) => read(root, f));
    const second = await init(root);
    expect(second.code).toBe(0);
    expect([...INIT_FILES, '.gitignore'].map((f) => read(root, f))).toEqual(files);
    expect(second.out).toMatch(/init changed nothing: ceilingbench is already set up here\n$/);
    expect(second.out).not.toMatch(/next:|npm install|add the plugin/);
  });

  it('a second init still names what is missing (the install) and nothing else', async () => {
    const root = repo({ name: 'app', type: 'module' });
    await init(root);
    const second = await init(root);
    expect(second.out).toMatch(
      /init changed no file; still to do:\n {2}(cd .* && )?npm install -D ceilingbench vitest\n$/,
    );
  });

  it('counts a package installed in node_modules as installed, declared or not', async () => {
    const root = repo({ name: 'app', type: 'module' });
    for (const name of ['ceilingbench', 'vitest']) {
      mkdirSync(join(root, 'node_modules', name), { recursive: true });
      writeFileSync(join(root, 'node_modules', name, 'package.json'), '{}');
    }
    const { out } = await init(root);
    expect(out).not.toContain('npm install');
  });

  it('--force overwrites what exists and writes vitest.config.ts beside a Vite config', async () => {
    const root = repo({ name: 'app', type: 'module' });
    writeFileSync(join(root, 'vite.config.ts'), '// mine\n');
    writeFileSync(join(root, 'ceilingbench.config.ts'), '// mine\n');
    const { code, out } = await init(root, '--force');
    expect(code).toBe(0);
    expect(read(root, 'vitest.config.ts')).toBe(example('vitest.config.ts'));
    expect(read(root, 'ceilingbench.config.ts')).toBe(example('ceilingbench.config.ts'));
    expect(read(root, 'vite.config.ts')).toBe('// mine\n');
    expect(out).toContain('note     vitest.config.ts is now read instead of vite.config.ts');
    expect(out).not.toContain('add the plugin');
  });

  it('--force in a CommonJS package says when a .ts file it left is read before the .mts it wrote', async () => {
    const root = repo({ name: 'app', type: 'commonjs' });
    writeFileSync(join(root, 'vitest.config.ts'), '// mine\n');
    const { out } = await init(root, '--force');
    expect(read(root, 'vitest.config.ts')).toBe('// mine\n');
    expect(read(root, 'vitest.config.mts')).toBe(example('vitest.config.ts'));
    expect(out).toContain('note     vitest.config.ts is still there and is read before vitest.config.mts');
  });

  it('a package.json that is not JSON is a usage error', async () => {
    const root = repo();
    writeFileSync(join(root, 'package.json'), '{ nope');
    const { code, out } = await init(root);
    expect(code).toBe(2);
    expect(out).toMatch(/package\.json: not valid JSON/);
  });
});
