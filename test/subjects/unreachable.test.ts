import { createServer } from 'node:http';
import { APIConnectionError } from 'openai';
import { describe, expect, it } from 'vitest';
import { RateLimiter } from '../../src/subjects/limiter.js';
import { createOpenAiSubject } from '../../src/subjects/openai/openai-subject.js';
import { unreachableReason } from '../../src/subjects/openai/unreachable.js';
import { listenOnFreshPort } from '../support/loopback-port.js';
import { stepsRequest } from '../support/openai-harness.js';
import { fakeClock } from './fake-clock.js';

// Issue 42 item 7: a wrong OPENAI_BASE_URL (nothing listening, a host that does not resolve) stopped the run only
// after the whole outage budget of backoff (272 s of silence); it now stops at the first refusal, naming the URL
// without credentials and what to check. An endpoint that has answered is retried as before.

/** A loopback port with nothing listening on it (a server started and closed). */
async function closedPort(): Promise<number> {
  const server = createServer();
  const port = await listenOnFreshPort(server);
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('an endpoint that cannot be reached', () => {
  it('a refused connection stops the subject at once (no backoff), naming the URL and what to check', async () => {
    const port = await closedPort();
    const clock = fakeClock();
    const subject = createOpenAiSubject({
      model: 'm',
      baseURL: `http://127.0.0.1:${port}/v1?api-version=secret-ish`,
      apiKey: 'sk-unreachable-0123456789',
      clock,
      limiter: new RateLimiter({ concurrency: 2 }),
    });
    const first = await subject.answer(stepsRequest(3, 1, 0));
    expect(first.kind).toBe('error');
    if (first.kind !== 'error') return;
    expect(first.stopsRun).toBe(true);
    expect(first.error).toContain(`cannot reach http://127.0.0.1:${port}/v1: connection refused (ECONNREFUSED)`);
    expect(first.error).toMatch(/check OPENAI_BASE_URL .* and that the server is running/);
    expect(first.error).not.toContain('secret-ish');
    expect(first.error).not.toContain('sk-unreachable');
    // no backoff was waited for: the stop is at the first refusal, not after the outage budget
    expect(clock.sleeps.reduce((a, b) => a + b, 0)).toBeLessThan(5_000);
    // later trials fail at once with the same stop, sending nothing
    const second = await subject.answer(stepsRequest(3, 1, 1));
    expect(second).toMatchObject({ kind: 'error', stopsRun: true, attempts: 0 });
  });

  it.each([
    ['ENOTFOUND', /the host name does not resolve \(ENOTFOUND\)/],
    ['EAI_AGAIN', /the host name could not be resolved \(EAI_AGAIN\)/],
    ['DEPTH_ZERO_SELF_SIGNED_CERT', /the TLS handshake failed .* http:\/\/ for a local server without TLS/],
  ])('%s (as fetch wraps it under the SDK error) is told apart from an outage', (code, said) => {
    const system = Object.assign(new Error(`${code} something`), { code });
    const error = new APIConnectionError({ cause: Object.assign(new TypeError('fetch failed'), { cause: system }) });
    const why = unreachableReason(error);
    expect(`${why?.what} — ${why?.hint}`).toMatch(said);
  });

  it('a reset, a timeout or an HTTP status is no such error (they are retried)', () => {
    const reset = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
    expect(unreachableReason(new APIConnectionError({ cause: reset }))).toBeUndefined();
    expect(unreachableReason(new Error('ECONNREFUSED'))).toBeUndefined();
  });
});
