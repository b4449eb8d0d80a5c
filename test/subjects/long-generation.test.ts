import { createServer, type Server } from 'node:http';
import { APIConnectionError } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveEndpoint } from '../../src/subjects/openai/endpoint.js';
import { createChatClient, sendChatCompletion } from '../../src/subjects/openai/request.js';
import { listenOnFreshPort } from '../support/loopback-port.js';

/**
 * A generation longer than the HTTP stack's own timeouts: the server sends its headers only after HEADERS_AFTER_MS
 * and its body in two halves BODY_GAP_MS apart (a non-streamed answer that takes long to start and to finish).
 * Undici's defaults (300 s for headers and for the gap between body chunks) are emulated at a small scale by a
 * transport timeout below the delays: the one timeout setting must govern them, whatever the SDK's timeout says.
 */
const HEADERS_AFTER_MS = 2_500;
const BODY_GAP_MS = 1_500;
const body = JSON.stringify({
  choices: [{ message: { content: 'ANSWER: 4' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 5, completion_tokens: 2 },
});

let server: Server;
let baseURL: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write(body.slice(0, 20));
        setTimeout(() => res.end(body.slice(20)), BODY_GAP_MS);
      }, HEADERS_AFTER_MS);
    });
  });
  baseURL = `http://127.0.0.1:${await listenOnFreshPort(server)}/v1`;
});
afterAll(
  () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
);

const chat = (timeoutMs: number) => ({
  model: 'm',
  messages: [{ role: 'user' as const, content: 'add' }],
  params: { max_tokens: 8 },
  timeoutMs,
});
const client = (transportTimeoutMs: number) =>
  createChatClient(resolveEndpoint({ baseURL, apiKey: 'sk-test' }), undefined, transportTimeoutMs);

describe('one timeout setting governs connect, headers and body', () => {
  it('a transport timeout shorter than the wait for headers cuts the request (undici’s 300 s default, in small)', async () => {
    // transport limit = 100 ms + the 1 s backstop < 2.5 s to the headers (a margin a loaded machine keeps); our own
    // request timeout (20 s) never fires
    const error = await sendChatCompletion(client(100), chat(20_000)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionError);
  });

  it('with the setting above the waits, the slow headers and the slow body both arrive: the answer is read', async () => {
    const completion = await sendChatCompletion(client(20_000), chat(20_000));
    expect(completion.text).toBe('ANSWER: 4');
    expect(completion.usage).toEqual({ promptTokens: 5, completionTokens: 2 });
  });
});
