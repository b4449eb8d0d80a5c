import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Report } from '../../src/schema/report.js';
import { CLI_BIN, promptOf, promptsOf, readReport, spawnBench } from '../reliability/support/bench-run.js';
import { type LoopbackOptions, type LoopbackServer, startLoopbackServer } from '../support/loopback-server.js';

/**
 * A consumer's own pipeline as the subject (test/fixture-function: `defineSubject` around a plain `fetch` client of
 * a loopback server that answers D2 exactly), through whole `ceilingbench run`s: passed by the spec itself
 * (`describeSweep('d2', { subject })`) or named as the run's subject (`--subject module:./subject.ts`). Every
 * request the function sends reaches the server, so the server's log is what the run paid for.
 */
const TRIALS = 4;
const LEVELS = 3; // the fixture's spec sweeps d2 at 5, 10, 15
const TOTAL = TRIALS * LEVELS;
const prompts = promptsOf('d2', TRIALS);

const exact: LoopbackOptions['answer'] = (request) => {
  const known = promptOf(request, prompts);
  if (!known) throw new Error('loopback: a prompt that is not one of the run’s D2 cells');
  return { text: known.task.canonicalResponse(known.instance) };
};

const servers = new Set<LoopbackServer>();
afterAll(async () => {
  await Promise.all([...servers].map((s) => s.close()));
});

async function serve(): Promise<LoopbackServer> {
  const server = await startLoopbackServer({ answer: exact });
  servers.add(server);
  return server;
}

function bench(server: LoopbackServer, cacheDir: string, args: string[], env: Record<string, string> = {}) {
  const outDir = mkdtempSync(join(tmpdir(), 'cb-fn-'));
  const child = spawnBench(
    [CLI_BIN, 'run', '--root', 'test/fixture-function', '--trials', String(TRIALS), '--out', outDir, ...args],
    { LOOP_BASE_URL: server.baseURL, CEILINGBENCH_CACHE_DIR: cacheDir, ...env },
  );
  return { child, outDir, output: () => child.stdout() + child.stderr() };
}

const kinds = (report: Report): Record<string, number> => {
  const tally: Record<string, number> = {};
  for (const cell of report.cells)
    for (const t of cell.trials) tally[t.outcome.kind] = (tally[t.outcome.kind] ?? 0) + 1;
  return tally;
};
const cacheHits = (report: Report): number =>
  report.cells.reduce((sum, cell) => sum + cell.trials.filter((t) => t.cacheHit).length, 0);
const serverTokens = (server: LoopbackServer, from = 0): { prompt: number; completion: number } =>
  server.log.slice(from).reduce(
    (sum, r) => ({
      prompt: sum.prompt + (r.usage?.promptTokens ?? 0),
      completion: sum.completion + (r.usage?.completionTokens ?? 0),
    }),
    { prompt: 0, completion: 0 },
  );

