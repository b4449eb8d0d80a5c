/**
 * Achieved trials/s against the loopback server (127.0.0.1, its own process) with seeded lognormal latency,
 * versus the limit concurrency ÷ mean latency, for
 *   ours           the sweep path: 10 depth cells at once (as describeSweep runs them), each a mapLimit pool,
 *                  every request through one shared RateLimiter(concurrency) inside the openai subject;
 *   batch-barrier  the SCC authors' scheme (src/assays/scc/tier.ts 'batch-barrier'): tiers of 16 trials,
 *                  the first alone, then the other 15 at once with a barrier before the next tier; same
 *                  subject and RateLimiter(concurrency).
 * A trial is the full client path: render the d2 prompt (depth 20), send it, read the completion, grade it.
 *
 *   npx tsx scripts/perf/throughput.ts [--median 200] [--sigma 0.5] [--rounds 20] [--quick]
 *
 * Each (scheme, concurrency) run gets a fresh server with the same latency seed, so both schemes draw the
 * same latencies (request k waits the k-th draw). Trials per run: rounds · max(concurrency, 16).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import os from 'node:os';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { mapLimit } from '../../src/assays/limit.js';
import { runTrial } from '../../src/assays/sweep/index.js';
import { createOpenAiSubject, RateLimiter } from '../../src/subjects/index.js';
import type { Subject } from '../../src/subjects/subject.js';
import { generateCell } from '../../src/tasks/instances.js';
import { resolveTask } from '../../src/tasks/registry.js';
import type { TaskInstance } from '../../src/tasks/task.js';
import { cappedLognormalMean, idealPoolMakespan, serverLatencies } from './latency.js';

const { values } = parseArgs({
  options: {
    median: { type: 'string', default: '200' },
    sigma: { type: 'string', default: '0.5' },
    rounds: { type: 'string', default: '20' },
    seed: { type: 'string', default: '9' },
    quick: { type: 'boolean', default: false },
  },
});
const MEDIAN = Number(values.median);
const SIGMA = Number(values.sigma);
const ROUNDS = values.quick ? 4 : Number(values.rounds);
const SEED = Number(values.seed);
const CONCURRENCIES = [4, 16, 64];
const TIER = 16;
const BATCH = 15;
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const d2 = resolveTask('d2');

async function startServer(medianMs: number): Promise<{ baseURL: string; child: ChildProcess }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'scripts/perf/loopback-child.ts', String(medianMs), String(SIGMA), String(SEED)],
    { cwd: ROOT, stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  for await (const line of lines) {
    const { baseURL } = JSON.parse(line) as { baseURL: string };
    return { baseURL, child };
  }
  throw new Error('loopback child exited before printing its URL');
}

function stopServer(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.stdin?.end();
  });
}

type Scheme = 'ours' | 'batch-barrier';

async function runScheme(scheme: Scheme, subject: Subject, instances: TaskInstance[], concurrency: number) {
  const done: number[] = [];
  const cpu0 = process.cpuUsage();
  const start = performance.now();
  const trial = async (instance: TaskInstance) => {
    await runTrial(subject, { task: d2, instance, variant: d2.variants[0], trialIndex: 0 });
    done.push(performance.now() - start);
  };
  if (scheme === 'ours') {
    const cells = 10;
    const perCell = Math.ceil(instances.length / cells);
    await Promise.all(
      Array.from({ length: cells }, (_, c) =>
        mapLimit(instances.slice(c * perCell, (c + 1) * perCell), concurrency, trial),
      ),
    );
  } else {
    for (let tier = 0; tier < instances.length; tier += TIER) {
      const group = instances.slice(tier, tier + TIER);
      await trial(group[0]);
      for (let b = 1; b < group.length; b += BATCH) await Promise.all(group.slice(b, b + BATCH).map(trial));
    }
  }
  const cpu = process.cpuUsage(cpu0);
  return { wallMs: performance.now() - start, done, cpuMs: (cpu.user + cpu.system) / 1000 };
}

/** Completions per second between the 10th and the 90th percentile completion (ramp-up and drain excluded). */
function steadyRate(done: readonly number[]): number {
  const sorted = [...done].sort((a, b) => a - b);
  const i10 = Math.floor(0.1 * (sorted.length - 1));
  const i90 = Math.floor(0.9 * (sorted.length - 1));
  return ((i90 - i10) / (sorted[i90] - sorted[i10])) * 1000;
}

