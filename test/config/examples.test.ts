import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/index.js';

const emptyDir = () => mkdtempSync(join(tmpdir(), 'cb-config-examples-'));

describe('examples in the configuration', () => {
  it('defaults to 3 per outcome kind; the file sets a number or all; CEILINGBENCH_EXAMPLES wins', async () => {
    expect((await loadConfig({}, emptyDir())).examples).toBe(3);
    const dir = emptyDir();
    writeFileSync(join(dir, 'ceilingbench.config.ts'), "export default { examples: 'all' };\n");
    expect((await loadConfig({}, dir)).examples).toBe('all');
    expect((await loadConfig({ CEILINGBENCH_EXAMPLES: '0' }, dir)).examples).toBe(0);
    expect((await loadConfig({ CEILINGBENCH_EXAMPLES: ' 5 ' }, dir)).examples).toBe(5);
    expect((await loadConfig({ CEILINGBENCH_EXAMPLES: 'all' }, emptyDir())).examples).toBe('all');
  });

  it('rejects anything else with the accepted forms', async () => {
    for (const raw of ['-1', '2.5', 'some', 'ALL']) {
      const error = await loadConfig({ CEILINGBENCH_EXAMPLES: raw }, emptyDir()).catch((e) => e);
      expect(error, raw).toBeInstanceOf(ConfigError);
      expect(String(error.message)).toContain("CEILINGBENCH_EXAMPLES: '");
    }
    const dir = emptyDir();
    writeFileSync(join(dir, 'ceilingbench.config.ts'), 'export default { examples: -2 };\n');
    await expect(loadConfig({}, dir)).rejects.toThrow(/examples/);
  });
});
