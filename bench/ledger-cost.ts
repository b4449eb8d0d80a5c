/**
 * What the spend ledger path costs a paid trial: the real ledger server (src/spend/ledger-server.ts) and client
 * (src/spend/ledger-client.ts) over loopback, `inFlight` trials at once, each an admit (under its limiter slot,
 * src/subjects/openai/budget-step.ts: a round trip, or none when the worker's reserve has an admission) then a
 * settle (after its slot is released, not holding it). Each trial holds its slot for the admit and a request of
 * `latency` ms (a timer: the known limit is inFlight ÷ latency). Printed per level of concurrency and per reserve
 * size (0: every trial asks), each paired with the same trials without the ledger right after it: CPU ms per trial
 * (user + sys of this process, which holds both ends), the admit's wait (p50, p90, p99 ms of wall time: it includes
 * this machine's load) and trials/s ÷ the known limit with and without the ledger. Every run checks its
 * accounting: the ledger's spent calls are exactly the trials settled.
 *
 *   npx tsx bench/ledger-cost.ts [--trials 1500] [--levels 4,16,64] [--latency 226.6] [--reserves 0,64]
 */
import os from 'node:os';
import { parseArgs } from 'node:util';
import { MAX_RESERVE } from '../src/spend/ledger.js';
import { createLedgerClient } from '../src/spend/ledger-client.js';
import { startLedgerServer } from '../src/spend/ledger-server.js';

const { values } = parseArgs({
  options: {
    trials: { type: 'string', default: '1500' },
    levels: { type: 'string', default: '4,16,64' },
    latency: { type: 'string', default: '226.6' },
    reserves: { type: 'string', default: `0,${MAX_RESERVE}` },
  },
});
const TRIALS_AT_64 = Number(values.trials);
const LATENCY = Number(values.latency);
const levels = (values.levels ?? '').split(',').filter(Boolean).map(Number);
const reserves = (values.reserves ?? '').split(',').filter(Boolean).map(Number);

const claim = {
  floor: { calls: 1, tokens: 300, costUsd: 0.0003 },
  cap: { calls: 6, tokens: 2300, costUsd: 0.0123 },
};
const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

console.log(
  `Spend ledger over loopback, ${TRIALS_AT_64} trials at 64 in flight (as many rounds at the other levels; admit, then settle), latency ${LATENCY} ms.\n`,
);
console.log(
  '| trials in flight | max reserve | load (1 min) | CPU ms per trial | admit p50 ms | admit p90 ms | admit p99 ms | ÷ limit, ledger | ÷ limit, no ledger (paired) |',
);
console.log('|---|---|---|---|---|---|---|---|---|');
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
async function control(inFlight: number, trials: number): Promise<number> {
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < trials) {
        next++;
        await sleep(LATENCY);
      }
    }),
  );
  return trials / ((performance.now() - t0) / 1000) / ((inFlight * 1000) / LATENCY);
}
/** One paid run: each trial admits under its slot, holds it for the request, then settles after its slot. */
async function paid(inFlight: number, trials: number, reserve: number) {
  const service = await startLedgerServer({ maxCalls: 10 * trials * 6 });
  const gate = createLedgerClient(service.url, { maxReserve: reserve });
  // warm up: connections, JIT, the reserve
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      const a = await gate.admit(claim);
      if (a.admitted) await gate.settle(a.id, { calls: 1, tokens: 400, costUsd: 0.0005 });
    }),
  );
  const admits: number[] = [];
  const settles: Promise<void>[] = [];
  let next = 0;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < trials) {
        next++;
        const t0 = performance.now();
        const a = await gate.admit(claim);
        admits.push(performance.now() - t0);
        if (!a.admitted) throw new Error(`refused: ${a.reason}`);
        await sleep(LATENCY);
        // the slot is free again (the subject settles after its limiter slot, budget-step.ts)
        settles.push(gate.settle(a.id, { calls: 1, tokens: 400, costUsd: 0.0005 }));
      }
    }),
  );
  await Promise.all(settles);
  const cpu = process.cpuUsage(cpu0);
  const ratio = trials / ((performance.now() - t0) / 1000) / ((inFlight * 1000) / LATENCY);
  const spent = service.ledger.report().spent.calls;
  await service.close();
  if (spent !== trials + inFlight) throw new Error(`spent ${spent} calls for ${trials + inFlight} trials`);
  admits.sort((a, b) => a - b);
  return { cpuMs: (cpu.user + cpu.system) / 1000 / trials, admits, ratio };
}

for (const inFlight of levels) {
  // as many rounds of the latency at every level (a row of 4 in flight would otherwise take 16× as long)
  const trials = Math.max(100, Math.round((TRIALS_AT_64 * inFlight) / 64));
  const load = os.loadavg()[0].toFixed(1);
  for (const reserve of reserves) {
    const { cpuMs, admits, ratio } = await paid(inFlight, trials, reserve);
    const bare = await control(inFlight, trials);
    const q = (p: number) => quantile(admits, p).toFixed(2);
    console.log(
      `| ${inFlight} | ${reserve} | ${load} | ${cpuMs.toFixed(3)} | ${q(0.5)} | ${q(0.9)} | ${q(0.99)} | ${ratio.toFixed(3)} | ${bare.toFixed(3)} |`,
    );
  }
}
