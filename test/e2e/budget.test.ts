import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Report } from '../../src/schema/report.js';
import { CLI_BIN, promptOf, promptsOf, readReport, spawnBench } from '../reliability/support/bench-run.js';
import {
  type LoopbackOptions,
  type LoopbackReply,
  type LoopbackServer,
  startLoopbackServer,
} from '../support/loopback-server.js';

/**
 * The hard budget and Ctrl-C through whole `ceilingbench run`s against a loopback server that answers D2 exactly
 * (every trial sent is correct, so any other outcome is the budget's doing): a limit or an interrupt stops
 * launching, the trials not sent are `budget` (missing data), the report is written, the run exits 4 with one line,
 * and a rerun sends only the trials not answered yet.
 */
const prompts = promptsOf('d2', 20);

const exact = (request: Parameters<LoopbackOptions['answer']>[0]): LoopbackReply => {
  const known = promptOf(request, prompts);
  if (!known) throw new Error('loopback: a prompt that is not one of the run’s D2 cells');
  return { text: known.task.canonicalResponse(known.instance) };
};

const servers = new Set<LoopbackServer>();
afterAll(async () => {
  await Promise.all([...servers].map((s) => s.close()));
});

async function serve(options: Partial<LoopbackOptions> = {}): Promise<LoopbackServer> {
  const server = await startLoopbackServer({ answer: exact, ...options });
  servers.add(server);
  return server;
}

function bench(server: LoopbackServer, cacheDir: string, args: string[], env: Record<string, string> = {}) {
  const outDir = mkdtempSync(join(tmpdir(), 'cb-budget-'));
  const child = spawnBench(
    [CLI_BIN, 'run', '--project', 'd2', '--subject', 'openai:loop-model', '--out', outDir, ...args],
    { OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: 'sk-loopback', CEILINGBENCH_CACHE_DIR: cacheDir, ...env },
  );
  return { child, outDir, output: () => child.stdout() + child.stderr() };
}

const kinds = (report: Report): Record<string, number> => {
  const tally: Record<string, number> = {};
  for (const cell of report.cells)
    for (const t of cell.trials) tally[t.outcome.kind] = (tally[t.outcome.kind] ?? 0) + 1;
  return tally;
};

/** Every cell that is short of data by the maxMissingFraction rule (0.2) is insufficient, and only those. */
function expectInsufficientByRule(report: Report): void {
  for (const cell of report.cells) {
    const missing = cell.trials.filter((t) => t.outcome.kind === 'budget' || t.outcome.kind === 'api').length;
    expect(cell.missing, `${cell.task} ${cell.level}`).toBe(missing);
    expect(cell.status, `${cell.task} ${cell.level}`).toBe(missing / cell.n > 0.2 ? 'insufficient' : 'ok');
  }
}

const newRequests = (server: LoopbackServer, since: number) => server.log.slice(since);
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await wait(20);
}

/**
 * A run against an endpoint that never answers, sent `signal` twice (to its process group, as a terminal or a
 * cancelled CI job does) once its first request is in flight.
 */
async function cancelledTwice(args: string[], signal: NodeJS.Signals, env: Record<string, string> = {}) {
  const server = await serve({ fault: () => ({ kind: 'hang' }) }); // nothing ever lands
  const run = bench(server, mkdtempSync(join(tmpdir(), 'cb-budget-cache-')), args, env);
  await until(() => server.log.length >= 1); // the adaptive limit starts at one request in flight
  const group = -(run.child.child.pid as number);
  process.kill(group, signal);
  await wait(200);
  process.kill(group, signal);
  const { code } = await run.child.done;
  return { code, run, group };
}

/** A cut run's report: its trials in flight recorded `budget` and interrupted, counted in the run block and the console. */
function expectCutInFlight(report: Report, output: string): void {
  const trials = report.cells.flatMap((c) => c.trials);
  const inFlight = trials.filter((t) => t.interrupted === 'in-flight');
  expect(inFlight.length, output).toBeGreaterThanOrEqual(1);
  for (const t of trials) expect(t.outcome.kind, JSON.stringify(t) + output).toBe('budget'); // nothing was answered: all missing, none failed
  expect(report.run).toMatchObject({ state: 'interrupted', cut: { inFlight: inFlight.length } });
  expect(output).toMatch(/interrupted: \d+ trial\(s\) cut — [1-9]\d* in flight \(their requests aborted\)/);
}

