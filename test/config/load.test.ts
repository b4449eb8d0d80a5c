import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/index.js';

const emptyDir = () => mkdtempSync(join(tmpdir(), 'cb-config-'));

describe('loadConfig', () => {
  it('gives the documented defaults with no file and no environment', async () => {
    const config = await loadConfig({}, emptyDir());
    expect(config).toMatchObject({
      subject: 'sim:default',
      seed: 0,
      trials: 40,
      out: 'reports',
      html: true,
      missing: 'paper',
      gates: {},
    });
  });

  it('html: the file turns the page off, CEILINGBENCH_HTML (true or false, any case) wins, anything else is an error', async () => {
    const dir = emptyDir();
    writeFileSync(join(dir, 'ceilingbench.config.ts'), 'export default { html: false };\n');
    expect((await loadConfig({}, dir)).html).toBe(false);
    expect((await loadConfig({ CEILINGBENCH_HTML: ' TRUE ' }, dir)).html).toBe(true);
    expect((await loadConfig({ CEILINGBENCH_HTML: 'false' }, emptyDir())).html).toBe(false);
    expect((await loadConfig({ CEILINGBENCH_HTML: '' }, dir)).html).toBe(false);
    for (const raw of ['0', 'no', 'off']) {
      const error = await loadConfig({ CEILINGBENCH_HTML: raw }, emptyDir()).catch((e) => e);
      expect(error, raw).toBeInstanceOf(ConfigError);
      expect(String(error.message)).toBe(
        `CEILINGBENCH_HTML: '${raw}' is neither true nor false — e.g. CEILINGBENCH_HTML=false`,
      );
    }
    const wrong = emptyDir();
    writeFileSync(join(wrong, 'ceilingbench.config.ts'), "export default { html: 'no' };\n");
    await expect(loadConfig({}, wrong)).rejects.toThrow(/html/);
  });

  it('takes CEILINGBENCH_* variables over the file, merging gates per project', async () => {
    const dir = emptyDir();
    writeFileSync(
      join(dir, 'ceilingbench.config.ts'),
      'export default { trials: 10, gates: { d2: { maxTfbcRate: 0.3 } } };\n',
    );
    const config = await loadConfig(
      { CEILINGBENCH_TRIALS: '12', CEILINGBENCH_GATES: '{"d2":{"minRetention":0.99}}' },
      dir,
    );
    expect(config.trials).toBe(12);
    expect(config.gates.d2).toEqual({ maxTfbcRate: 0.3, minRetention: 0.99 });
  });

  it('names the field and the fix for a bad gate, one line per problem', async () => {
    const error = await loadConfig({ CEILINGBENCH_GATES: '{"d2":{"minRetension":0.9}}' }, emptyDir()).catch((e) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.message).toMatch(/^CEILINGBENCH_GATES: d2: .*remove 'minRetension'/);
    // Gate keys are Vitest project names, the user's own included: any name loads (the reporter names a
    // gate whose project did not run).
    const project = await loadConfig({ CEILINGBENCH_GATES: '{"my-gate":{"minRetention":0.9}}' }, emptyDir());
    expect(project.gates['my-gate']).toEqual({ minRetention: 0.9 });
  });

  it('range-checks every threshold gate, with the fix in the message', async () => {
    const gate = async (gates: object) =>
      loadConfig({ CEILINGBENCH_GATES: JSON.stringify(gates) }, emptyDir()).catch((e: Error) => e);
    const percent = await gate({ d2: { minRetention: 90 } });
    expect(percent).toBeInstanceOf(ConfigError);
    expect((percent as Error).message).toBe(
      'CEILINGBENCH_GATES: d2.minRetention: 90 is out of range — p_d, the per-step retention is a fraction: give a value in [0, 1] — if 90 is a percentage, write 0.9',
    );
    const objectForm = await gate({ d2: { maxTfbcRate: { value: 30, mode: 'advisory' } } });
    expect((objectForm as Error).message).toMatch(/d2\.maxTfbcRate\.value: 30 is out of range — .*write 0\.3/);
    expect(((await gate({ d1: { minRetention: -0.1 } })) as Error).message).toMatch(/give a value in \[0, 1\]$/);
    const positives = await gate({
      d2: { minHorizon: 0 },
      scc: { minCountingCapacity: -5 },
      puzzles: { collapseNoEarlierThan: 0 },
    });
    expect((positives as Error).message.split('\n')).toEqual([
      'CEILINGBENCH_GATES: d2.minHorizon: 0 is out of range — H_0.5, a number of steps: give a value > 0',
      'CEILINGBENCH_GATES: scc.minCountingCapacity: -5 is out of range — the counting capacity, a number of items: give a value > 0',
      'CEILINGBENCH_GATES: puzzles.collapseNoEarlierThan: 0 is out of range — λ*, a puzzle level (L1 is 1): give a value > 0',
    ]);
    // the edges of each range are accepted
    const edges = { d2: { minRetention: 1, maxTfbcRate: 0, minHorizon: 0.5 }, puzzles: { collapseNoEarlierThan: 1 } };
    expect((await loadConfig({ CEILINGBENCH_GATES: JSON.stringify(edges) }, emptyDir())).gates).toEqual(edges);
  });

  it('rejects malformed JSON and non-numeric numbers with an example of the right form', async () => {
    await expect(loadConfig({ CEILINGBENCH_GATES: '{d2' }, emptyDir())).rejects.toThrow(/not valid JSON.*e\.g\./);
    await expect(loadConfig({ CEILINGBENCH_TRIALS: 'forty' }, emptyDir())).rejects.toThrow(
      /CEILINGBENCH_TRIALS.*not a number/,
    );
    await expect(loadConfig({ CEILINGBENCH_TRIALS: '0' }, emptyDir())).rejects.toThrow(/trials: .*use a value > 0/);
  });
});