// a guard against a hang (the project's 10 min), not a speed claim: 400 s ran out in a full run at load ~25
describe.concurrent('a subject that is a function, through `ceilingbench run`', { timeout: 600_000 }, () => {
  it('passed by the spec: runs the sweep, counts its usage in spend, and a rerun sends 0 requests', async () => {
    const server = await serve();
    const cacheDir = mkdtempSync(join(tmpdir(), 'cb-fn-cache-'));
    const own = { FIXTURE_OWN_SUBJECT: '1' };
    const first = bench(server, cacheDir, [], own);
    expect((await first.child.done).code, first.output()).toBe(0);
    expect(server.log).toHaveLength(TOTAL);
    expect(server.repeats()).toBe(0);
    const report = readReport(first.outDir);
    expect(kinds(report)).toEqual({ correct: TOTAL });
    // the report names the subject by its id, never by its code
    expect(report.subjects).toEqual([
      {
        spec: 'function:loop-pipeline',
        kind: 'function',
        model: 'loop-pipeline',
        endpoint: 'function:loop-pipeline',
        // the fixture pins its version: trusted, and said to be pinned
        parameters: { version: '1', pinned: true },
      },
    ]);
    expect(JSON.stringify(report)).not.toContain('x-ceilingbench-trial');
    const tokens = serverTokens(server);
    expect(report.spend?.total).toMatchObject({
      calls: TOTAL,
      paid: { trials: TOTAL, prompt: tokens.prompt, completion: tokens.completion },
      fromCache: { trials: 0 },
      unknownUsage: 0,
    });

    const again = bench(server, cacheDir, [], own);
    expect((await again.child.done).code, again.output()).toBe(0);
    expect(server.log, 'the rerun is answered from the response cache').toHaveLength(TOTAL);
    const cached = readReport(again.outDir);
    expect(kinds(cached)).toEqual({ correct: TOTAL });
    expect(cacheHits(cached)).toBe(TOTAL);
    expect(cached.spend?.total).toMatchObject({ calls: 0, paid: { trials: 0 }, fromCache: { trials: TOTAL } });

    // a spending limit cannot be kept for a subject the main process never saw: an error, not a silent overspend
    const limited = bench(server, cacheDir, ['--max-calls', '5'], own);
    expect((await limited.child.done).code).not.toBe(0);
    expect(limited.output()).toMatch(/spending limit cannot be kept for it .*--subject module:/);
    expect(server.log).toHaveLength(TOTAL);
  });

  it('--subject module:./subject.ts with --max-calls: stops at the limit (rest `budget`, exit 4), resumes, then 0 requests', async () => {
    const server = await serve();
    const cacheDir = mkdtempSync(join(tmpdir(), 'cb-fn-cache-'));
    const subject = ['--subject', 'module:./subject.ts'];
    const limit = 5;
    const first = bench(server, cacheDir, [...subject, '--max-calls', String(limit)]);
    expect((await first.child.done).code, first.output()).toBe(4);
    expect(server.log).toHaveLength(limit);
    const report = readReport(first.outDir);
    expect(report.subjects.map((s) => [s.spec, s.kind, s.model])).toEqual([
      ['module:./subject.ts', 'function', 'loop-pipeline'],
    ]);
    expect(kinds(report)).toEqual({ correct: limit, budget: TOTAL - limit });
    expect(report.summary.missing, 'trials not sent are missing data, not failures').toBe(TOTAL - limit);
    const tokens = serverTokens(server);
    expect(report.spend?.limit).toMatchObject({
      limits: { maxCalls: limit },
      stoppedBy: 'maxCalls',
      notSent: TOTAL - limit,
      spent: { calls: limit, tokens: tokens.prompt + tokens.completion },
    });
    expect(first.output()).toMatch(/stopped by --max-calls — spent 5 calls of 5 calls/);

    const resumed = bench(server, cacheDir, [...subject, '--max-calls', '100']);
    expect((await resumed.child.done).code, resumed.output()).toBe(0);
    expect(server.log, 'the rerun sends only the trials not answered yet').toHaveLength(TOTAL);
    expect(server.repeats()).toBe(0);
    expect(kinds(readReport(resumed.outDir))).toEqual({ correct: TOTAL });

    const cached = bench(server, cacheDir, subject);
    expect((await cached.child.done).code, cached.output()).toBe(0);
    expect(server.log).toHaveLength(TOTAL);
    expect(cacheHits(readReport(cached.outDir))).toBe(TOTAL);
  });

  it('listed itself in ceilingbench.config.ts (subjects: [pipeline]): found by its id in every worker, then cached', async () => {
    const server = await serve();
    const cacheDir = mkdtempSync(join(tmpdir(), 'cb-fn-cache-'));
    const env = { CEILINGBENCH_CONFIG: 'config-subject.config.ts' };
    const first = bench(server, cacheDir, [], env);
    expect((await first.child.done).code, first.output()).toBe(0);
    expect(server.log).toHaveLength(TOTAL);
    const report = readReport(first.outDir);
    expect(report.subjects.map((s) => [s.spec, s.kind, s.model])).toEqual([
      ['function:loop-pipeline', 'function', 'loop-pipeline'],
    ]);
    expect(kinds(report)).toEqual({ correct: TOTAL });
    const again = bench(server, cacheDir, [], env);
    expect((await again.child.done).code, again.output()).toBe(0);
    expect(server.log).toHaveLength(TOTAL);
  });
});
