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
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { mapLimit } from '../../src/assays/limit';
import { runTrial } from '../../src/assays/sweep';
import { createOpenAiSubject, RateLimiter } from '../../src/subjects';
import type { Subject } from '../../src/subjects/subject';
import { generateCell } from '../../src/tasks/instances';
import { resolveTask } from '../../src/tasks/registry';
import type { TaskInstance } from '../../src/tasks/task';
import { cappedLognormalMean, serverLatencies } from './latency';

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

async function startServer(): Promise<{ baseURL: string; child: ChildProcess }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'scripts/perf/loopback-child.ts', String(MEDIAN), String(SIGMA), String(SEED)],
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
  return { wallMs: performance.now() - start, done };
}

/** Completions per second between the 10th and the 90th percentile completion (ramp-up and drain excluded). */
function steadyRate(done: readonly number[]): number {
  const sorted = [...done].sort((a, b) => a - b);
  const i10 = Math.floor(0.1 * (sorted.length - 1));
  const i90 = Math.floor(0.9 * (sorted.length - 1));
  return ((i90 - i10) / (sorted[i90] - sorted[i10])) * 1000;
}

const rows: string[] = [];
for (const concurrency of CONCURRENCIES) {
  const trials = ROUNDS * Math.max(concurrency, TIER);
  const instances = generateCell(d2, 20, trials);
  const draws = serverLatencies(trials, MEDIAN, SIGMA, SEED);
  const meanMs = draws.reduce((a, b) => a + b, 0) / draws.length;
  const limit = (concurrency / meanMs) * 1000;
  for (const scheme of ['ours', 'batch-barrier'] as const) {
    const { baseURL, child } = await startServer();
    try {
      const subject = createOpenAiSubject({
        model: 'loopback',
        baseURL,
        apiKey: 'sk-loopback-perf',
        limiter: new RateLimiter({ concurrency }),
      });
      const { wallMs, done } = await runScheme(scheme, subject, instances, concurrency);
      const rate = (trials / wallMs) * 1000;
      const steady = steadyRate(done);
      rows.push(
        `| ${concurrency} | ${scheme} | ${trials} | ${(wallMs / 1000).toFixed(2)} | ${meanMs.toFixed(1)} | ${limit.toFixed(1)} | ${rate.toFixed(1)} | **${(rate / limit).toFixed(3)}** | ${steady.toFixed(1)} | ${(steady / limit).toFixed(3)} |`,
      );
      console.error(`concurrency ${concurrency} ${scheme}: ${rate.toFixed(1)} trials/s (limit ${limit.toFixed(1)})`);
    } finally {
      await stopServer(child);
    }
  }
}

console.log(
  `Loopback server: lognormal latency, median ${MEDIAN} ms, σ = ${SIGMA}, capped at 10× the median (exact mean ${cappedLognormalMean(MEDIAN, SIGMA).toFixed(1)} ms); ` +
    `limit = concurrency ÷ (mean of the latencies the server drew for that run's requests).\n`,
);
console.log(
  '| concurrency | scheme | trials | wall s | mean latency ms | limit trials/s | achieved trials/s | ratio (whole run) | steady trials/s (p10–p90 completions) | steady ratio |',
);
console.log('|---|---|---|---|---|---|---|---|---|---|');
for (const row of rows) console.log(row);
