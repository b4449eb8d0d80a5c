import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveRunConfig } from '../../src/config/index.js';

function rootWith(config: string): string {
  const root = mkdtempSync(join(tmpdir(), 'cb-resolve-'));
  mkdirSync(join(root, 'sub'));
  writeFileSync(join(root, 'ceilingbench.config.mjs'), config);
  return root;
}

describe('resolveRunConfig: one configuration per run, against the root (never the current directory)', () => {
  it("reads the root's config file and makes every path absolute under the root", async () => {
    const root = rootWith("export default { trials: 7, out: 'out/r', gates: { mine: { minRetention: 0.9 } } };");
    const config = await resolveRunConfig({ root, env: {} });
    expect(process.cwd()).not.toBe(root);
    expect(config).toMatchObject({
      root,
      trials: 7,
      outDir: join(root, 'out/r'),
      cacheDir: join(root, '.ceilingbench/cache'),
      configFile: join(root, 'ceilingbench.config.mjs'),
      design: { kind: 'grid' },
      gates: { mine: { minRetention: 0.9 } },
    });
  });

  it('the environment wins over the file, and the design and cache directory come from it too', async () => {
    const root = rootWith('export default { trials: 7 };');
    const config = await resolveRunConfig({
      root,
      env: { CEILINGBENCH_TRIALS: '3', CEILINGBENCH_DESIGN: 'adaptive', CEILINGBENCH_CACHE_DIR: 'c' },
    });
    expect(config.trials).toBe(3);
    expect(config.design).toEqual({ kind: 'adaptive' });
    expect(config.cacheDir).toBe(join(root, 'c'));
  });

  it('is plain data: it survives structured cloning into workers unchanged', async () => {
    const config = await resolveRunConfig({ root: rootWith('export default {};'), env: {} });
    expect(structuredClone(config)).toEqual(config);
  });
});
