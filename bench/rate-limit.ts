/**
 * Adaptive against fixed concurrency, at a provider's hidden rate limit. The loopback server
 * (bench/rate-limit-server.ts, its own process) admits `rate` requests per second through a token bucket of
 * `burst` tokens and answers the rest 429 with `x-ratelimit-reset-requests`; admitted requests take a seeded
 * lognormal latency. The client is the openai subject as a sweep uses it (default retry policy: 6 attempts,
 * the reset header honoured), with its own limiter, asked by 256 concurrent callers (a sweep's cells queue many
 * more trials than the limit) for `seconds` seconds. Printed per limiter: answers per second ÷ the bucket's
 * rate, the share of requests answered 429, the trials that ran out of attempts (`api`), and for the adaptive
 * limiter the limit it held (mean of 10 samples a second).
 *
 *   npx tsx bench/rate-limit.ts [--seconds 30] [--rate 40] [--burst 8] [--median 200] [--sigma 0.25]
 *                               [--limits adaptive,1,4,16,64] [--cap 8] [--quick]
 *
 * `--cap n`: the server has no bucket but a hidden concurrency cap of n requests being answered (a request beyond
 * it is answered 429 at once, with no wait asked); the reference rate is then n ÷ the mean latency.
 *
 * The limit that fits the bucket is rate × mean latency in flight (≈ 8.2 at the defaults): fixed 1 and 4 stay
 * below it by construction, 16 and 64 overshoot it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { setMaxListeners } from 'node:events';
import os from 'node:os';
import { createInterface, type Interface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { cappedLognormalMean } from '../scripts/perf/latency.js';
import { createOpenAiSubject, RateLimiter } from '../src/subjects/index.js';
import type { TrialRequest } from '../src/subjects/subject.js';
import { generateCell } from '../src/tasks/instances.js';
import { resolveTask } from '../src/tasks/registry.js';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '30' },
    rate: { type: 'string', default: '40' },
    burst: { type: 'string', default: '8' },
    median: { type: 'string', default: '200' },
    sigma: { type: 'string', default: '0.25' },
    seed: { type: 'string', default: '18' },
    callers: { type: 'string', default: '256' },
    limits: { type: 'string', default: 'adaptive,1,4,16,64' },
    cap: { type: 'string', default: '0' },
    quick: { type: 'boolean', default: false },
  },
});
const SECONDS = values.quick ? 5 : Number(values.seconds);
const CAP = Number(values.cap);
/** The reference rate: the bucket's, or what the concurrency cap lets through at the mean latency. */
const RATE =
  CAP > 0 ? (CAP * 1000) / cappedLognormalMean(Number(values.median), Number(values.sigma)) : Number(values.rate);
const BURST = Number(values.burst);
const MEDIAN = Number(values.median);
const SIGMA = Number(values.sigma);
const SEED = Number(values.seed);
const CALLERS = Number(values.callers);
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const MEAN_LATENCY = cappedLognormalMean(MEDIAN, SIGMA);
const FITTING = (RATE * MEAN_LATENCY) / 1000;

const d2 = resolveTask('d2');
const instances = generateCell(d2, 20, 64);

interface Counts {
  requests: number;
  rateLimited: number;
  answered: number;
}

async function startServer(): Promise<{ baseURL: string; child: ChildProcess; lines: Interface }> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'bench/rate-limit-server.ts',
      ...[CAP > 0 ? 0 : RATE, BURST, MEDIAN, SIGMA, SEED, CAP].map(String),
    ],
    { cwd: ROOT, stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const first = await new Promise<string>((resolve, reject) => {
    lines.once('line', resolve);
    child.once('exit', () => reject(new Error('rate-limit server exited before printing its URL')));
  });
  return { baseURL: (JSON.parse(first) as { baseURL: string }).baseURL, child, lines };
}

async function stopServer(child: ChildProcess, lines: Interface): Promise<Counts> {
  const counts = new Promise<string>((resolve) => lines.once('line', resolve));
  child.stdin?.end();
  const line = await counts;
  await new Promise<void>((resolve) => (child.exitCode !== null ? resolve() : child.once('exit', () => resolve())));
  return JSON.parse(line) as Counts;
}

