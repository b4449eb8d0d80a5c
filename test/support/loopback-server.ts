import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { PyRandom } from '../../src/rng/index.js';
import { serveOnLoopback } from './loopback-port.js';

/**
 * An OpenAI-compatible chat-completions server on 127.0.0.1 for tests, with fault injection.
 * Answers come from a pluggable function; faults from a pluggable schedule. Every request is logged with
 * its trial key (the `x-ceilingbench-trial` header) and output budget, so tests can count requests per
 * trial and detect repeats: a request for a (trial, budget) call that was already answered successfully.
 * A request with `stream: true` is answered as a server-sent-event stream of chunks (a final usage chunk when
 * `stream_options.include_usage` asks for one), as OpenAI streams; an optional hidden token bucket
 * (`rateLimit`) answers 429 to what it does not admit.
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
  /** The `model` the response names (default: the requested one), as a gateway that falls back answers. */
  servedModel?: string;
}

export type Fault =
  | {
      kind: 'status';
      status: number;
      retryAfter?: string;
      message?: string;
      /** Replaces the default `{error: {message, type}}` body. */
      body?: unknown;
      /** A body sent as is (a proxy's HTML page, a plain-text 404), as `text/html`; overrides `body`. */
      raw?: string;
      headers?: Record<string, string>;
    }
  /** A 200 (or `status`) answer with this exact JSON body: provider shapes (content arrays, refusals, errors in a 200). */
  | { kind: 'body'; json: unknown; status?: number }
  /**
   * A 200 server-sent-event stream, as a stream-only provider sends whatever the request asked. By default one
   * `"hi"` delta without finish_reason or usage, then `[DONE]`. With `answer`, the request's reply as chunks
   * (reasoning deltas included), its finish_reason and, unless `usage` is false, a final usage chunk. With
   * `events`, exactly these `data:` payloads (comments and blank lines as given with `raw`).
   */
  | { kind: 'sse'; answer?: boolean; usage?: boolean; events?: string[]; raw?: string }
  /**
   * The normal answer (JSON, or the event stream a streaming request gets), its bytes sent in `pieces` pieces,
   * one every `intervalMs` ms after the headers: a body that trickles in. Counted as answered only when it
   * was sent whole.
   */
  | { kind: 'trickle'; pieces: number; intervalMs: number }
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
  /**
   * A hidden token bucket in front of the endpoint (checked before `fault`): it holds at most `burst` tokens,
   * gains `perSecond` per second, and each admitted request takes one. A request that finds no token is
   * answered 429 with `x-ratelimit-reset-requests` = the time until the next token (`"25ms"`), as OpenAI does.
   * Deterministic given the arrival times; `now` (ms) defaults to performance.now.
   */
  rateLimit?: { perSecond: number; burst: number; now?: () => number };
  /**
   * A hidden concurrency cap (checked after `rateLimit`): a request that arrives while this many are being answered
   * is answered 429 at once, with no reset header (as providers' per-key concurrency limits do).
   */
  maxInFlight?: number;
}

export type LoggedOutcome = 'answered' | 'length' | Fault['kind'] | 'bad-request' | 'rate-limited';

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
  /** The request asked for a stream (`stream: true`). */
  stream?: boolean;
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

