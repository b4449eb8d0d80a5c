/**
 * Share of an unknown provider limit the REAL client reaches, on a real clock: the openai subject with its default
 * settings (no limiter, retry or concurrency configured: the process-wide adaptive limiter, the endpoint gate and
 * the retry loop, src/subjects/), asked for D2 trials by 256 callers at once (a sweep's cells queue many more trials
 * than any limit), against a loopback server behind one hidden limit (bench/hidden-limit-server.ts, its own
 * process). Each scenario runs in its own client process, so that every scenario starts with a fresh limiter.
 *
 *   nice npx tsx bench/throughput-limits.ts [--only name,name] [--parallel 3] [--seconds 40] [--warmup 10] [--quick]
 *
 * Printed per scenario: the share of capacity reached in the steady window (answers, or for a token limit answered
 * tokens, completed between `warmup` and the end, ÷ what the limit admits in that time: a bucket's rate, or a cap's
 * n ÷ the mean service time the server drew in that window), the share of requests answered 429 over the whole run, the trials that ended `api`, the
 * limiter's concurrency (mean of 10 samples a second), the server's most requests in flight, the longest a
 * request waited in a queueing server, and the mean latency the subject recorded against the server's own.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { setMaxListeners } from 'node:events';
import os from 'node:os';
import { createInterface, type Interface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createOpenAiSubject, sharedLimiter } from '../src/subjects/index.js';
import type { TrialRequest } from '../src/subjects/subject.js';
import { generateCell } from '../src/tasks/instances.js';
import { resolveTask } from '../src/tasks/registry.js';
import type { HiddenLimit, ServedRequest, ServerOptions } from './hidden-limit-server.js';

export interface Scenario {
  name: string;
  label: string;
  limit: HiddenLimit;
  headers: ServerOptions['headers'];
  median: number;
  /** Seconds of load and of warm-up (not counted in the steady share); longer for 2 s latency. */
  seconds: number;
  warmup: number;
}

const SIGMA = 0.5;
const TPM_3M = 3_000_000 / 60;

/**
 * A scenario; the load lasts 120 s (20 s of warm-up) at 400 ms, 150 s (40 s) at 2 s latency: long enough that the
 * slow start's refusals are a small part of the run, as in a sweep of several minutes.
 */
const scenario = (
  name: string,
  label: string,
  limit: HiddenLimit,
  headers: ServerOptions['headers'],
  median = 400,
): Scenario => ({
  name,
  label,
  limit,
  headers,
  median,
  seconds: median > 1000 ? 150 : 120,
  warmup: median > 1000 ? 40 : 20,
});

const RPM10: HiddenLimit = { kind: 'rpm', rate: 10, burst: 3 };
const RPM40: HiddenLimit = { kind: 'rpm', rate: 40, burst: 10 };
const TPM: HiddenLimit = { kind: 'tpm', rate: TPM_3M, burst: TPM_3M };

/**
 * The scenarios: every hidden limit at 400 ms (with no header, Retry-After, x-ratelimit-*), a bucket (no
 * header, Retry-After) and a cap at 2 s, a one-at-a-time queueing server at both latencies.
 */
export const SCENARIOS: Scenario[] = [
  scenario('cap6', 'concurrency cap 6', { kind: 'cap', n: 6 }, 'none'),
  scenario('cap24', 'concurrency cap 24', { kind: 'cap', n: 24 }, 'none'),
  scenario('rpm10', 'request bucket 10/s burst 3', RPM10, 'none'),
  scenario('rpm10-ra', 'request bucket 10/s burst 3, Retry-After', RPM10, 'retry-after'),
  scenario('rpm10-oa', 'request bucket 10/s burst 3, x-ratelimit-*', RPM10, 'openai'),
  scenario('rpm40', 'request bucket 40/s burst 10', RPM40, 'none'),
  scenario('rpm40-oa', 'request bucket 40/s burst 10, x-ratelimit-*', RPM40, 'openai'),
  scenario('tpm', 'tokens per minute 3M (burst 1 s)', TPM, 'none'),
  scenario('tpm-ra', 'tokens per minute 3M (burst 1 s), Retry-After', TPM, 'retry-after'),
  scenario('tpm-oa', 'tokens per minute 3M (burst 1 s), x-ratelimit-*', TPM, 'openai'),
  scenario('rpm10-2s', '2 s latency, bucket 10/s burst 3', RPM10, 'none', 2000),
  scenario('rpm10-2s-ra', '2 s latency, bucket 10/s burst 3, Retry-After', RPM10, 'retry-after', 2000),
  scenario('cap6-2s', '2 s latency, concurrency cap 6', { kind: 'cap', n: 6 }, 'none', 2000),
  scenario('queue1', 'one-at-a-time queueing server', { kind: 'queue', n: 1 }, 'none'),
  scenario('queue1-2s', 'one-at-a-time queueing server, 2 s', { kind: 'queue', n: 1 }, 'none', 2000),
];

