import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/program.js';
import { parseCountInput } from '../../src/stats/index.js';

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { stdout: (t: string) => out.push(t), stderr: (t: string) => err.push(t) }, out, err };
}

const dir = mkdtempSync(join(tmpdir(), 'ceilingbench-fit-'));
function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

const claudeD3 = [14, 2, 0, 0, 2, 3, 1, 1, 0, 2].map((correct, i) => ({ depth: 5 * (i + 1), correct, n: 40 }));

describe('ceilingbench fit', () => {
  it('fits JSON input and prints the documented JSON shape', async () => {
    const { io, out, err } = capture();
    const input = file('claude-d3.json', JSON.stringify(claudeD3));
    expect(await runCli(['fit', '--input', input, '--json', '--seed', '3', '--resamples', '500'], io)).toBe(0);
    expect(err).toEqual([]);
    const result = JSON.parse(out.join(''));
    expect(result.pd).toBeCloseTo(0.863081, 6);
    expect(result.ci95).toHaveLength(2);
    expect(result.ci95[0]).toBeLessThan(result.pd);
    expect(result.ci95[1]).toBeGreaterThan(result.pd);
    expect(result.atLowerBound).toBe(false);
    expect(Object.keys(result.horizon)).toEqual(['0.5', '0.9']);
    expect(result.horizon['0.5'].value).toBeCloseTo(4.707, 3);
    expect(typeof result.logLik).toBe('number');
    expect(typeof result.aic).toBe('number');
    expect(Object.keys(result.alternatives)).toEqual(['accelerating', 'linear', 'preferredByAic', 'preferredByBic']);
    expect(result.seed).toBe(3);
    expect(result.resamples).toBe(500);
  });

  it('gives the same answer for CSV with and without a header, and is deterministic', async () => {
    const rows = claudeD3.map((c) => `${c.depth},${c.correct},${c.n}`).join('\n');
    const runs: string[] = [];
    for (const text of [`depth,correct,n\n${rows}\n`, `${rows}\r\n`, `# comment\n\nDepth, Correct, N\n${rows}`]) {
      const { io, out } = capture();
      expect(await runCli(['fit', '--input', file('counts.csv', text), '--json', '--resamples', '300'], io)).toBe(0);
      runs.push(out.join(''));
    }
    expect(new Set(runs).size).toBe(1);
  });

  it('prints a readable summary by default', async () => {
    const { io, out } = capture();
    expect(
      await runCli(['fit', '--input', file('text.json', JSON.stringify(claudeD3)), '--resamples', '200'], io),
    ).toBe(0);
    const text = out.join('');
    expect(text).toMatch(/^p_d = 0\.863081/);
    expect(text).toMatch(/95% CI \[0\.\d{4}, 0\.\d{4}\] \(parametric bootstrap, bca, 200 resamples, seed 0\)/);
    expect(text).toMatch(/s = 0\.5: H = 4\.71/);
    expect(text).toMatch(/preferred: \w+ by AIC/);
  });

  it('writes an infinite horizon as null in JSON (all correct → p_d = 1)', async () => {
    const { io, out } = capture();
    const input = file('perfect.csv', '5,40,40\n10,40,40\n');
    expect(await runCli(['fit', '--input', input, '--json', '--resamples', '100'], io)).toBe(0);
    const result = JSON.parse(out.join(''));
    expect(result.pd).toBe(1);
    expect(result.horizon['0.5'].value).toBeNull();
  });

  it.each([
    ['bad-count.csv', 'depth,correct,n\n5,14,40\n10,41,40\n', /line 3, field 'correct': correct must not exceed n/],
    ['short.csv', '5,14,40\n10,2\n', /line 2: expected 3 comma-separated values/],
    ['fraction.csv', '5,1.5,40\n', /line 1, field 'correct': '1\.5' is not a non-negative integer/],
    ['typo.json', '[{"depth":5,"correct":1,"n":4},{"depth":10,"corect":1,"n":4}]', /entry 2, field 'correct'/],
    ['duplicate.json', '[{"depth":5,"correct":1,"n":4},{"depth":5,"correct":1,"n":4}]', /depth 5 appears twice/],
    ['broken.json', '[{"depth":5,', /not valid JSON/],
    ['object.json', '{"depth":5,"correct":1,"n":4}', /must be an array/],
    ['empty.csv', '\n\n', /no counts found/],
  ])('rejects %s with exit 2 and a message naming the problem', async (name, text, message) => {
    const { io, err } = capture();
    expect(await runCli(['fit', '--input', file(name, text)], io)).toBe(2);
    expect(err.join('')).toMatch(message);
  });

  it.each([
    [[], /missing --input/],
    [['--input', join(dir, 'absent.json')], /cannot read --input .*ENOENT/],
    [['--input', 'x', '--seed', 'abc'], /--seed must be a non-negative integer/],
    [['--input', 'x', '--ci', 'basic'], /--ci must be 'bca'/],
    [['--input', 'x', '--resamples', '10'], /--resamples must be at least 100/],
  ])('rejects bad options %j with exit 2', async (args, message) => {
    const { io, err } = capture();
    expect(await runCli(['fit', ...args], io)).toBe(2);
    expect(err.join('')).toMatch(message);
  });

  it('rejects a line of 200,000 fields with a clear message (the parser is a single linear pass)', () => {
    expect(() => parseCountInput(`${'9,'.repeat(200_000)}\n`)).toThrow(/line 1: expected 3 comma-separated values/);
  });
});