describe.concurrent('hard budget and Ctrl-C through `ceilingbench run`', { timeout: 400_000 }, () => {
  it('--max-calls 100 of 200 trials: 100 requests, the rest `budget` (missing), exit 4 and its line; a rerun sends only the rest', async () => {
    const server = await serve();
    const cacheDir = mkdtempSync(join(tmpdir(), 'cb-budget-cache-'));
    const first = bench(server, cacheDir, ['--trials', '20', '--max-calls', '100']);
    const { code } = await first.child.done;
    expect(code, first.output()).toBe(4);
    const sent = server.log.length;
    const report = readReport(first.outDir);
    const limit = report.spend?.limit;
    expect(limit, 'the report states the limit').toBeDefined();
    if (!limit) return;
    // the loopback server never fails, so no trial retries: one request per trial sent
    expect(sent).toBeLessThanOrEqual(100 + limit.overshootBound.calls);
    expect(sent).toBe(100);
    expect(limit).toMatchObject({ limits: { maxCalls: 100 }, stoppedBy: 'maxCalls', notSent: 200 - sent });
    expect(limit.spent.calls).toBe(sent);
    expect(limit.spent.tokens).toBe(
      server.log.reduce((sum, r) => sum + (r.usage ? r.usage.promptTokens + r.usage.completionTokens : 0), 0),
    );
    expect(limit.overshoot.calls).toBe(sent - 100);
    expect(kinds(report)).toEqual({ correct: sent, budget: 200 - sent });
    expect(report.summary.missing, 'budget trials are missing data, not failures').toBe(200 - sent);
    expect(report.fits.every((f) => f.status === 'insufficient')).toBe(true);
    expectInsufficientByRule(report);
    expect(report.summary.insufficientCells).toBeGreaterThan(0);
    expect(first.output()).toMatch(
      /stopped by --max-calls — spent 100 calls of 100 calls .*100 trials not sent .*rerun with a larger limit to resume from the response cache/,
    );

    const again = bench(server, cacheDir, ['--trials', '20', '--max-calls', '1000']);
    expect((await again.child.done).code, again.output()).toBe(0);
    expect(newRequests(server, sent), 'the rerun sends exactly the trials not answered yet').toHaveLength(200 - sent);
    expect(server.repeats(), 'no trial is paid twice').toBe(0);
    const resumed = readReport(again.outDir);
    expect(kinds(resumed)).toEqual({ correct: 200 });
    expect(resumed.spend?.limit).toMatchObject({ stoppedBy: null, notSent: 0, spent: { calls: 200 - sent } });
  });

  it('Ctrl-C: no new request, the answers in flight land in the cache, a partial report, exit 4, no listener warning', async () => {
    // slow answers, and more trials per cell than the default listener limit (10) waiting for the limiter at once
    const server = await serve({ latency: { medianMs: 1500, sigma: 0.05, seed: 3 } });
    const cacheDir = mkdtempSync(join(tmpdir(), 'cb-budget-cache-'));
    const env = { CEILINGBENCH_CONCURRENCY: '16' };
    const first = bench(server, cacheDir, ['--trials', '12'], env);
    await until(() => server.log.length >= 16);
    process.kill(-(first.child.child.pid as number), 'SIGINT'); // as a terminal does: the whole process group
    const { code } = await first.child.done;
    expect(code, first.output()).toBe(4);
    const sent = server.log.length;
    expect(sent).toBeLessThan(120);
    expect(server.log.every((r) => r.usage !== undefined)).toBe(true);
    expect(first.child.stderr()).not.toMatch(/MaxListenersExceededWarning/);
    expect(first.output()).toMatch(/interrupted — spent .*trials? not sent/);
    const report = readReport(first.outDir);
    expect(kinds(report)).toEqual({ correct: sent, budget: 120 - sent });
    expect(report.spend?.limit).toMatchObject({ stoppedBy: 'interrupt', notSent: 120 - sent, spent: { calls: sent } });
    expectInsufficientByRule(report);

    const again = bench(server, cacheDir, ['--trials', '12'], env);
    expect((await again.child.done).code, again.output()).toBe(0);
    expect(newRequests(server, sent), 'the answers that were in flight are not asked again').toHaveLength(120 - sent);
    expect(server.repeats()).toBe(0);
  });

  it('the wait after one Ctrl-C is bounded and says what it waits for; then the run is cancelled, the report written', async () => {
    const server = await serve({ fault: () => ({ kind: 'hang' }) }); // nothing ever lands
    const run = bench(server, mkdtempSync(join(tmpdir(), 'cb-budget-cache-')), ['--trials', '2']);
    await until(() => server.log.length >= 1); // the adaptive limit starts at one request in flight
    process.kill(-(run.child.child.pid as number), 'SIGINT');
    const { code } = await run.child.done;
    const said = run.output();
    expect(said).toMatch(/SIGINT — no new request is sent; waiting up to 30 s for the \d+ trial\(s\) in flight/);
    expect(said).toMatch(/still waiting for \d+ trial\(s\) in flight/);
    expect(said).toMatch(/gave up waiting for \d+ trial\(s\) in flight after 30 s — cancelling/);
    expect(readReport(run.outDir).spend?.limit).toMatchObject({ stoppedBy: 'interrupt' });
    expect(code, said).toBe(4);
  });

  it('SIGTERM to the group twice (CI cancelling a job): the request in flight is aborted and recorded as `budget`, interrupted; the report says how many were cut', async () => {
    const { code, run } = await cancelledTwice(['--trials', '2'], 'SIGTERM');
    const report = readReport(run.outDir);
    const trials = report.cells.flatMap((c) => c.trials);
    // issue 42: the worker died with its trials in flight, and their cells were absent from the report
    expect(trials, run.output()).toHaveLength(20);
    expectCutInFlight(report, run.output());
    expect(report.run?.cut?.notSent).toBe(trials.filter((t) => t.interrupted === 'not-sent').length);
    expect(code, run.output()).toBe(4);
  });

  it.each([
    ['adaptive', {}],
    // the sequential design decides a tested minRetention gate
    ['sequential', { CEILINGBENCH_GATES: JSON.stringify({ d2: { minRetention: { value: 0.5, evidence: 'test' } } }) }],
  ])(
    'SIGTERM twice during `--design %s`: the trial in flight is recorded `budget`, interrupted, not lost with the design',
    async (design, env) => {
      const { code, run } = await cancelledTwice(['--design', design], 'SIGTERM', env);
      const report = readReport(run.outDir);
      // before: the design's record was lost with its test: no cell, no fit, "0 trial(s) cut" with a request in flight
      expectCutInFlight(report, run.output());
      expect(report.fits.map((f) => f.status)).toEqual(['insufficient']);
      expect(code, run.output()).toBe(4);
    },
  );

  it('a second Ctrl-C stops waiting: the workers and their requests end, the report is still written (exit 4)', async () => {
    const { code, run, group } = await cancelledTwice(['--trials', '2'], 'SIGINT');
    // issue 42: the second signal no longer loses the report (it was exit 130 and no report)
    expect(existsSync(join(run.outDir, 'ceilingbench.json')), run.output()).toBe(true);
    expect(run.output()).toMatch(/SIGINT again — cancelling the tests still running; the report is written/);
    expect(readReport(run.outDir).spend?.limit).toMatchObject({ stoppedBy: 'interrupt' });
    expect(code, run.output()).toBe(4);
    // the workers got the second signal too: the whole group is gone, none is left sending
    await until(() => {
      try {
        process.kill(group, 0);
        return false;
      } catch {
        return true;
      }
    });
  });
});
