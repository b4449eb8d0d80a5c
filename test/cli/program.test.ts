import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/program.js';

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { stdout: (t: string) => out.push(t), stderr: (t: string) => err.push(t) }, out, err };
}

describe('ceilingbench CLI skeleton', () => {
  it('prints help and exits 0', async () => {
    const { io } = capture();
    expect(await runCli(['--help'], io)).toBe(0);
  });

  it('exits 2 on an unknown command and names the fix', async () => {
    const { io, err } = capture();
    expect(await runCli(['frobnicate'], io)).toBe(2);
    expect(err.join('')).toMatch(/unknown command 'frobnicate'.*--help/);
  });
});
