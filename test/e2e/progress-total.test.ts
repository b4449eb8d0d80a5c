import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI_BIN, spawnBench } from '../reliability/support/bench-run.js';

/**
 * Issue 44 item 7: the progress line's total was a lower bound until Vitest had collected every spec file
 * (`[49/49]`, then `[50/56]`). The shipped spec files' tests are known from the configuration before the first
 * cell, so every line carries the same total, the one Vitest ends with, and no `+`. Each run here skips most tests
 * by a name filter (a skipped test still counts in the total) to stay cheap.
 */
const bench = (args: string[]) =>
  spawnBench([CLI_BIN, 'run', ...args, '--trials', '1', '--out', mkdtempSync(join(tmpdir(), 'cb-total-'))], {
    CEILINGBENCH_CACHE_DIR: mkdtempSync(join(tmpdir(), 'cb-total-cache-')),
  });

/** Every progress line's `[done/total]`, in order. */
const progressOf = (stdout: string) =>
  [...stdout.matchAll(/^\[(\d+)\/(\d+\+?)\] (ok|skip|FAIL) /gm)].map((m) => ({ done: Number(m[1]), total: m[2] }));

describe('the progress line knows its total before the first cell', { timeout: 240_000 }, () => {
  it('d3 (a sweep and an ablation) and the nine puzzle files: 17 + 63 tests from the first line to the last', async () => {
    const run = bench(['--project', 'd3', '--project', 'puzzles', '--subject', 'sim:default', '-t', '(N=5|L1)$']);
    await run.done;
    const lines = progressOf(run.stdout());
    expect(lines.length, run.stdout() + run.stderr()).toBe(80);
    expect(lines.map((l) => l.total)).toEqual(Array(80).fill('80'));
    expect(lines.map((l) => l.done)).toEqual(lines.map((_, i) => i + 1));
    expect(run.stdout()).not.toMatch(/counted as Vitest collects them/);
  });

  it('two subjects under the adaptive design: one depth test per subject, the SCC assays per subject, known up front', async () => {
    const run = bench([
      '--project',
      'd1',
      '--project',
      'scc',
      '--subject',
      'sim:default',
      '--subject',
      'sim:retention?p=0.9',
      '--design',
      'adaptive',
      '-t',
      'nothing matches this$',
    ]);
    await run.done;
    const lines = progressOf(run.stdout());
    // d1: one adaptive test per subject; scc: counting, motif, dual-task, agent per subject
    expect(lines.length, run.stdout() + run.stderr()).toBe(10);
    expect(lines.map((l) => l.total)).toEqual(Array(10).fill('10'));
  });
});