export interface Result {
  name: string;
  label: string;
  share: number;
  refusedPct: number;
  requests: number;
  api: number;
  limitMean: number;
  serverMaxInFlight: number;
  maxQueueWaitMs: number;
  recordedLatencyMs: number;
  serverLatencyMs: number;
}

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CALLERS = 256;
const absNow = () => performance.timeOrigin + performance.now();

async function startServer(
  options: ServerOptions,
): Promise<{ baseURL: string; child: ChildProcess; lines: Interface }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/hidden-limit-server.ts', JSON.stringify(options)], {
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const first = await new Promise<string>((resolve, reject) => {
    lines.once('line', resolve);
    child.once('exit', () => reject(new Error('hidden-limit server exited before printing its URL')));
  });
  return { baseURL: (JSON.parse(first) as { baseURL: string }).baseURL, child, lines };
}

async function stopServer(child: ChildProcess, lines: Interface): Promise<ServedRequest[]> {
  const last = new Promise<string>((resolve) => lines.once('line', resolve));
  child.stdin?.end();
  return (JSON.parse(await last) as { log: ServedRequest[] }).log;
}

/** The mean service time (start to end) of served requests, ms. */
const servedLatency = (served: readonly ServedRequest[]): number =>
  served.reduce((sum, r) => sum + ((r.ended ?? 0) - (r.started ?? 0)), 0) / Math.max(1, served.length);

/** Runs one scenario in this process against a fresh server; the limiter is the default, process-wide one. */
export async function runScenario(scenario: Scenario): Promise<Result> {
  const { baseURL, child, lines } = await startServer({
    limit: scenario.limit,
    headers: scenario.headers,
    median: scenario.median,
    sigma: SIGMA,
    seed: 43,
    lifetimeS: scenario.seconds + 120,
  });
  const d2 = resolveTask('d2');
  const instances = [5, 20, 35, 50].flatMap((n) => generateCell(d2, n, 32));
  const subject = createOpenAiSubject({ model: 'gpt-4o', baseURL, apiKey: 'sk-loopback-bench' });
  const identity = subject.identity.endpoint ?? baseURL;
  const limiter = sharedLimiter(identity);
  const stop = new AbortController();
  setMaxListeners(CALLERS * 4, stop.signal);
  const start = absNow();
  const end = start + scenario.seconds * 1000;
  const samples: number[] = [];
  let tick = 0;
  const sampler = setInterval(() => {
    samples.push(limiter.concurrency);
    if (process.env.BENCH_TRACE && ++tick % 10 === 0) {
      console.error(
        `${scenario.name} t=${(tick / 10).toFixed(0)} limit=${limiter.concurrency} ceiling=${limiter.adaptive?.ceiling} pace=${limiter.pace?.rate(performance.now())?.toFixed(2)} tokens=${limiter.pace?.tokenRate(performance.now())?.toFixed(0)} active=${limiter.active} pending=${limiter.pending} api=${api}`,
      );
    }
  }, 100);
  const timer = setTimeout(() => stop.abort(), scenario.seconds * 1000);
  let next = 0;
  let api = 0;
  let recorded = 0;
  let answeredCount = 0;
  const caller = async () => {
    while (!stop.signal.aborted) {
      const n = next++;
      const instance = instances[n % instances.length];
      const request: TrialRequest = {
        taskId: d2.id,
        instance,
        prompt: d2.render(instance, d2.variants[0]),
        trialIndex: Math.floor(n / instances.length),
        maxOutputTokens: d2.maxOutputTokens(instance.level),
        signal: stop.signal,
      };
      const response = await subject.answer(request);
      if (stop.signal.aborted) break; // cut by the end of the window: not counted
      if (response.kind === 'answer') {
        answeredCount++;
        recorded += response.latencyMs;
      } else api++;
    }
  };
  await Promise.all(Array.from({ length: CALLERS }, caller));
  clearTimeout(timer);
  clearInterval(sampler);
  const log = await stopServer(child, lines);
  const from = start + scenario.warmup * 1000;
  const steadyS = (end - from) / 1000;
  const inWindow = log.filter(
    (r) => r.outcome === 'answered' && r.ended !== undefined && r.ended >= from && r.ended < end,
  );
  const { limit } = scenario;
  const share =
    limit.kind === 'rpm'
      ? inWindow.length / steadyS / (limit.rate ?? 1)
      : limit.kind === 'tpm'
        ? inWindow.reduce((s, r) => s + r.charge, 0) / steadyS / (limit.rate ?? 1)
        : // a cap or a queue: what n slots serve at the latencies the server drew in the window
          inWindow.length / steadyS / ((limit.n ?? 1) / (servedLatency(inWindow) / 1000));
  const served = log.filter((r) => r.started !== undefined && r.ended !== undefined);
  const events = served.flatMap((r) => [
    { t: r.arrived, d: 1 },
    { t: r.ended ?? 0, d: -1 },
  ]);
  events.sort((a, b) => a.t - b.t || a.d - b.d);
  let inFlight = 0;
  let maxInFlight = 0;
  for (const e of events) {
    inFlight += e.d;
    maxInFlight = Math.max(maxInFlight, inFlight);
  }
  const refused = log.filter((r) => r.outcome === 'rate-limited').length;
  if (process.env.BENCH_TRACE) {
    const at = log.filter((r) => r.outcome === 'rate-limited').map((r) => ((r.arrived - start) / 1000).toFixed(2));
    console.error(`${scenario.name} refused at ${at.join(' ')}`);
  }
  return {
    name: scenario.name,
    label: scenario.label,
    share,
    refusedPct: (100 * refused) / Math.max(1, log.length),
    requests: log.length,
    api,
    limitMean: samples.reduce((a, b) => a + b, 0) / Math.max(1, samples.length),
    serverMaxInFlight: maxInFlight,
    maxQueueWaitMs: Math.max(0, ...served.map((r) => (r.started ?? 0) - r.arrived)),
    recordedLatencyMs: recorded / Math.max(1, answeredCount),
    serverLatencyMs: served.reduce((s, r) => s + ((r.ended ?? 0) - r.arrived), 0) / Math.max(1, served.length),
  };
}

