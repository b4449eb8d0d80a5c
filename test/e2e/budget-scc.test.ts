import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sccResultSchema } from '../../src/assays/scc/schema.js';
import { CLI_BIN, readReport, spawnBench } from '../reliability/support/bench-run.js';
import { type LoopbackRequest, type LoopbackServer, startLoopbackServer } from '../support/loopback-server.js';

/**
 * `ceilingbench run --project scc --max-calls N` against a loopback server that counts exactly: the limit stops
 * the ladder inside a tier, and the run still writes the SCC record, marked stopped, with no measured CC.
 */
const COUNT_PROMPT = /^How many occurrences of "(.+)" are in this sequence\?\n\n([\s\S]*)$/;

/** The true count for a counting prompt; anything else (dual-task, agent) gets a plain answer. */
function exactCount(request: LoopbackRequest): { text: string } {
  const user = request.messages.findLast((m) => m.role === 'user')?.content ?? '';
  const match = COUNT_PROMPT.exec(user);
  return { text: match ? String(match[2].split(match[1]).length - 1) : 'ok' };
}

let server: LoopbackServer | undefined;
afterAll(async () => {
  await server?.close();
});

describe('hard budget on the SCC project through `ceilingbench run`', { timeout: 400_000 }, () => {
  it('--max-calls: exit 4, the SCC record present and stopped, its spend counted, no CC in summary.md', async () => {
    server = await startLoopbackServer({ answer: exactCount });
    const outDir = mkdtempSync(join(tmpdir(), 'cb-budget-scc-'));
    const cacheDir = mkdtempSync(join(tmpdir(), 'cb-budget-scc-cache-'));
    const child = spawnBench(
      [CLI_BIN, 'run', '--project', 'scc', '--subject', 'openai:loop-model', '--out', outDir, '--max-calls', '40'],
      { OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: 'sk-loopback', CEILINGBENCH_CACHE_DIR: cacheDir },
    );
    const { code } = await child.done;
    const output = child.stdout() + child.stderr();
    expect(code, output).toBe(4);
    const report = readReport(outDir);
    expect(report.scc, output).toHaveLength(1);
    const [record] = report.scc;
    expect(record.stopped).toMatchObject({ by: 'budget', reason: expect.stringMatching(/--max-calls/) });
    expect(record.ccUpper).toBeNull();
    const result = sccResultSchema.parse(record.result);
    expect(result.stopped).toMatchObject({ at: 'tier', tiers: result.tiers.length });
    expect(result.tiers.every((t) => t.passed)).toBe(true);
    expect(record.cc).toBe(Math.max(0, ...result.tiers.map((t) => t.center)));
    // every request the server answered is in the report's accounts, the stopped ladder's included
    expect(report.spend?.total.calls).toBe(server.log.length);
    expect(report.spend?.limit?.spent.calls).toBe(server.log.length);
    const summary = readFileSync(join(outDir, 'summary.md'), 'utf8');
    expect(summary).toMatch(/count: stopped after \d+ tiers? \(not sent: the spending limit --max-calls/);
  });

  it('SIGTERM twice while a tier runs: the SCC record is written as it stands, stopped, no CC measured, exit 4', async () => {
    const hanging = await startLoopbackServer({ answer: exactCount, fault: () => ({ kind: 'hang' }) }); // nothing lands
    try {
      const outDir = mkdtempSync(join(tmpdir(), 'cb-budget-scc-'));
      const child = spawnBench(
        // the ladder alone: the project's secondary assays would be the first to send as often as not
        [
          CLI_BIN,
          'run',
          '--project',
          'scc',
          '-t',
          'counting capacity',
          '--subject',
          'openai:loop-model',
          '--out',
          outDir,
        ],
        {
          OPENAI_BASE_URL: hanging.baseURL,
          OPENAI_API_KEY: 'sk-loopback',
          CEILINGBENCH_CACHE_DIR: mkdtempSync(join(tmpdir(), 'cb-budget-scc-cache-')),
        },
      );
      while (hanging.log.length < 1) await new Promise((resolve) => setTimeout(resolve, 20));
      const group = -(child.child.pid as number);
      process.kill(group, 'SIGTERM');
      await new Promise((resolve) => setTimeout(resolve, 200));
      process.kill(group, 'SIGTERM');
      const { code } = await child.done;
      const output = child.stdout() + child.stderr();
      // before: no SCC record at all (the ladder's test ended with the cancel)
      const report = readReport(outDir);
      expect(report.scc, output).toHaveLength(1);
      const [record] = report.scc;
      expect(record.stopped).toMatchObject({ by: 'budget', reason: 'not sent: the run was interrupted', tiers: 0 });
      expect(record.ccUpper).toBeNull();
      expect(sccResultSchema.parse(record.result).stopped).toMatchObject({ at: 'tier' });
      expect(report.run).toMatchObject({ state: 'interrupted' });
      expect(code, output).toBe(4);
    } finally {
      await hanging.close();
    }
  });
});
