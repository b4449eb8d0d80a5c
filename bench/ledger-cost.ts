/**
 * What the spend ledger path costs a paid trial: the real ledger server (src/spend/ledger-server.ts) and client
 * (src/spend/ledger-client.ts) over loopback, `inFlight` trials at once, each an admit (the round trip a trial
 * makes under its limiter slot, src/subjects/openai/budget-step.ts) then a settle (after its slot is released).
 * Each trial holds its slot for the admit and a request of `latency` ms (a timer: the known limit is
 * inFlight ÷ latency), then settles after its slot. Printed per level of concurrency, paired with the same trials
 * without the ledger in the same run: CPU ms per trial (user + sys of this process, which holds both ends), the
 * admit round trip (p50, p90, p99 ms of wall time: it includes this machine's load) and trials/s ÷ the known
 * limit with and without the ledger.
 *
 *   npx tsx bench/ledger-cost.ts [--trials 1500] [--levels 4,16,64] [--latency 226.6]
 */
import { parseArgs } from 'node:util';
import { createLedgerClient } from '../src/spend/ledger-client.js';
import { startLedgerServer } from '../src/spend/ledger-server.js';

const { values } = parseArgs({
  options: {
    trials: { type: 'string', default: '1500' },
    levels: { type: 'string', default: '4,16,64' },
    latency: { type: 'string', default: '226.6' },
  },
});
const TRIALS_AT_64 = Number(values.trials);
const LATENCY = Number(values.latency);
const levels = (values.levels ?? '').split(',').filter(Boolean).map(Number);

const claim = {
  floor: { calls: 1, tokens: 300, costUsd: 0.0003 },
  cap: { calls: 6, tokens: 2300, costUsd: 0.0123 },
};
const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

console.log(
  `Spend ledger over loopback, ${TRIALS_AT_64} trials at 64 in flight (as many rounds at the other levels; admit, then settle), latency ${LATENCY} ms.\n`,
);
console.log(
  '| trials in flight | CPU ms per trial | admit p50 ms | admit p90 ms | admit p99 ms | ÷ limit, ledger | ÷ limit, no ledger |',
);
console.log('|---|---|---|---|---|---|---|');
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
for (const inFlight of levels) {
  // as many rounds of the latency at every level (a row of 4 in flight would otherwise take 16× as long)
  const trials = Math.max(100, Math.round((TRIALS_AT_64 * inFlight) / 64));
  const service = await startLedgerServer({ maxCalls: 10 * trials * 6 });
  const gate = createLedgerClient(service.url);
  // warm up: connections, JIT
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      const a = await gate.admit(claim);
      if (a.admitted) await gate.settle(a.id, { calls: 1, tokens: 400, costUsd: 0.0005 });
    }),
  );
  const admits: number[] = [];
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
        await gate.settle(a.id, { calls: 1, tokens: 400, costUsd: 0.0005 });
      }
    }),
  );
  const cpu = process.cpuUsage(cpu0);
  const ratio = trials / ((performance.now() - t0) / 1000) / ((inFlight * 1000) / LATENCY);
  await service.close();
  const bare = await control(inFlight, trials);
  admits.sort((a, b) => a - b);
  const p50 = quantile(admits, 0.5);
  console.log(
    `| ${inFlight} | ${((cpu.user + cpu.system) / 1000 / trials).toFixed(3)} | ${p50.toFixed(2)} | ${quantile(admits, 0.9).toFixed(2)} | ${quantile(admits, 0.99).toFixed(2)} | ${ratio.toFixed(3)} | ${bare.toFixed(3)} |`,
  );
}
