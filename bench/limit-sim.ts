/**
 * The limiter (src/subjects/limiter.ts, the real RateLimiter with its adaptive concurrency) against an endpoint
 * with a limit it is not told, on a virtual clock: a discrete-event simulation, so the figures do not depend on the
 * machine's load (bench/rate-limit.ts measures the same over loopback HTTP, where a loaded machine's own overhead
 * is in the figure). The endpoint hides one of two limits:
 *
 * - a token bucket of `rate` requests/s and `burst` tokens; a request finding no token is answered 429 with the time
 *   until the next token as its reset (as OpenAI does), and the trial retries after that wait;
 * - a concurrency cap of `cap` requests being answered; a request beyond it is answered 429 with no wait asked, and
 *   the trial retries after the default backoff (½–1 × 1 s, seeded).
 *
 * Admitted requests take a seeded lognormal latency (median `median` ms, σ `sigma`, capped at 10× the median); a 429
 * comes back after 5 ms. `callers` trials ask at once, as a sweep's cells queue many more trials than the limit.
 * Printed per scenario and limiter: answers/s ÷ the limit's rate (the bucket's rate, or cap ÷ the mean latency),
 * the share of requests answered 429, and the mean limit held. Deterministic: same arguments, same table. A fixed
 * limit far above the capacity (`--limits 16`) is slow to simulate: nearly every request is a 429 and a retry.
 *
 *   npx tsx bench/limit-sim.ts [--seconds 120] [--rate 40] [--burst 8] [--cap 8] [--median 200] [--sigma 0.25]
 *                              [--seeds 5] [--limits adaptive,8]
 */
import { parseArgs } from 'node:util';
import { cappedLognormalMean } from '../scripts/perf/latency.js';
import { PyRandom } from '../src/rng/index.js';
import { type LimiterClock, RateLimiter } from '../src/subjects/limiter.js';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '120' },
    rate: { type: 'string', default: '40' },
    burst: { type: 'string', default: '8' },
    cap: { type: 'string', default: '8' },
    median: { type: 'string', default: '200' },
    sigma: { type: 'string', default: '0.25' },
    seeds: { type: 'string', default: '5' },
    callers: { type: 'string', default: '256' },
    limits: { type: 'string', default: 'adaptive,8' },
  },
});
const SECONDS = Number(values.seconds);
const MEDIAN = Number(values.median);
const SIGMA = Number(values.sigma);
const CALLERS = Number(values.callers);
const MEAN_LATENCY = cappedLognormalMean(MEDIAN, SIGMA);
const REJECT_MS = 5;

type Hidden = { kind: 'bucket'; rate: number; burst: number } | { kind: 'cap'; cap: number };

