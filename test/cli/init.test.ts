import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { INIT_FILES } from '../../src/cli/commands/init.js';
import { runCli } from '../../src/cli/program.js';

const EXAMPLE = new URL('../../examples/consumer/', import.meta.url);

async function init(root: string, ...flags: string[]) {
  const out: string[] = [];
  const code = await runCli(['init', '--root', root, ...flags], {
    stdout: (t) => out.push(t),
    stderr: (t) => out.push(t),
  });
  return { code, out: out.join('') };
}

describe('ceilingbench init', () => {
  it("writes the example repository's config, gate, spec and workflow, byte for byte", async () => {
    const root = mkdtempSync(join(tmpdir(), 'cb-init-'));
    const { code, out } = await init(root);
    expect(code).toBe(0);
    for (const file of INIT_FILES) {
      expect(readFileSync(join(root, file), 'utf8')).toBe(readFileSync(new URL(file, EXAMPLE), 'utf8'));
    }
    expect(out).toMatch(/npm install -D ceilingbench vitest/);
  });

  it('keeps a file that exists unless --force', async () => {
    const root = mkdtempSync(join(tmpdir(), 'cb-init-'));
    writeFileSync(join(root, 'vitest.config.ts'), '// mine\n');
    const kept = await init(root);
    expect(kept.out).toMatch(/kept {5}vitest\.config\.ts/);
    expect(readFileSync(join(root, 'vitest.config.ts'), 'utf8')).toBe('// mine\n');
    await init(root, '--force');
    expect(readFileSync(join(root, 'vitest.config.ts'), 'utf8')).not.toBe('// mine\n');
  });
});
