import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI_BIN, spawnBench } from '../reliability/support/bench-run.js';
import { listenOnFreshPort } from '../support/loopback-port.js';

/**
 * Issue 42 item 7, messages that misled, through `ceilingbench run`: a lone `--shard 1/2` run said "merged 1 of 2
 * shards: shard 2/2 missing — its job failed" and exited 1 though nothing was merged; a refused connection on a
 * wrong OPENAI_BASE_URL gave minutes of silence before "the endpoint kept failing".
 */
const bench = (args: string[], env: Record<string, string> = {}) =>
  spawnBench([CLI_BIN, 'run', ...args, '--trials', '2', '--out', mkdtempSync(join(tmpdir(), 'cb-msg-'))], {
    CEILINGBENCH_CACHE_DIR: mkdtempSync(join(tmpdir(), 'cb-msg-cache-')),
    ...env,
  });

describe('what `ceilingbench run` says', { timeout: 120_000 }, () => {
  it('a lone shard is a narrowed run, not a merge that lacks shards', async () => {
    const run = bench(['--project', 'd1', '--project', 'd2', '--subject', 'sim:default', '--shard', '1/2']);
    const { code } = await run.done;
    const output = run.stdout() + run.stderr();
    expect(output).not.toMatch(/merged \d+ of \d+ shards/);
    expect(output).toContain('this run is shard 1/2: its report holds this shard');
    expect(code, output).toBe(0);
  });

  it('a refused connection stops at once with the URL and what to check (exit 3), not after minutes of backoff', async () => {
    const server = createServer();
    const port = await listenOnFreshPort(server);
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const run = bench(['--project', 'd2', '--subject', 'openai:loop-model'], {
      OPENAI_BASE_URL: `http://127.0.0.1:${port}/v1`,
      OPENAI_API_KEY: 'sk-msg-0123456789abcdef',
    });
    const { code } = await run.done;
    const output = run.stdout() + run.stderr();
    expect(output).toContain(`cannot reach http://127.0.0.1:${port}/v1: connection refused (ECONNREFUSED)`);
    expect(output).toMatch(/check OPENAI_BASE_URL/);
    expect(output).not.toContain('sk-msg-0123456789abcdef');
    expect(code).toBe(3);
  });
});
