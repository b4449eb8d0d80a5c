import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOpenAiSubject } from '../../src/subjects/openai/openai-subject.js';
import { listenOnFreshPort } from '../support/loopback-port.js';
import { FAST_RETRY, stepsRequest } from '../support/openai-harness.js';

/**
 * Scenario 4, error messages (RELIABILITY.md): an endpoint or proxy that echoes the request's
 * Authorization header in its error body (some gateways do; OpenAI's 401 quotes part of the key) must not
 * carry the key into the trial's error string — which becomes the `api` outcome's issue in
 * ceilingbench.json, JUnit and the HTML report.
 * (Found leaking while this suite was written; fixed in the subject by commit 9972207, which redacts the key.)
 */

const KEY = 'sk-echo-SENTINEL-5b1d2e77';
let server: Server;
let baseURL: string;
let status = 500;
/** How the body echoes the Authorization header: as sent, lower-cased, or JSON-escaped (`sk\u002decho…`). */
let echo: (auth: string) => string = (auth) => auth;

beforeAll(async () => {
  server = createServer((req, res) => {
    res.writeHead(status, { 'content-type': 'application/json', 'retry-after': '0.001' });
    const sent = echo(req.headers.authorization ?? '');
    res.end(`{"error":{"message":"rejected; you sent authorization=${sent}"}}`);
  });
  baseURL = `http://127.0.0.1:${await listenOnFreshPort(server)}/v1`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function errorFor(code: number): Promise<string> {
  status = code;
  const subject = createOpenAiSubject({
    model: 'echo-model',
    baseURL,
    apiKey: KEY,
    retry: FAST_RETRY,
    limiter: { concurrency: 1 },
  });
  const response = await subject.answer(stepsRequest(3, 1, 0));
  expect(response.kind).toBe('error');
  return response.kind === 'error' ? response.error : '';
}

describe('an endpoint that echoes the key in its error body', () => {
  it('the error names the status and the provider message (so the redaction test below is meaningful)', async () => {
    const error = await errorFor(401);
    expect(error).toMatch(/HTTP 401: .*rejected; you sent authorization=Bearer /);
  });

  it('a retried 500 does not carry the key into the trial error', async () => {
    const error = await errorFor(500);
    expect(error).toMatch(/HTTP 500: .*authorization=Bearer \*\*\*/);
    expect(error).not.toContain(KEY);
  });

  it('a fatal 401 does not carry the key into the trial error', async () => {
    expect(await errorFor(401)).not.toContain(KEY);
  });
});

describe('an endpoint that echoes the key in another case or escaping (issue 42 item 6)', () => {
  it.each([
    ['lower-cased', (auth: string) => auth.toLowerCase()],
    // escaped twice in the body, so the provider's message (the body parsed) still reads `sk\u002decho…`
    ['JSON-escaped', (auth: string) => auth.replace(/-/g, '\\\\u002d')],
    ['cut to its first 12 characters', (auth: string) => `${auth.slice(0, 7 + 12)}…`],
  ])('%s: not in the trial error', async (_, how) => {
    echo = how;
    try {
      const error = await errorFor(500);
      expect(error).toMatch(/HTTP 500: .*authorization=Bearer \*\*\*/i);
      expect(error.toLowerCase()).not.toContain('sentinel');
      expect(error.toLowerCase()).not.toContain(KEY.slice(0, 8).toLowerCase());
    } finally {
      echo = (auth) => auth;
    }
  });
});
