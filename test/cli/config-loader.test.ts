import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { configLoaderFor } from '../../src/cli/config-loader.js';

const ROOT = resolve(new URL('../..', import.meta.url).pathname);

describe('the loader of vitest.config.ts for `ceilingbench run`', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it("bundles in ceilingbench's own repository, whose configuration imports the plugin's TypeScript sources", () => {
    expect(configLoaderFor(ROOT)).toBe('bundle');
    expect(configLoaderFor(`${ROOT}/`)).toBe('bundle');
  });

  it('bundles when the repository is reached through a symbolic link', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cb-loader-'));
    dirs.push(dir);
    symlinkSync(ROOT, join(dir, 'link'));
    expect(configLoaderFor(join(dir, 'link'))).toBe('bundle');
  });

  it("keeps Vite's module runner in any other repository (it writes nothing under the user's node_modules)", () => {
    const dir = mkdtempSync(join(tmpdir(), 'cb-loader-'));
    dirs.push(dir);
    expect(configLoaderFor(dir)).toBe('runner');
    expect(configLoaderFor(join(ROOT, 'examples/consumer'))).toBe('runner');
    expect(configLoaderFor(join(dir, 'missing'))).toBe('runner');
  });
});
