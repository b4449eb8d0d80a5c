import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFIG_FILES, findConfigFile, loadConfig } from '../../src/config/load.js';

const folder = (files: Record<string, string>) => {
  const root = mkdtempSync(join(tmpdir(), 'cb-config-files-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(root, name), text);
  return root;
};

describe('every configuration file form is read, or refused naming it', () => {
  it('knows .ts .mts .cts .js .mjs .cjs', () => {
    expect([...CONFIG_FILES].map((f) => f.replace('ceilingbench.config.', '')).sort()).toEqual(
      ['cjs', 'cts', 'js', 'mjs', 'mts', 'ts'].sort(),
    );
  });

  it('reads a .cjs file (module.exports) and a .js one', async () => {
    const cjs = folder({ 'ceilingbench.config.cjs': 'module.exports = { trials: 7 };\n' });
    expect(findConfigFile({}, cjs)).toBe(join(cjs, 'ceilingbench.config.cjs'));
    expect((await loadConfig({}, cjs)).trials).toBe(7);
  });

  it('two candidates at once are a configuration error naming both', () => {
    for (const pair of [
      ['ceilingbench.config.ts', 'ceilingbench.config.mts'],
      ['ceilingbench.config.cts', 'ceilingbench.config.cjs'],
    ]) {
      const root = folder(Object.fromEntries(pair.map((name) => [name, 'export default {};\n'])));
      expect(() => findConfigFile({}, root)).toThrow(`${pair[0]} and ${pair[1]} are both in ${root}`);
    }
    // CEILINGBENCH_CONFIG names the one to read
    const both = folder({ 'ceilingbench.config.ts': '', 'ceilingbench.config.mjs': '' });
    expect(findConfigFile({ CEILINGBENCH_CONFIG: 'ceilingbench.config.mjs' }, both)).toBe(
      join(both, 'ceilingbench.config.mjs'),
    );
  });
});
