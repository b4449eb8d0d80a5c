import { PyRandom } from '../../src/rng/index.js';
import { normalCdf } from '../../src/stats/index.js';

/**
 * The loopback server's latency draws, replicated: request k (in arrival order) waits the k-th value of
 * min(10·median, median·exp(σ·Z)), Z by Box–Muller from PyRandom(seed) (test/support/loopback-server.ts).
 */
export function serverLatencies(count: number, medianMs: number, sigma: number, seed: number): number[] {
  const rng = new PyRandom(seed);
  return Array.from({ length: count }, () => {
    const u1 = 1 - rng.random();
    const z = Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * rng.random());
    return Math.min(10 * medianMs, medianMs * Math.exp(sigma * z));
  });
}

/** E[min(c·m, m·e^{σZ})] for Z ~ N(0, 1): the exact mean of the server's capped lognormal. */
export function cappedLognormalMean(medianMs: number, sigma: number, capFactor = 10): number {
  const k = Math.log(capFactor) / sigma;
  return medianMs * Math.exp((sigma * sigma) / 2) * normalCdf(k - sigma) + capFactor * medianMs * (1 - normalCdf(k));
}

/**
 * The makespan of a client with no overhead at all: `concurrency` slots, request k sent the moment a slot frees
 * (in order), waiting the k-th draw. Its rate ÷ the limit is the most a whole run of these draws can reach: the
 * limit (concurrency ÷ mean latency) assumes every slot busy throughout, but a finite run drains: its last
 * requests run while the other slots sit idle.
 */
export function idealPoolMakespan(draws: readonly number[], concurrency: number): number {
  const slots = new Array<number>(concurrency).fill(0);
  let end = 0;
  for (const latency of draws) {
    let first = 0;
    for (let s = 1; s < slots.length; s++) if (slots[s] < slots[first]) first = s;
    slots[first] += latency;
    end = Math.max(end, slots[first]);
  }
  return end;
}
