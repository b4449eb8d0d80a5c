import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { batchConfig } from '../../src/cli/commands/run-batch.js';

/**
 * Whether `ceilingbench run` makes its batch pass is decided on the resolved configuration, wherever its `batch`
 * comes from — before, on the flag or on the word "batch" in the config file's text, so a configuration that took
 * `batch: true` from a module it imports skipped the pass and every openai trial ended `api` ("no batch answered it").
 */

function repo(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'cb-batch-config-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(root, name), text);
  return root;
}

const env = (root: string, extra: Record<string, string> = {}) => ({
  CEILINGBENCH_CACHE_DIR: join(root, 'cache'),
  ...extra,
});

describe('batchConfig: the batch pass follows the resolved configuration', () => {
  it('a batch setting the config file imports from another module turns the pass on', async () => {
    const root = repo({
      'shared.mjs': 'export default { batch: { waitMinutes: 5 } };\n',
      'ceilingbench.config.mjs': "import shared from './shared.mjs';\nexport default { ...shared, trials: 3 };\n",
    });
    const config = await batchConfig(env(root), root);
    expect(config?.batch).toMatchObject({ waitMinutes: 5 });
  });

  it('CEILINGBENCH_BATCH=false turns it off, a configuration without batch leaves it off, =true turns it on', async () => {
    const batched = repo({ 'ceilingbench.config.mjs': 'export default { batch: true };\n' });
    expect(await batchConfig(env(batched, { CEILINGBENCH_BATCH: 'false' }), batched)).toBeUndefined();
    const plain = repo({ 'ceilingbench.config.mjs': 'export default { trials: 3 };\n' });
    expect(await batchConfig(env(plain), plain)).toBeUndefined();
    expect((await batchConfig(env(plain, { CEILINGBENCH_BATCH: 'true' }), plain))?.batch).toBeTruthy();
    const none = repo({});
    expect(await batchConfig(env(none), none)).toBeUndefined();
  });

  it('a configuration that does not load is the Vitest run’s to report, unless batch mode was asked for', async () => {
    const broken = repo({ 'ceilingbench.config.mjs': 'export default { trials: -1 };\n' });
    expect(await batchConfig(env(broken), broken)).toBeUndefined();
    await expect(batchConfig(env(broken, { CEILINGBENCH_BATCH: 'true' }), broken)).rejects.toThrow(/trials/);
  });
});
