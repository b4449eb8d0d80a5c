/**
 * An OpenAI-compatible chat-completions server on 127.0.0.1 behind ONE hidden limit, in its own process (so the
 * client under test and the server do not share an event loop), for bench/throughput-limits.ts:
 *
 *   cap      at most `n` requests being answered; one more is answered 429 at once
 *   rpm      a request bucket: `rate` requests/s, `burst` tokens; a request finding no token is answered 429
 *   tpm      a token bucket: `rate` tokens/s, `burst` tokens; a request is charged its prompt tokens (counted with
 *            the model's tokenizer) plus its max_tokens, as OpenAI charges admission; 429 when the bucket lacks them
 *   queue    no refusal: `n` requests are served at a time, the rest wait in a FIFO queue (a local server:
 *            transformers serve, llama.cpp, Ollama, LM Studio)
 *
 * `headers` says what a 429 (and an answer) carries: `none`; `retry-after` (integer seconds until the limit
 * admits the request again, rounded up, as RFC 9110 and most providers send it); `openai` (every response carries
 * `x-ratelimit-limit-*`, `x-ratelimit-remaining-*`, `x-ratelimit-reset-*`, the reset in ms units as OpenAI sends
 * it). Answered requests take a seeded lognormal latency (median `median` ms, σ `sigma`, capped at 10× the median).
 *
 *   node --import tsx bench/hidden-limit-server.ts '<json options>'
 *
 * Prints one JSON line {"baseURL"} when ready. Bounded and self-stopping: when stdin closes, or `lifetimeS` seconds
 * after start, it prints one JSON line with its log (per request: arrival, service start and end in ms since
 * start, outcome, charge; absolute ms) and exits.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PyRandom } from '../src/rng/index.js';
import { countChatTokens } from '../src/spend/tokenizer.js';

export interface HiddenLimit {
  kind: 'cap' | 'rpm' | 'tpm' | 'queue';
  /** cap/queue: requests at once. */
  n?: number;
  /** rpm: requests/s; tpm: tokens/s. */
  rate?: number;
  /** rpm: requests; tpm: tokens. */
  burst?: number;
}

export interface ServerOptions {
  limit: HiddenLimit;
  headers: 'none' | 'retry-after' | 'openai';
  median: number;
  sigma: number;
  seed: number;
  lifetimeS: number;
}

export interface ServedRequest {
  /** absolute ms (performance.timeOrigin + performance.now()) */
  arrived: number;
  started?: number;
  ended?: number;
  outcome: 'answered' | 'rate-limited' | 'aborted';
  /** tpm: the tokens the request was charged. */
  charge: number;
}

const options = JSON.parse(process.argv[2] ?? '{}') as ServerOptions;
/** Absolute ms (the client's clock reads the same: performance.timeOrigin + performance.now()). */
const now = () => performance.timeOrigin + performance.now();
const rng = new PyRandom(options.seed);
const log: ServedRequest[] = [];

const latency = (): number => {
  const u1 = 1 - rng.random();
  const z = Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * rng.random());
  return Math.min(10 * options.median, options.median * Math.exp(options.sigma * z));
};

const limit = options.limit;
let answering = 0;
const bucket = { level: limit.burst ?? 0, at: now() };
const refill = () => {
  const t = now();
  bucket.level = Math.min(limit.burst ?? 0, bucket.level + ((t - bucket.at) / 1000) * (limit.rate ?? 0));
  bucket.at = t;
};
/** ms until the bucket holds `charge`. */
const untilMs = (charge: number) => Math.max(1, Math.ceil(((charge - bucket.level) / (limit.rate ?? 1)) * 1000));
const queue: Array<() => void> = [];

