/**
 * A loopback OpenAI-compatible server (test/support/loopback-server.ts) in its own process, so that on a
 * 2-core machine the server and the client under test do not share one event loop.
 *
 *   node --import tsx scripts/perf/loopback-child.ts <medianMs> <sigma> <seed>
 *
 * Listens on 127.0.0.1 only; prints one JSON line {"baseURL": …} when ready; exits when stdin closes.
 * Every answer is one fixed short text: the client still renders, sends, parses and grades a full trial.
 */
import { startLoopbackServer } from '../../test/support/loopback-server.js';

const [medianMs, sigma, seed] = process.argv.slice(2).map(Number);
if (![medianMs, sigma, seed].every(Number.isFinite)) {
  console.error('usage: loopback-child.ts <medianMs> <sigma> <seed>');
  process.exit(2);
}
const server = await startLoopbackServer({
  answer: () => ({ text: 'Final answer: 0' }),
  latency: { medianMs, sigma, seed },
});
process.stdout.write(`${JSON.stringify({ baseURL: server.baseURL })}\n`);
process.stdin.resume();
process.stdin.on('end', async () => {
  await server.close();
  process.exit(0);
});
