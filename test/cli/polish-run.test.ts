import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reportSchema } from '../../src/schema/report.js';
import { CLI_BIN } from '../support/cli-bin.js';
import { ROOT, runCeilingbench } from '../support/run-vitest.js';

// The CLI as a child process: Vitest's name filter passed through, a mistyped variable warned of, a reader that
// goes away before the output ends.

describe('ceilingbench run -t', () => {
  it('runs only the cells whose name matches, and warns once of a mistyped CEILINGBENCH_ variable', () => {
    const out = join(mkdtempSync(join(tmpdir(), 'cb-polish-t-')), 'reports');
    const run = runCeilingbench(
      ['run', '--project', 'd2', '--trials', '2', '--subject', 'oracle', '-t', 'N=5$', '--out', out],
      { CEILINGBENCH_TRAILS: '20' },
    );
    expect(run.status, run.stderr + run.stdout).toBe(0);
    expect(run.stdout).toMatch(/ceilingbench: run passed/);
    const report = reportSchema.parse(JSON.parse(readFileSync(join(out, 'ceilingbench.json'), 'utf8')));
    expect(report.cells.map((c) => [c.project, c.level])).toEqual([['d2', 5]]);
    // the fit test is filtered out with the other cells: no gate is configured, so the run still passes
    expect(report.fits).toEqual([]);
    const warning =
      'ceilingbench: warning: CEILINGBENCH_TRAILS is not a ceilingbench variable — did you mean CEILINGBENCH_TRIALS?';
    expect(run.stderr.split(warning).length - 1, run.stderr).toBe(1);
  }, 300_000);

  it('a pattern that is no regular expression is a usage error before Vitest starts', () => {
    const run = runCeilingbench(['run', '--project', 'd2', '--subject', 'oracle', '-t', '(']);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/^ceilingbench: -t: '\(' is not a regular expression/);
  });
});

describe('a closed pipe (`ceilingbench … | head -1`)', () => {
  it('ends the output quietly: no stack trace, exit 0', async () => {
    // about 1.2 MB of JSON: far more than a pipe holds, so the writes go on after the reader is gone
    const child = spawn(
      process.execPath,
      [CLI_BIN, 'generate', 'nested', '--level', '20000', '--seed', '1', '--json'],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stderr = '';
    let chunks = 0;
    child.stderr.on('data', (data: Buffer) => {
      stderr += data.toString();
    });
    child.stdout.on('data', () => {
      chunks++;
      child.stdout.destroy();
    });
    const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
    expect(chunks).toBe(1);
    expect(stderr).toBe('');
    expect(code).toBe(0);
  }, 60_000);
});