export function toRequest(body: unknown, req: IncomingMessage): LoopbackRequest | undefined {
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

/** `text` in `n` pieces of about equal length (fewer when it is shorter). */
function piecesOf(text: string, n: number): string[] {
  const size = Math.max(1, Math.ceil(text.length / Math.max(1, n)));
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

/** The reply as OpenAI streams it: a role chunk, reasoning and content deltas, the finish chunk, usage if asked. */
function streamBody(request: LoopbackRequest, reply: LoopbackReply, includeUsage: boolean): string {
  const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) =>
    JSON.stringify({
      id: 'chatcmpl-loopback',
      object: 'chat.completion.chunk',
      created: 0,
      model: request.model,
      choices,
      ...extra,
    });
  const delta = (d: Record<string, unknown>, finish: string | null = null) =>
    chunk([{ index: 0, delta: d, finish_reason: finish }]);
  const events = [delta({ role: 'assistant', content: '' })];
  for (const piece of piecesOf(reply.reasoningContent ?? '', 2)) events.push(delta({ reasoning_content: piece }));
  for (const piece of piecesOf(reply.text, 3)) events.push(delta({ content: piece }));
  events.push(delta({}, reply.finishReason ?? 'stop'));
  if (includeUsage) {
    const { promptTokens, completionTokens } = usageOf(request, reply);
    const usage: Record<string, unknown> = {
      prompt_tokens: promptTokens,
      completion_tokens: completionTokens,
      total_tokens: promptTokens + completionTokens,
    };
    if (reply.reasoningTokens !== undefined)
      usage.completion_tokens_details = { reasoning_tokens: reply.reasoningTokens };
    events.push(chunk([], { usage }));
  }
  events.push('[DONE]');
  return events.map((e) => `data: ${e}\n\n`).join('');
}

const wantsStream = (request: LoopbackRequest) => request.body.stream === true;
const wantsUsage = (request: LoopbackRequest) =>
  (request.body.stream_options as { include_usage?: unknown } | undefined)?.include_usage === true;

export function completionJson(request: LoopbackRequest, reply: LoopbackReply): string {
  const { promptTokens, completionTokens } = usageOf(request, reply);
  return JSON.stringify({
    id: 'chatcmpl-loopback',
    object: 'chat.completion',
    created: 0,
    model: reply.servedModel ?? request.model,
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
  const latencyRng = options.latency ? new PyRandom(options.latency.seed) : undefined;
  let serial = 0;
  let answering = 0;
  const bucket = options.rateLimit
    ? { tokens: options.rateLimit.burst, at: (options.rateLimit.now ?? (() => performance.now()))() }
    : undefined;

  /** Takes a token from the hidden bucket, or returns the ms until the next one. */
  const admit = (): number | undefined => {
    const limit = options.rateLimit;
    if (!limit || !bucket) return undefined;
    const now = (limit.now ?? (() => performance.now()))();
    bucket.tokens = Math.min(limit.burst, bucket.tokens + ((now - bucket.at) / 1000) * limit.perSecond);
    bucket.at = now;
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return undefined;
    }
    return Math.max(1, Math.ceil(((1 - bucket.tokens) / limit.perSecond) * 1000));
  };

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
      ...(wantsStream(request) ? { stream: true } : {}),
    };
    log.push(entry);
    const resetMs = admit();
    if (resetMs !== undefined) {
      entry.outcome = 'rate-limited';
      res.writeHead(429, { 'content-type': 'application/json', 'x-ratelimit-reset-requests': `${resetMs}ms` });
      res.end(
        JSON.stringify({
          error: { message: 'Rate limit reached for requests', type: 'requests', code: 'rate_limit_exceeded' },
        }),
      );
      return;
    }
    if (options.maxInFlight !== undefined && answering >= options.maxInFlight) {
      entry.outcome = 'rate-limited';
      res.writeHead(429, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          error: { message: 'Too many concurrent requests', type: 'requests', code: 'rate_limit_exceeded' },
        }),
      );
      return;
    }
    answering++;
    res.once('close', () => answering--);
    const fault = options.fault?.(request, { attempt, serial });
    if (fault) {
      entry.outcome = fault.kind;
      switch (fault.kind) {
        case 'status': {
          const contentType = fault.raw !== undefined ? 'text/html' : 'application/json';
          const headers: Record<string, string> = { 'content-type': contentType, ...fault.headers };
          if (fault.retryAfter !== undefined) headers['retry-after'] = fault.retryAfter;
          res.writeHead(fault.status, headers);
          if (fault.raw !== undefined) {
            res.end(fault.raw);
            return;
          }
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
        case 'sse': {
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          if (fault.raw !== undefined) {
            res.end(fault.raw);
            return;
          }
          if (fault.events !== undefined) {
            res.end(fault.events.map((e) => `data: ${e}\n\n`).join(''));
            return;
          }
          if (!fault.answer) {
            res.end('data: {"choices":[{"delta":{"content":"hi"}}]}\n\ndata: [DONE]\n\n');
            return;
          }
          const reply = options.answer(request);
          answeredCalls.add(call);
          entry.usage = usageOf(request, reply);
          res.end(streamBody(request, reply, fault.usage !== false));
          return;
        }
        case 'trickle': {
          const reply = options.answer(request);
          const streamed = wantsStream(request);
          const body = streamed ? streamBody(request, reply, wantsUsage(request)) : completionJson(request, reply);
          res.writeHead(200, { 'content-type': streamed ? 'text/event-stream' : 'application/json' });
          const pieces = piecesOf(body, fault.pieces);
          for (const [i, piece] of pieces.entries()) {
            await new Promise((resolve) => setTimeout(resolve, fault.intervalMs));
            if (res.destroyed) return; // the client gave up
            if (i < pieces.length - 1) res.write(piece);
            else res.end(piece);
          }
          answeredCalls.add(call);
          entry.usage = usageOf(request, reply);
          return;
        }
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
    if (wantsStream(request)) {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(streamBody(request, reply, wantsUsage(request)));
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(completionJson(request, reply));
  }

  const { port, close } = await serveOnLoopback(handle);

  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    log,
    requestsFor: (trialKey) => log.filter((r) => r.trialKey === trialKey).length,
    repeats: () => log.filter((r) => r.repeat).length,
    close,
  };
}
