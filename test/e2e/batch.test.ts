import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Report } from '../../src/schema/report.js';
import { batchStatePath } from '../../src/subjects/openai/batch-state.js';
import {
  CLI_BIN,
  promptsOf,
  readReport,
  simulatedModel,
  spawnBench,
  withoutRunDependentFields,
} from '../reliability/support/bench-run.js';
import { type BatchServer, type BatchServerOptions, startBatchServer } from '../support/batch-server.js';

/**
 * `ceilingbench run --batch` end to end against the loopback batch server, which also answers chat completions live
 * (the same answers, counted apart): a batched d2 run writes the same report as the same run live — outcomes, p_d,
 * gates — with every request through the batch endpoints and none through chat completions; a run killed after it
 * submitted is completed by the next without submitting any request twice; a failed request and an expired batch
 * leave `api` trials with the provider's reason.
 */

const TRIALS = 4;
const prompts = promptsOf('d2', TRIALS);
const TOTAL = prompts.size;
const answer = simulatedModel(prompts, 0.93);

const servers = new Set<BatchServer>();
afterAll(async () => {
  await Promise.all([...servers].map((s) => s.close()));
});

async function serve(
  options: Partial<BatchServerOptions> = {},
): Promise<{ server: BatchServer; options: BatchServerOptions }> {
  const all: BatchServerOptions = { answer, ...options };
  const server = await startBatchServer(all);
  servers.add(server);
  return { server, options: all };
}

function bench(server: BatchServer, cacheDir: string, args: string[]) {
  const outDir = mkdtempSync(join(tmpdir(), 'cb-batch-out-'));
  const child = spawnBench(
    [
      CLI_BIN,
      'run',
      '--project',
      'd2',
      '--subject',
      'openai:loop-model',
      '--trials',
      String(TRIALS),
      '--out',
      outDir,
      ...args,
    ],
    {
      OPENAI_BASE_URL: server.baseURL,
      OPENAI_API_KEY: 'sk-loopback',
      CEILINGBENCH_CACHE_DIR: cacheDir,
      CEILINGBENCH_GIT_SHA: 'batch-e2e',
      CEILINGBENCH_GATES: JSON.stringify({ d2: { minRetention: 0.9 } }),
    },
  );
  return { child, outDir, output: () => child.stdout() + child.stderr() };
}

const freshCache = () => mkdtempSync(join(tmpdir(), 'cb-batch-cache-'));

/** The report without what legitimately differs by route: timings, cache hits, requests, and the batch ids. */
function comparable(report: Report): unknown {
  const copy = withoutRunDependentFields(report) as {
    cells: { trials: Record<string, unknown>[] }[];
    provenance: { subjects: Record<string, unknown>[] };
  };
  for (const cell of copy.cells) for (const trial of cell.trials) delete trial.batch;
  for (const subject of copy.provenance.subjects) delete subject.batched;
  return copy;
}

const kinds = (report: Report): Record<string, number> => {
  const tally: Record<string, number> = {};
  for (const cell of report.cells)
    for (const t of cell.trials) tally[t.outcome.kind] = (tally[t.outcome.kind] ?? 0) + 1;
  return tally;
};