/** The x-ratelimit-* headers of the bucket (OpenAI's: the limit per minute, what remains, when it is full again). */
function rateHeaders(): Record<string, string> {
  if (options.headers !== 'openai' || (limit.kind !== 'rpm' && limit.kind !== 'tpm')) return {};
  refill();
  const kind = limit.kind === 'rpm' ? 'requests' : 'tokens';
  const full = Math.ceil((((limit.burst ?? 0) - bucket.level) / (limit.rate ?? 1)) * 1000);
  return {
    [`x-ratelimit-limit-${kind}`]: String(Math.round((limit.rate ?? 0) * 60)),
    [`x-ratelimit-remaining-${kind}`]: String(Math.max(0, Math.floor(bucket.level))),
    [`x-ratelimit-reset-${kind}`]: `${Math.max(0, full)}ms`,
  };
}

function refuse(res: ServerResponse, entry: ServedRequest, waitMs: number | undefined): void {
  entry.outcome = 'rate-limited';
  const headers: Record<string, string> = { 'content-type': 'application/json', ...rateHeaders() };
  if (options.headers === 'retry-after' && waitMs !== undefined)
    headers['retry-after'] = String(Math.ceil(waitMs / 1000));
  if (options.headers === 'openai' && waitMs !== undefined) {
    headers[`x-ratelimit-reset-${limit.kind === 'tpm' ? 'tokens' : 'requests'}`] = `${waitMs}ms`;
  }
  res.writeHead(429, headers);
  res.end(JSON.stringify({ error: { message: 'Rate limit reached', type: 'requests', code: 'rate_limit_exceeded' } }));
}

async function answer(res: ServerResponse, entry: ServedRequest, promptTokens: number): Promise<void> {
  entry.started = now();
  answering++;
  let closed = false;
  res.once('close', () => {
    if (!closed) entry.outcome = 'aborted';
    closed = true;
  });
  await new Promise((resolve) => setTimeout(resolve, latency()));
  answering--;
  entry.ended = now();
  queue.shift()?.();
  if (closed) return;
  closed = true;
  entry.outcome = 'answered';
  const text = 'The count is 0.\nFinal answer: 0';
  res.writeHead(200, { 'content-type': 'application/json', ...rateHeaders() });
  res.end(
    JSON.stringify({
      id: 'chatcmpl-bench',
      object: 'chat.completion',
      created: 0,
      model: 'bench',
      choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
      usage: { prompt_tokens: promptTokens, completion_tokens: 12, total_tokens: promptTokens + 12 },
    }),
  );
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const body = JSON.parse(await readBody(req)) as {
    messages: { role: string; content: string }[];
    max_tokens?: number;
    max_completion_tokens?: number;
  };
  const promptTokens = countChatTokens(body.messages, 'gpt-4o');
  const charge = limit.kind === 'tpm' ? promptTokens + (body.max_completion_tokens ?? body.max_tokens ?? 0) : 1;
  const entry: ServedRequest = { arrived: now(), outcome: 'answered', charge };
  log.push(entry);
  if (limit.kind === 'cap') {
    if (answering >= (limit.n ?? 1)) return refuse(res, entry, undefined);
  } else if (limit.kind === 'rpm' || limit.kind === 'tpm') {
    refill();
    if (bucket.level < charge) return refuse(res, entry, untilMs(charge));
    bucket.level -= charge;
  } else if (answering >= (limit.n ?? 1) || queue.length > 0) {
    await new Promise<void>((resolve) => queue.push(resolve));
  }
  await answer(res, entry, promptTokens);
}

const server = createServer((req, res) => {
  handle(req, res).catch((error: unknown) => {
    if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { message: String(error) } }));
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  process.stdout.write(`${JSON.stringify({ baseURL: `http://127.0.0.1:${port}/v1` })}\n`);
});

let done = false;
function finish(): void {
  if (done) return;
  done = true;
  process.stdout.write(`${JSON.stringify({ log, end: now() })}\n`, () => process.exit(0));
  server.closeAllConnections();
  server.close();
}
process.stdin.resume();
process.stdin.on('end', finish);
setTimeout(finish, options.lifetimeS * 1000).unref();