type Limit = { kind: 'adaptive' } | { kind: 'fixed'; concurrency: number };

const rows: string[] = [];
async function measure(limit: Limit): Promise<void> {
  const { baseURL, child, lines } = await startServer();
  const limiter = limit.kind === 'adaptive' ? new RateLimiter() : new RateLimiter({ concurrency: limit.concurrency });
  const subject = createOpenAiSubject({ model: 'loopback', baseURL, apiKey: 'sk-loopback-perf', limiter });
  const load = os.loadavg()[0];
  const stop = new AbortController();
  setMaxListeners(CALLERS * 4, stop.signal); // every caller waiting for the limiter listens for the stop
  const start = performance.now();
  const deadline = start + SECONDS * 1000;
  let next = 0;
  let answered = 0;
  let failed = 0;
  const samples: number[] = [];
  const sampler = setInterval(() => samples.push(limiter.concurrency), 100);
  const timer = setTimeout(() => stop.abort(), SECONDS * 1000);
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
      if (performance.now() > deadline || stop.signal.aborted) break; // finished after the window: not counted
      if (response.kind === 'answer') answered++;
      else failed++;
    }
  };
  await Promise.all(Array.from({ length: CALLERS }, caller));
  clearTimeout(timer);
  clearInterval(sampler);
  const wallS = (performance.now() - start) / 1000;
  const counts = await stopServer(child, lines);
  const rate = answered / SECONDS;
  const name = limit.kind === 'adaptive' ? 'adaptive (4 → 1–64)' : `fixed ${limit.concurrency}`;
  const held =
    limit.kind === 'adaptive'
      ? `${(samples.reduce((a, b) => a + b, 0) / Math.max(1, samples.length)).toFixed(1)} (last ${limiter.concurrency})`
      : String(limit.concurrency);
  rows.push(
    `| ${name} | ${SECONDS} | ${answered} | ${rate.toFixed(1)} | **${(rate / RATE).toFixed(3)}** | ${counts.requests} | ${counts.rateLimited} | **${((100 * counts.rateLimited) / Math.max(1, counts.requests)).toFixed(1)}%** | ${failed} | ${held} | ${load.toFixed(1)} |`,
  );
  console.error(
    `${name}: ${rate.toFixed(1)} answers/s of ${RATE} (${(rate / RATE).toFixed(3)}), 429 share ${((100 * counts.rateLimited) / Math.max(1, counts.requests)).toFixed(1)}%, ${failed} api, wall ${wallS.toFixed(1)} s`,
  );
}

const LIMITS: Limit[] = (values.limits ?? '')
  .split(',')
  .filter(Boolean)
  .map((text) => (text === 'adaptive' ? { kind: 'adaptive' } : { kind: 'fixed', concurrency: Number(text) }));
for (const limit of LIMITS) await measure(limit);

const hidden =
  CAP > 0
    ? `a hidden concurrency cap of ${CAP} requests being answered (429 at once beyond it, no wait asked), i.e. ${RATE.toFixed(1)} requests/s at the mean latency`
    : `a hidden token bucket: ${RATE} requests/s, burst ${BURST}`;
console.log(
  `Loopback server behind ${hidden}; admitted requests take a lognormal latency, median ${MEDIAN} ms, σ = ${SIGMA} (mean ${MEAN_LATENCY.toFixed(1)} ms), so ${FITTING.toFixed(1)} requests in flight fit the limit. ${CALLERS} concurrent callers for ${SECONDS} s per row; default retry policy.\n`,
);
console.log(
  '| limiter | window s | answers | answers/s | answers/s ÷ limit rate | requests | answered 429 | 429 share | trials out of attempts (api) | limit held (mean) | load avg (1 min) at start |',
);
console.log('|---|---|---|---|---|---|---|---|---|---|---|');
for (const row of rows) console.log(row);
