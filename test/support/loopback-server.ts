import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { PyRandom } from '../../src/rng/index.js';

/**
 * An OpenAI-compatible chat-completions server on 127.0.0.1 for tests, with fault injection.
 * Answers come from a pluggable function; faults from a pluggable schedule. Every request is logged with
 * its trial key (the `x-ceilingbench-trial` header) and output budget, so tests can count requests per
 * trial and detect repeats: a request for a (trial, budget) call that was already answered successfully.
 */

export interface LoopbackRequest {
  model: string;
  messages: { role: string; content: string }[];
  /** `max_tokens` or `max_completion_tokens`, whichever was sent. */
  maxTokens: number | undefined;
  maxTokensField: 'max_tokens' | 'max_completion_tokens' | undefined;
  temperature: number | undefined;
  seed: number | undefined;
  reasoningEffort: string | undefined;
  trialKey: string;
  authorization: string | undefined;
  /** Every request header, as received. */
  headers: IncomingHttpHeaders;
  /** The parsed request body, as received. */
  body: Record<string, unknown>;
  /** The request path with its query, as received (`/v1/chat/completions?api-version=…`). */
  url: string;
}

export interface LoopbackReply {
  text: string;
  finishReason?: 'stop' | 'length';
  reasoningTokens?: number;
  /** Sent as `message.reasoning_content`, DeepSeek's separate reasoning channel. */
  reasoningContent?: string;
}

export type Fault =
  | {
      kind: 'status';
      status: number;
      retryAfter?: string;
      message?: string;
      /** Replaces the default `{error: {message, type}}` body. */
      body?: unknown;
      headers?: Record<string, string>;
    }
  /** A 200 (or `status`) answer with this exact JSON body: provider shapes (content arrays, refusals, errors in a 200). */
  | { kind: 'body'; json: unknown; status?: number }
  /** A 200 server-sent-event stream, as a stream-only provider sends. */
  | { kind: 'sse' }
  | { kind: 'malformed-json' }
  | { kind: 'text-body' }
  | { kind: 'drop' }
  | { kind: 'hang' };

export interface FaultContext {
  /** 1-based index of this request among the requests for the same (trial, budget) call. */
  attempt: number;
  /** 1-based index of this request over the server's lifetime. */
  serial: number;
}

export interface LoopbackOptions {
  answer: (request: LoopbackRequest) => LoopbackReply;
  fault?: (request: LoopbackRequest, context: FaultContext) => Fault | undefined;
  /** Seeded lognormal latency per answered request: median·exp(sigma·Z), capped at 10× the median. */
  latency?: { medianMs: number; sigma: number; seed: number };
}

export type LoggedOutcome = 'answered' | 'length' | Fault['kind'] | 'bad-request';

export interface LoggedRequest {
  trialKey: string;
  /** The body's `model` ('(invalid)' for a request that is not a chat completion). */
  model: string;
  maxTokens: number | undefined;
  outcome: LoggedOutcome;
  /** True when this (trial, budget) call had already been answered successfully. */
  repeat: boolean;
  /** The `usage` the server reported in its answer (answered requests only). */
  usage?: { promptTokens: number; completionTokens: number };
}

export interface LoopbackServer {
  /** Base URL for the SDK, ending in /v1. */
  readonly baseURL: string;
  readonly log: LoggedRequest[];
  requestsFor(trialKey: string): number;
  /** Requests for calls that had already been answered successfully. */
  repeats(): number;
  close(): Promise<void>;
}

const callKey = (trialKey: string, maxTokens: number | undefined) => `${trialKey}@${maxTokens ?? '-'}`;

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function toRequest(body: unknown, req: IncomingMessage): LoopbackRequest | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const b = body as Record<string, unknown>;
  if (typeof b.model !== 'string' || !Array.isArray(b.messages)) return undefined;
  const maxTokensField =
    typeof b.max_tokens === 'number'
      ? 'max_tokens'
      : typeof b.max_completion_tokens === 'number'
        ? 'max_completion_tokens'
        : undefined;
  const header = req.headers['x-ceilingbench-trial'];
  return {
    model: b.model,
    messages: b.messages as LoopbackRequest['messages'],
    maxTokens: maxTokensField ? (b[maxTokensField] as number) : undefined,
    maxTokensField,
    temperature: typeof b.temperature === 'number' ? b.temperature : undefined,
    seed: typeof b.seed === 'number' ? b.seed : undefined,
    reasoningEffort: typeof b.reasoning_effort === 'string' ? b.reasoning_effort : undefined,
    trialKey: typeof header === 'string' ? header : '(none)',
    authorization: req.headers.authorization,
    headers: req.headers,
    body: b,
    url: req.url ?? '',
  };
}