/** A virtual clock: timers in time order (ties in creation order). */
class VirtualClock implements LimiterClock {
  #now = 0;
  #serial = 0;
  #timers: Array<{ at: number; serial: number; fn: () => void; live: boolean }> = [];
  now(): number {
    return this.#now;
  }
  setTimeout(fn: () => void, ms: number): unknown {
    const timer = { at: this.#now + Math.max(0, ms), serial: this.#serial++, fn, live: true };
    this.#timers.push(timer);
    return timer;
  }
  clearTimeout(handle: unknown): void {
    (handle as { live: boolean }).live = false;
  }
  /** Runs the earliest live timer; false when none is left before `end`. */
  step(end: number): boolean {
    this.#timers = this.#timers.filter((t) => t.live);
    if (this.#timers.length === 0) return false;
    let next = 0;
    for (let i = 1; i < this.#timers.length; i++) {
      const t = this.#timers[i];
      const best = this.#timers[next];
      if (t.at < best.at || (t.at === best.at && t.serial < best.serial)) next = i;
    }
    const timer = this.#timers[next];
    if (timer.at > end) return false;
    this.#timers.splice(next, 1);
    this.#now = timer.at;
    timer.fn();
    return true;
  }
}

const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

interface Row {
  ratio: number;
  share: number;
  held: number;
}

async function simulate(hidden: Hidden, limit: number | 'adaptive', seed: number): Promise<Row> {
  const clock = new VirtualClock();
  const limiter = new RateLimiter(limit === 'adaptive' ? {} : { concurrency: limit }, clock);
  const latencyRng = new PyRandom(seed);
  const jitterRng = new PyRandom(seed + 1_000_000);
  const latency = () => {
    const u1 = 1 - latencyRng.random();
    const z = Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * latencyRng.random());
    return Math.min(10 * MEDIAN, MEDIAN * Math.exp(SIGMA * z));
  };
  const bucket = { tokens: hidden.kind === 'bucket' ? hidden.burst : 0, at: 0 };
  let answering = 0;
  /** The wait a 429 asks for (ms), or undefined when the request is admitted. */
  const admit = (): { reset: number | undefined } | undefined => {
    if (hidden.kind === 'cap') return answering >= hidden.cap ? { reset: undefined } : undefined;
    const now = clock.now();
    bucket.tokens = Math.min(hidden.burst, bucket.tokens + ((now - bucket.at) / 1000) * hidden.rate);
    bucket.at = now;
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return undefined;
    }
    return { reset: Math.max(1, Math.ceil(((1 - bucket.tokens) / hidden.rate) * 1000)) };
  };
  const sleep = (ms: number) => new Promise<void>((resolve) => clock.setTimeout(resolve, ms));
  const end = SECONDS * 1000;
  let requests = 0;
  let rejected = 0;
  let answered = 0;
  let heldSum = 0;
  let heldSamples = 0;
  const sample = () => {
    heldSum += limiter.concurrency;
    heldSamples++;
    if (clock.now() < end) clock.setTimeout(sample, 100);
  };
  sample();
  const caller = async () => {
    let retry = 0;
    while (clock.now() < end) {
      const lease = await limiter.acquire(0);
      requests++;
      const refused = admit();
      if (refused) {
        rejected++;
        await sleep(REJECT_MS);
        lease.release(undefined, 'rate-limited');
        retry++;
        const backoff = 1000 * 2 ** (retry - 1) * (0.5 + 0.5 * jitterRng.random());
        await sleep(refused.reset ?? Math.min(backoff, 60_000));
        continue;
      }
      answering++;
      await sleep(latency());
      answering--;
      lease.release(undefined, 'success');
      retry = 0;
      if (clock.now() <= end) answered++;
    }
  };
  const callers = Array.from({ length: CALLERS }, caller);
  await settle();
  while (clock.step(end)) await settle();
  void callers; // the callers still waiting at the end are left pending: the simulation is over
  const rate = hidden.kind === 'bucket' ? hidden.rate : (hidden.cap * 1000) / MEAN_LATENCY;
  return { ratio: answered / SECONDS / rate, share: rejected / Math.max(1, requests), held: heldSum / heldSamples };
}

const range = (xs: number[], digits: number, scale = 1) => {
  const lo = Math.min(...xs) * scale;
  const hi = Math.max(...xs) * scale;
  return lo.toFixed(digits) === hi.toFixed(digits) ? lo.toFixed(digits) : `${lo.toFixed(digits)}–${hi.toFixed(digits)}`;
};

const scenarios: Array<{ name: string; hidden: Hidden }> = [
  {
    name: `token bucket ${values.rate}/s, burst ${values.burst}`,
    hidden: { kind: 'bucket', rate: Number(values.rate), burst: Number(values.burst) },
  },
  { name: `concurrency cap ${values.cap}`, hidden: { kind: 'cap', cap: Number(values.cap) } },
];
const limits = (values.limits ?? '')
  .split(',')
  .filter(Boolean)
  .map((l) => (l === 'adaptive' ? ('adaptive' as const) : Number(l)));
const seeds = Array.from({ length: Number(values.seeds) }, (_, i) => i + 1);

console.log(
  `Simulated endpoint (virtual clock), latency lognormal median ${MEDIAN} ms, σ ${SIGMA} (mean ${MEAN_LATENCY.toFixed(1)} ms); ${CALLERS} callers, ${SECONDS} s per run, seeds ${seeds.join(', ')} (ranges over seeds).\n`,
);
console.log('| hidden limit | limiter | answers/s ÷ limit rate | 429 share | limit held (mean) |');
console.log('|---|---|---|---|---|');
for (const { name, hidden } of scenarios) {
  for (const limit of limits) {
    const rows: Row[] = [];
    for (const seed of seeds) rows.push(await simulate(hidden, limit, seed));
    const label = limit === 'adaptive' ? 'adaptive (4 → 1–64)' : `fixed ${limit}`;
    console.log(
      `| ${name} | ${label} | **${range(
        rows.map((r) => r.ratio),
        3,
      )}** | **${range(
        rows.map((r) => r.share),
        1,
        100,
      )}%** | ${range(
        rows.map((r) => r.held),
        1,
      )} |`,
    );
  }
}
