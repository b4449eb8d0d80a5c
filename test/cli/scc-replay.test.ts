import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { sccReplayRowSchema } from '../../src/assays/scc/replay.js';
import { runCli } from '../../src/cli/program.js';

const edge = new URL('../../fixtures/scc/replay-edge/', import.meta.url);
const args = [
  'scc-replay',
  '--trials',
  fileURLToPath(new URL('edge.jsonl', edge)),
  '--summary',
  fileURLToPath(new URL('edge.summary.json', edge)),
];

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { stdout: (t: string) => out.push(t), stderr: (t: string) => err.push(t) }, out, err };
}

describe('ceilingbench scc-replay with a preflight-skipped and a malformed model', () => {
  it('prints a row for every model, the skipped one with CC 0, the error row last, and exits 2 at the end', async () => {
    const { io, out, err } = capture();
    expect(await runCli(args, io)).toBe(2);
    const text = out.join('');
    const row = (model: string) => text.split('\n').find((l) => l.startsWith(`${model} `)) ?? '';
    expect(row('gpt-3.5-turbo')).toMatch(/ 32 +36 +true +32\/36\/true +yes /);
    expect(row('gpt-4o-mini')).toMatch(/ 36 +40 +true +36\/40\/true +yes /);
    expect(row('synthetic/preflight-skipped')).toMatch(/ 0 \(skipped\) +32 +false +0\/32\/— \(skipped\) +yes +1 +1$/);
    expect(row('synthetic/wrong-type-summary')).toMatch(/ — +— +— +— +ERROR +0 +0$/);
    expect(text).toContain('match: 3/4 models');
    expect(text).toContain('not replayed: 1 of 4 models');
    expect(text).toMatch(
      /synthetic\/wrong-type-summary: ERROR .*edge\.summary\.json: model 'synthetic\/wrong-type-summary': field 'cc'/,
    );
    expect(err.join('')).toMatch(/1 of 4 models could not be replayed: synthetic\/wrong-type-summary/);
  }, 60_000);

  it('--json prints schema-valid rows for all models and still exits 2', async () => {
    const { io, out } = capture();
    expect(await runCli([...args, '--json'], io)).toBe(2);
    const rows = sccReplayRowSchema.array().parse(JSON.parse(out.join('')));
    expect(rows.map((r) => [r.model, r.cc, r.error === null])).toEqual([
      ['gpt-3.5-turbo', 32, true],
      ['gpt-4o-mini', 36, true],
      ['synthetic/preflight-skipped', 0, true],
      ['synthetic/wrong-type-summary', null, false],
    ]);
  }, 60_000);

  it('exits 0 for the skipped model alone, which matches its published CC 0', async () => {
    const { io, out } = capture();
    expect(await runCli([...args, '--model', 'synthetic/preflight-skipped', '--json'], io)).toBe(0);
    expect(JSON.parse(out.join(''))).toEqual([
      expect.objectContaining({ cc: 0, skipped: true, match: true, published: expect.objectContaining({ cc: 0 }) }),
    ]);
  });
});