function usageOf(request: LoopbackRequest, reply: LoopbackReply) {
  const promptChars = request.messages.reduce((sum, m) => sum + m.content.length, 0);
  return { promptTokens: Math.ceil(promptChars / 4), completionTokens: Math.ceil(reply.text.length / 4) };
}

function completionJson(request: LoopbackRequest, reply: LoopbackReply): string {
  const { promptTokens, completionTokens } = usageOf(request, reply);
  return JSON.stringify({
    id: 'chatcmpl-loopback',
    object: 'chat.completion',
    created: 0,
    model: request.model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: reply.text,
          ...(reply.reasoningContent !== undefined ? { reasoning_content: reply.reasoningContent } : {}),
        },
        finish_reason: reply.finishReason ?? 'stop',
      },
    ],
    usage: {
      prompt_tokens: promptTokens,
      completion_tokens: completionTokens,
      total_tokens: promptTokens + completionTokens,
      ...(reply.reasoningTokens !== undefined
        ? { completion_tokens_details: { reasoning_tokens: reply.reasoningTokens } }
        : {}),
    },
  });
}

export async function startLoopbackServer(options: LoopbackOptions): Promise<LoopbackServer> {
  const log: LoggedRequest[] = [];
  const attemptsByCall = new Map<string, number>();
  const answeredCalls = new Set<string>();
  const sockets = new Set<Socket>();
  const latencyRng = options.latency ? new PyRandom(options.latency.seed) : undefined;
  let serial = 0;

  const latencyMs = (): number => {
    if (!options.latency || !latencyRng) return 0;
    const { medianMs, sigma } = options.latency;
    const u1 = 1 - latencyRng.random(); // (0, 1]
    const z = Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * latencyRng.random());
    return Math.min(10 * medianMs, medianMs * Math.exp(sigma * z));
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const text = await readBody(req);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    const request =
      req.method === 'POST' && (req.url ?? '').split('?')[0]?.endsWith('/chat/completions')
        ? toRequest(parsed, req)
        : undefined;
    if (!request) {
      log.push({
        trialKey: '(invalid)',
        model: '(invalid)',
        maxTokens: undefined,
        outcome: 'bad-request',
        repeat: false,
      });
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'not a chat completion request' } }));
      return;
    }
    const call = callKey(request.trialKey, request.maxTokens);
    const attempt = (attemptsByCall.get(call) ?? 0) + 1;
    attemptsByCall.set(call, attempt);
    serial++;
    const entry: LoggedRequest = {
      trialKey: request.trialKey,
      model: request.model,
      maxTokens: request.maxTokens,
      outcome: 'answered',
      repeat: answeredCalls.has(call),
    };
    log.push(entry);
    const fault = options.fault?.(request, { attempt, serial });
    if (fault) {
      entry.outcome = fault.kind;
      switch (fault.kind) {
        case 'status': {
          const headers: Record<string, string> = { 'content-type': 'application/json', ...fault.headers };
          if (fault.retryAfter !== undefined) headers['retry-after'] = fault.retryAfter;
          res.writeHead(fault.status, headers);
          res.end(
            JSON.stringify(
              fault.body ?? { error: { message: fault.message ?? `injected ${fault.status}`, type: 'injected' } },
            ),
          );
          return;
        }
        case 'body':
          res.writeHead(fault.status ?? 200, { 'content-type': 'application/json' });
          res.end(JSON.stringify(fault.json));
          return;
        case 'sse':
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          res.end('data: {"choices":[{"delta":{"content":"hi"}}]}\n\ndata: [DONE]\n\n');
          return;
        case 'malformed-json':
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end('{"choices": [{"message": {"content": "trunc');
          return;
        case 'text-body':
          res.writeHead(200, { 'content-type': 'text/plain' });
          res.end('upstream proxy error');
          return;
        case 'drop':
          req.socket.destroy();
          return;
        case 'hang':
          return; // never answered; the client's timeout (or close()) ends it
      }
    }
    const reply = options.answer(request);
    const delay = latencyMs();
    if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
    if (reply.finishReason === 'length') entry.outcome = 'length';
    answeredCalls.add(call);
    entry.usage = usageOf(request, reply);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(completionJson(request, reply));
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: String(error) } }));
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    log,
    requestsFor: (trialKey) => log.filter((r) => r.trialKey === trialKey).length,
    repeats: () => log.filter((r) => r.repeat).length,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
