/**
 * The loopback server (test/support/loopback-server.ts) behind a hidden token bucket or a hidden concurrency cap,
 * in its own process, so
 * that the client under test and the server do not share one event loop (a 429 storm costs CPU on both sides).
 *
 *   node --import tsx bench/rate-limit-server.ts <perSecond> <burst> <medianMs> <sigma> <seed> [<maxInFlight>]
 *
 * perSecond 0: no bucket; maxInFlight (default 0: none) answers 429 to a request beyond that many being answered.
 *
 * Listens on 127.0.0.1 only; prints one JSON line {"baseURL": …} when ready. When stdin closes it prints one
 * JSON line of counts, {"requests", "rateLimited", "answered"}, and exits.
 */
import { startLoopbackServer } from '../test/support/loopback-server.js';

const [perSecond, burst, medianMs, sigma, seed, maxInFlight = 0] = process.argv.slice(2).map(Number);
if (![perSecond, burst, medianMs, sigma, seed, maxInFlight].every(Number.isFinite)) {
  console.error('usage: rate-limit-server.ts <perSecond> <burst> <medianMs> <sigma> <seed> [<maxInFlight>]');
  process.exit(2);
}
const server = await startLoopbackServer({
  answer: () => ({ text: 'Final answer: 0' }),
  latency: { medianMs, sigma, seed },
  ...(perSecond > 0 ? { rateLimit: { perSecond, burst } } : {}),
  ...(maxInFlight > 0 ? { maxInFlight } : {}),
});
process.stdout.write(`${JSON.stringify({ baseURL: server.baseURL })}\n`);
process.stdin.resume();
process.stdin.on('end', async () => {
  const counts = {
    requests: server.log.length,
    rateLimited: server.log.filter((r) => r.outcome === 'rate-limited').length,
    answered: server.log.filter((r) => r.outcome === 'answered').length,
  };
  process.stdout.write(`${JSON.stringify(counts)}\n`);
  await server.close();
  process.exit(0);
});