interface Config {
  concurrency: number;
  medianMs: number;
  schemes: readonly Scheme[];
}

const rows: string[] = [];
async function measure({ concurrency, medianMs, schemes }: Config): Promise<void> {
  const trials = ROUNDS * Math.max(concurrency, TIER);
  const instances = generateCell(d2, 20, trials);
  const draws = serverLatencies(trials, medianMs, SIGMA, SEED);
  const meanMs = draws.reduce((a, b) => a + b, 0) / draws.length;
  const limit = (concurrency / meanMs) * 1000;
  const idealRate = (trials / idealPoolMakespan(draws, concurrency)) * 1000;
  for (const scheme of schemes) {
    const { baseURL, child } = await startServer(medianMs);
    try {
      const subject = createOpenAiSubject({
        model: 'loopback',
        baseURL,
        apiKey: 'sk-loopback-perf',
        limiter: new RateLimiter({ concurrency }),
      });
      const load = os.loadavg()[0];
      const { wallMs, done, cpuMs } = await runScheme(scheme, subject, instances, concurrency);
      const rate = (trials / wallMs) * 1000;
      const steady = steadyRate(done);
      rows.push(
        `| ${concurrency} | ${medianMs} | ${scheme} | ${trials} | ${(wallMs / 1000).toFixed(2)} | ${meanMs.toFixed(1)} | ${limit.toFixed(1)} | ${rate.toFixed(1)} | **${(rate / limit).toFixed(3)}** | ${steady.toFixed(1)} | ${(steady / limit).toFixed(3)} | ${(idealRate / limit).toFixed(3)} | ${(rate / idealRate).toFixed(3)} | ${(cpuMs / trials).toFixed(2)} | ${load.toFixed(1)} |`,
      );
      console.error(
        `concurrency ${concurrency} median ${medianMs} ${scheme}: ${rate.toFixed(1)} trials/s (limit ${limit.toFixed(1)})`,
      );
    } finally {
      await stopServer(child);
    }
  }
}

for (const concurrency of CONCURRENCIES)
  await measure({ concurrency, medianMs: MEDIAN, schemes: ['ours', 'batch-barrier'] });
// Controls for the largest concurrency: the same concurrency at a 4× longer latency (a quarter of the request
// rate), and a quarter of the concurrency at a 4× shorter latency (the same request rate). If the ratio falls
// with the request rate rather than with concurrency, the client's CPU per trial is the limit, not the pool.
await measure({ concurrency: 64, medianMs: 4 * MEDIAN, schemes: ['ours'] });
await measure({ concurrency: 16, medianMs: MEDIAN / 4, schemes: ['ours'] });

console.log(
  `Loopback server: lognormal latency, median as listed (${MEDIAN} ms unless a control row), σ = ${SIGMA}, capped at 10× the median (exact mean at ${MEDIAN} ms: ${cappedLognormalMean(MEDIAN, SIGMA).toFixed(1)} ms); ` +
    `limit = concurrency ÷ (mean of the latencies the server drew for that run's requests); ideal pool = the same draws through ` +
    `\`concurrency\` slots with no overhead (scripts/perf/latency.ts idealPoolMakespan): what a finite run can reach.\n`,
);
console.log(
  '| concurrency | median ms | scheme | trials | wall s | mean latency ms | limit trials/s | achieved trials/s | ratio (whole run) | steady trials/s (p10–p90 completions) | steady ratio | ideal pool ÷ limit (whole run, no overhead) | achieved ÷ ideal pool | client CPU ms/trial | load avg (1 min) at start |',
);
console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
for (const row of rows) console.log(row);