/** One scenario per child process, `parallel` at a time; the table in markdown on stdout. */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      only: { type: 'string' },
      parallel: { type: 'string', default: '3' },
      seconds: { type: 'string' },
      warmup: { type: 'string' },
      quick: { type: 'boolean', default: false },
      child: { type: 'string' },
    },
  });
  if (values.child) {
    const result = await runScenario(JSON.parse(values.child) as Scenario);
    process.stdout.write(`${JSON.stringify(result)}\n`);
    process.exit(0);
  }
  const wanted = values.only?.split(',');
  const scenarios = SCENARIOS.filter((s) => !wanted || wanted.includes(s.name)).map((s) => ({
    ...s,
    ...(values.quick ? { seconds: 12, warmup: 4 } : {}),
    ...(values.seconds ? { seconds: Number(values.seconds) } : {}),
    ...(values.warmup ? { warmup: Number(values.warmup) } : {}),
  }));
  const load = os.loadavg()[0];
  const results: Result[] = [];
  const queue = [...scenarios];
  const worker = async () => {
    for (let s = queue.shift(); s; s = queue.shift()) {
      const scenario = s;
      const out = await new Promise<string>((resolve, reject) => {
        const child = spawn(
          process.execPath,
          ['--import', 'tsx', fileURLToPath(import.meta.url), '--child', JSON.stringify(scenario)],
          {
            cwd: ROOT,
            stdio: ['ignore', 'pipe', 'inherit'],
          },
        );
        let text = '';
        child.stdout?.on('data', (c: Buffer) => {
          text += c.toString();
        });
        child.once('exit', (code) =>
          code === 0 ? resolve(text) : reject(new Error(`${scenario.name} exited ${code}`)),
        );
      });
      const result = JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as Result;
      console.error(`${result.name}: share ${result.share.toFixed(3)}, refused ${result.refusedPct.toFixed(1)}%`);
      results.push(result);
    }
  };
  await Promise.all(Array.from({ length: Number(values.parallel) }, worker));
  results.sort((a, b) => scenarios.findIndex((s) => s.name === a.name) - scenarios.findIndex((s) => s.name === b.name));
  console.log(
    `Default settings (adaptive limiter, endpoint gate, default retry policy), ${CALLERS} callers of D2 trials, lognormal latency σ = ${SIGMA}; load average at start ${load.toFixed(1)} on ${os.cpus().length} CPUs.\n`,
  );
  console.log(
    '| hidden limit | share of capacity (steady) | refused (429) | requests | trials `api` | limit held (mean) | server max in flight | longest queue wait | latency recorded / server |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const r of results) {
    console.log(
      `| ${r.label} | **${r.share.toFixed(2)}** | **${r.refusedPct.toFixed(1)}%** | ${r.requests} | ${r.api} | ${r.limitMean.toFixed(1)} | ${r.serverMaxInFlight} | ${(r.maxQueueWaitMs / 1000).toFixed(1)} s | ${Math.round(r.recordedLatencyMs)} / ${Math.round(r.serverLatencyMs)} ms |`,
    );
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
