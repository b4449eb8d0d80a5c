import { APIError } from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { resolveEndpoint } from '../../src/subjects/openai/endpoint.js';
import {
  createChatClient,
  learnFromRejection,
  RequestTimeoutError,
  sendChatCompletion,
  TRIAL_HEADER,
} from '../../src/subjects/openai/request.js';
import { learnedAdaptation } from '../../src/subjects/openai/request-body.js';
import { RunStop, redact } from '../../src/subjects/openai/run-stop.js';
import {
  type Fault,
  type LoopbackRequest,
  type LoopbackServer,
  startLoopbackServer,
} from '../support/loopback-server.js';
import { SENTINEL_API_KEY } from '../support/openai-harness.js';

let server: LoopbackServer;
let seen: LoopbackRequest[] = [];
let fault: Fault | undefined;
beforeAll(async () => {
  server = await startLoopbackServer({
    answer: (request) => {
      seen.push(request);
      return { text: 'ANSWER: 4', finishReason: 'length', reasoningContent: 'two and two' };
    },
    fault: () => fault,
  });
});
afterAll(() => server.close());
beforeEach(() => {
  seen = [];
  fault = undefined;
});

const client = () =>
  createChatClient(resolveEndpoint({ baseURL: server.baseURL, apiKey: SENTINEL_API_KEY }), { 'x-extra': 'e' }, 10_000);
const chat = {
  model: 'm',
  messages: [{ role: 'user' as const, content: 'add' }],
  params: { temperature: 0, max_tokens: 32 },
  timeoutMs: 5_000,
};

describe('one chat-completion request', () => {
  it('sends model, messages and parameters as the body, the trial key and extra headers, and normalises the answer', async () => {
    const completion = await sendChatCompletion(client(), { ...chat, trialKey: 'k-1' });
    expect(completion).toEqual({
      text: 'ANSWER: 4',
      reasoning: 'two and two',
      finishReason: 'length',
      usage: { promptTokens: 1, completionTokens: 3 },
      servedModel: 'm',
    });
    expect(seen).toHaveLength(1);
    expect(seen[0].body).toEqual({ model: 'm', messages: chat.messages, temperature: 0, max_tokens: 32 });
    expect(seen[0].headers[TRIAL_HEADER]).toBe('k-1');
    expect(seen[0].headers['x-extra']).toBe('e');
    expect(seen[0].authorization).toBe(`Bearer ${SENTINEL_API_KEY}`);
    await sendChatCompletion(client(), chat);
    expect(seen[1].headers[TRIAL_HEADER]).toBeUndefined();
  });

  it('makes exactly one request: the SDK does not retry (our retry loop does)', async () => {
    fault = { kind: 'status', status: 503 };
    await expect(sendChatCompletion(client(), chat)).rejects.toBeInstanceOf(APIError);
    expect(server.log.filter((r) => r.outcome === 'status')).toHaveLength(1);
  });

  it('times out a hanging request after its timeout', async () => {
    fault = { kind: 'hang' };
    await expect(sendChatCompletion(client(), { ...chat, timeoutMs: 50 })).rejects.toBeInstanceOf(RequestTimeoutError);
  });

  it('times out a body that trickles past the timeout after the headers came (the SDK timeout stops at headers)', async () => {
    fault = { kind: 'trickle', pieces: 10, intervalMs: 40 };
    await expect(sendChatCompletion(client(), { ...chat, timeoutMs: 150 })).rejects.toBeInstanceOf(RequestTimeoutError);
  });

  it("a caller's abort stays an abort, not a timeout", async () => {
    fault = { kind: 'trickle', pieces: 10, intervalMs: 40 };
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 60);
    const sent = sendChatCompletion(client(), { ...chat, timeoutMs: 5_000, signal: controller.signal });
    await expect(sent).rejects.not.toBeInstanceOf(RequestTimeoutError);
  });

  it('streams when asked, with include_usage, and reads the stream into the same completion', async () => {
    const completion = await sendChatCompletion(client(), { ...chat, stream: true, trialKey: 's' });
    expect(completion).toEqual({
      text: 'ANSWER: 4',
      reasoning: 'two and two',
      finishReason: 'length',
      usage: { promptTokens: 1, completionTokens: 3 },
      servedModel: 'm',
    });
    // the request sent with `trialKey` 's' (a late request of an earlier, aborted test can land in `seen` too)
    expect(seen.find((r) => r.trialKey === 's')?.body).toMatchObject({
      stream: true,
      stream_options: { include_usage: true },
    });
  });
});

describe('learning from a rejected default', () => {
  const rejection = (message: string, param?: string) =>
    APIError.generate(400, { error: { message, param, code: 'unsupported_parameter' } }, message, new Headers());

  it('learns max_completion_tokens once per endpoint+model from a 400 naming max_tokens', () => {
    const endpoint = 'http://127.0.0.1:1/learn-a';
    const sentWith = learnedAdaptation(endpoint, 'o9');
    const sent = { temperature: 0, max_tokens: 32 };
    const error = rejection("Unsupported parameter: 'max_tokens'", 'max_tokens');
    expect(learnFromRejection(error, {}, endpoint, 'o9', sentWith, sent)).toEqual(['max_completion_tokens']);
    expect(learnedAdaptation(endpoint, 'o9')).toEqual({ maxTokensParam: 'max_completion_tokens' });
    expect(learnedAdaptation(endpoint, 'other')).toEqual({});
  });

  it('leaves an explicit setting alone and ignores what is not such a rejection', () => {
    const endpoint = 'http://127.0.0.1:1/learn-b';
    const sent = { temperature: 0, max_tokens: 32 };
    const error = rejection("Unsupported parameter: 'max_tokens'", 'max_tokens');
    const none = learnedAdaptation(endpoint, 'o9');
    expect(learnFromRejection(error, { maxTokensParam: 'max_tokens' }, endpoint, 'o9', none, sent)).toBeUndefined();
    expect(learnFromRejection(new Error('x'), {}, endpoint, 'o9', none, sent)).toBeUndefined();
    const other = APIError.generate(400, { error: { message: 'bad messages' } }, 'bad messages', new Headers());
    expect(learnFromRejection(other, {}, endpoint, 'o9', none, sent)).toBeUndefined();
    expect(learnedAdaptation(endpoint, 'o9')).toEqual({});
  });
});

describe('the run stop', () => {
  const refused = APIError.generate(401, { error: { message: `bad key ${SENTINEL_API_KEY}` } }, 'x', new Headers());

  it('stops on a quota or credential refusal only, once, with the first reason, secrets redacted', () => {
    const stop = new RunStop([SENTINEL_API_KEY, 'hdr-secret']);
    stop.stopIfFatal(APIError.generate(500, { error: { message: 'x' } }, 'x', new Headers()));
    stop.stopIfFatal(APIError.generate(400, { error: { message: 'x' } }, 'x', new Headers()));
    expect(stop.stopped).toBeUndefined();
    stop.stopIfFatal(refused);
    expect(stop.stopped).toMatch(/^run stopped \(CB_PROVIDER_FATAL\): the endpoint refused the credentials/);
    expect(stop.stopped).not.toContain(SENTINEL_API_KEY);
    expect(stop.stop('later reason')).toBe(stop.stopped);
    expect(stop.redact('a hdr-secret b')).toBe('a *** b');
  });

  it('redacts secrets of at least 4 characters', () => {
    expect(redact('key sk-12345 and abc', ['sk-12345', 'abc'])).toBe('key *** and abc');
  });
});