/** Whether the run's batches.json names this batch yet. */
function stateNames(cacheDir: string, batchId: string): boolean {
  try {
    return readFileSync(batchStatePath(cacheDir), 'utf8').includes(batchId);
  } catch {
    return false;
  }
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('ceilingbench run --batch', { timeout: 600_000 }, () => {
  it('writes the report the live run writes, every request through the batch endpoints, none through chat completions', async () => {
    const { server } = await serve();
    const live = bench(server, freshCache(), []);
    expect((await live.child.done).code, live.output()).toBeLessThanOrEqual(1);
    expect(server.chatCompletions()).toBe(TOTAL);
    const liveReport = readReport(live.outDir);

    const cacheDir = freshCache();
    const batched = bench(server, cacheDir, ['--batch']);
    const { code } = await batched.child.done;
    expect(code, batched.output()).toBe((await live.child.done).code);
    expect(server.chatCompletions(), 'no request of the batched run went through chat completions').toBe(TOTAL);
    expect(server.submitted).toHaveLength(TOTAL);
    expect(new Set(server.submitted).size).toBe(TOTAL);
    expect(batched.output()).toMatch(/batch mode — openai:loop-model: 0 already cached, 40 submitted in 1 new batch/);
    expect(batched.output()).toMatch(/batch: 1 batch\(es\) — completed 1; requests 40 of 40 done, 0 failed/);
    const report = readReport(batched.outDir);
    expect(comparable(report)).toEqual(comparable(liveReport));
    expect(report.gates.length).toBeGreaterThan(0);
    expect(report.gates).toEqual(liveReport.gates);
    // bought by this run's pass: one request each, paid in this run (at the batch price), not cache hits
    const trialsOf = (r: Report) => r.cells.flatMap((c) => c.trials);
    expect(trialsOf(report).every((t) => t.batch === 'batch_1' && !t.cacheHit && t.attempts === 1)).toBe(true);
    expect(report.spend?.total).toMatchObject({ calls: TOTAL, paid: { trials: TOTAL }, fromCache: { trials: 0 } });
    const tokens = (r: Report) => [r.spend?.total.paid.prompt, r.spend?.total.paid.completion];
    expect(tokens(report)).toEqual(tokens(liveReport));
    expect(report.provenance?.subjects.map((s) => s.batched)).toEqual([TOTAL]);
    expect(liveReport.provenance?.subjects.map((s) => s.batched)).toEqual([undefined]);

    // the same command again: every trial already cached, nothing bought — cache hits, nothing paid
    const again = bench(server, cacheDir, ['--batch']);
    expect((await again.child.done).code, again.output()).toBe(code);
    expect(again.output()).toMatch(/batch mode — openai:loop-model: 40 already cached, 0 submitted/);
    const second = readReport(again.outDir);
    expect(trialsOf(second).every((t) => t.batch === 'batch_1' && t.cacheHit && t.attempts === 0)).toBe(true);
    expect(second.spend?.total).toMatchObject({ calls: 0, paid: { trials: 0 }, fromCache: { trials: TOTAL } });
    expect(comparable(second)).toEqual(comparable(liveReport));
  });

  it('killed after it submitted, the next run completes it: no request is submitted twice', async () => {
    const { server, options } = await serve({ completeAfterMs: 3_600_000 });
    const cacheDir = freshCache();
    const first = bench(server, cacheDir, ['--batch']);
    while (server.batches.length === 0 && first.child.child.exitCode === null) await wait(50);
    // it has recorded the batch and is polling (the next poll in 60 s)
    while (!stateNames(cacheDir, 'batch_1')) await wait(50);
    first.child.kill();
    await first.child.done;
    options.completeAfterMs = 0;
    const again = bench(server, cacheDir, ['--batch']);
    expect((await again.child.done).code, again.output()).toBeLessThanOrEqual(1);
    expect(again.output()).toMatch(/picking up 1 batch\(es\) submitted earlier/);
    expect(server.batches).toEqual([{ id: 'batch_1', requests: TOTAL }]);
    expect(server.submitted).toHaveLength(TOTAL);
    expect(server.chatCompletions()).toBe(0);
    expect(kinds(readReport(again.outDir))).not.toHaveProperty('api');
  });

  it('a spending limit holds the batch back before submission: the rest are `budget`, exit 4', async () => {
    const { server } = await serve();
    const run = bench(server, freshCache(), ['--batch', '--max-calls', '15']);
    const { code } = await run.child.done;
    expect(code, run.output()).toBe(4);
    expect(server.submitted).toHaveLength(15);
    expect(server.chatCompletions()).toBe(0);
    const report = readReport(run.outDir);
    const tally = kinds(report);
    expect(tally.budget).toBe(TOTAL - 15);
    expect(run.output()).toMatch(/25 held back by a limit \(budget\)/);
    // the report's limit record is the pass's: what its batches bought, what it held back, the limit that held them
    const paid = report.spend?.total.paid;
    expect(report.spend?.limit).toMatchObject({
      limits: { maxCalls: 15 },
      spent: { calls: 15, tokens: (paid?.prompt ?? 0) + (paid?.completion ?? 0) },
      stoppedBy: 'maxCalls',
      notSent: TOTAL - 15,
    });
    expect(report.spend?.total.paid.trials).toBe(15);
  });

  it('a failed request is an `api` trial with the provider reason, never a model failure', async () => {
    // expiry and cancellation are the same path (an error line per request): test/subjects/batch.test.ts
    const failing = [...prompts.keys()].filter((_, i) => i % 10 === 3);
    const { server } = await serve({
      fail: (request) =>
        failing.includes(request.messages.at(-1)?.content ?? '')
          ? { status: 500, message: 'upstream overloaded' }
          : undefined,
    });
    const run = bench(server, freshCache(), ['--batch']);
    const { code } = await run.child.done;
    expect(code, run.output()).toBeLessThanOrEqual(1);
    const report = readReport(run.outDir);
    const api = report.cells.flatMap((c) => c.trials).filter((t) => t.outcome.kind === 'api');
    expect(api.length).toBe(failing.length);
    expect(server.chatCompletions()).toBe(0);
    for (const trial of api)
      expect(JSON.stringify(trial.outcome)).toMatch(/batch batch_1: status 500: upstream overloaded/);
  });
});
