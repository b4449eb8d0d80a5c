import type { IncomingMessage, ServerResponse } from 'node:http';
import { PyRandom } from '../../src/rng/index.js';
import { serveOnLoopback } from './loopback-port.js';
import { completionJson, type LoopbackReply, type LoopbackRequest, toRequest } from './loopback-server.js';

/**
 * An OpenAI-compatible batch server on 127.0.0.1 for tests: `POST /v1/files` (multipart, purpose=batch),
 * `GET /v1/files/:id/content`, `POST /v1/batches`, `GET /v1/batches[/:id]`, `POST /v1/batches/:id/cancel`.
 * Each request line of an input file is answered as the loopback chat server answers it (the same `answer`
 * function, the same completion body, the line's `custom_id` as the trial key the live server reads from its
 * header), so a batched run and a live run of one answerer see the same answers. With delays (a batch completes
 * `completeAfterMs` after it was created), request failures (error-file lines with a status and body), expiry (the
 * first `answered` requests answered, the rest `batch_expired`), cancellation, and output lines in a seeded order
 * that is not the input's. Requests to `/chat/completions` are answered live, as the loopback chat server answers
 * them (so a live run and a batched run can share one endpoint, and so one cache key), and counted apart, so a test
 * can assert that a batched run sent none. The server stops itself after `lifetimeMs` (default 10 minutes) if the test did not.
 */

export interface BatchFailure {
  status: number;
  message: string;
}

export interface BatchServerOptions {
  answer: (request: LoopbackRequest) => LoopbackReply;
  /** A batch is `in_progress` until this long after its creation, then done (default 0: at the first look). */
  completeAfterMs?: number;
  /** A request line that fails: it goes to the error file with this status and message. */
  fail?: (request: LoopbackRequest, customId: string) => BatchFailure | undefined;
  /** The n-th batch created (1-based) expires with only its first `answered` requests answered. */
  expire?: (serial: number) => { answered: number } | undefined;
  /** Seed of the output lines' order (default 1). */
  shuffleSeed?: number;
  /** The provider's per-file limits (default OpenAI's: 50 000 requests, 200 MB). */
  maxRequestsPerFile?: number;
  maxFileBytes?: number;
  lifetimeMs?: number;
}

interface StoredFile {
  id: string;
  purpose: string;
  filename: string;
  content: string;
}

interface StoredBatch {
  id: string;
  serial: number;
  inputFileId: string;
  createdAt: number;
  metadata: Record<string, string> | null;
  status: 'validating' | 'failed' | 'in_progress' | 'completed' | 'expired' | 'cancelling' | 'cancelled';
  lines: { customId: string; body: Record<string, unknown> }[];
  outputFileId: string | null;
  errorFileId: string | null;
  counts: { total: number; completed: number; failed: number };
  errors: { code: string; message: string }[] | null;
}

export interface BatchServer {
  /** Base URL for the SDK, ending in /v1. */
  readonly baseURL: string;
  /** Every custom_id of every created batch, in submission order (a repeat = a request submitted twice). */
  readonly submitted: string[];
  /** Batches created, with their request counts. */
  readonly batches: { id: string; requests: number }[];
  /** Requests to the chat-completions endpoint (answered live). */
  chatCompletions(): number;
  /** Every HTTP request as `METHOD /path`. */
  readonly log: string[];
  close(): Promise<void>;
}

const OUT_OF_WINDOW = 'This request could not be executed before the completion window expired.';
const CANCELLED = 'This request was not executed because the batch was cancelled.';

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};

const notFound = (res: ServerResponse, what: string) =>
  json(res, 404, { error: { message: `No such ${what}`, type: 'invalid_request_error' } });

export async function startBatchServer(options: BatchServerOptions): Promise<BatchServer> {
  const files = new Map<string, StoredFile>();
  const batches = new Map<string, StoredBatch>();
  const submitted: string[] = [];
  const created: { id: string; requests: number }[] = [];
  const log: string[] = [];
  let chat = 0;
  let serial = 0;
  let fileSerial = 0;
  const maxRequests = options.maxRequestsPerFile ?? 50_000;
  const maxBytes = options.maxFileBytes ?? 200 * 1024 * 1024;

  const addFile = (purpose: string, filename: string, content: string): StoredFile => {
    const file = { id: `file-${++fileSerial}`, purpose, filename, content };
    files.set(file.id, file);
    return file;
  };

  /** A request line's answer (an output line) or failure (an error line). */
  const run = (line: StoredBatch['lines'][number]): { ok: boolean; text: string } => {
    const request = toRequest(line.body, {
      headers: { 'x-ceilingbench-trial': line.customId },
      url: '/v1/chat/completions',
    } as unknown as IncomingMessage);
    const id = `batch_req_${line.customId.slice(0, 12)}`;
    if (!request) {
      const body = { error: { message: 'not a chat completion request', type: 'invalid_request_error' } };
      return {
        ok: false,
        text: JSON.stringify({ id, custom_id: line.customId, response: { status_code: 400, body }, error: null }),
      };
    }
    const failure = options.fail?.(request, line.customId);
    if (failure) {
      const body = { error: { message: failure.message, type: 'server_error' } };
      const response = { status_code: failure.status, request_id: id, body };
      return { ok: false, text: JSON.stringify({ id, custom_id: line.customId, response, error: null }) };
    }
    const body = JSON.parse(completionJson(request, options.answer(request))) as unknown;
    return {
      ok: true,
      text: JSON.stringify({
        id,
        custom_id: line.customId,
        response: { status_code: 200, request_id: id, body },
        error: null,
      }),
    };
  };

  /** Ends a batch: its output and error files; `answerFirst` requests answered, the rest failed with `why`. */
  const finish = (batch: StoredBatch, status: StoredBatch['status'], answerFirst: number, why?: [string, string]) => {
    const outputs: string[] = [];
    const errors: string[] = [];
    for (const [i, line] of batch.lines.entries()) {
      if (i >= answerFirst && why) {
        const error = { code: why[0], message: why[1] };
        errors.push(JSON.stringify({ id: `batch_req_${i}`, custom_id: line.customId, response: null, error }));
        continue;
      }
      const done = run(line);
      (done.ok ? outputs : errors).push(done.text);
    }
    // out of order, as a provider's output file is
    const rng = new PyRandom(`batch-server|${options.shuffleSeed ?? 1}|${batch.id}`);
    for (let i = outputs.length - 1; i > 0; i--) {
      const j = Math.floor(rng.random() * (i + 1));
      [outputs[i], outputs[j]] = [outputs[j] as string, outputs[i] as string];
    }
    batch.status = status;
    batch.counts = { total: batch.lines.length, completed: outputs.length, failed: errors.length };
    if (outputs.length > 0) batch.outputFileId = addFile('batch_output', 'output.jsonl', `${outputs.join('\n')}\n`).id;
    if (errors.length > 0) batch.errorFileId = addFile('batch_output', 'errors.jsonl', `${errors.join('\n')}\n`).id;
  };

  /** The batch as of now: one past its delay is done (completed, or expired when told to). */
  const advance = (batch: StoredBatch) => {
    if (batch.status !== 'in_progress') return;
    if (Date.now() - batch.createdAt < (options.completeAfterMs ?? 0)) return;
    const expiry = options.expire?.(batch.serial);
    if (expiry) finish(batch, 'expired', expiry.answered, ['batch_expired', OUT_OF_WINDOW]);
    else finish(batch, 'completed', batch.lines.length);
  };

  const batchJson = (batch: StoredBatch) => ({
    id: batch.id,
    object: 'batch',
    endpoint: '/v1/chat/completions',
    errors: batch.errors ? { object: 'list', data: batch.errors } : null,
    input_file_id: batch.inputFileId,
    completion_window: '24h',
    status: batch.status,
    output_file_id: batch.outputFileId,
    error_file_id: batch.errorFileId,
    created_at: Math.floor(batch.createdAt / 1000),
    in_progress_at: null,
    expires_at: Math.floor(batch.createdAt / 1000) + 86_400,
    request_counts: batch.counts,
    metadata: batch.metadata,
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '').split('?')[0] ?? '';
    log.push(`${req.method} ${path}`);
    const body = await readBody(req);
    if (path.endsWith('/chat/completions')) {
      chat++;
      // answered live as the loopback chat server answers (a live run against the same endpoint), and counted
      const request = toRequest(JSON.parse(body.toString('utf8') || 'null'), req);
      if (!request) return json(res, 400, { error: { message: 'not a chat completion request' } });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(completionJson(request, options.answer(request)));
      return;
    }
    if (req.method === 'POST' && path === '/v1/files') {
      const form = await new Request('http://loopback/v1/files', {
        method: 'POST',
        headers: { 'content-type': req.headers['content-type'] ?? '' },
        body,
      }).formData();
      const purpose = form.get('purpose');
      const file = form.get('file');
      if (purpose !== 'batch' || !(file instanceof Blob))
        return json(res, 400, {
          error: { message: 'expected purpose=batch and a file', type: 'invalid_request_error' },
        });
      if (file.size > maxBytes)
        return json(res, 400, { error: { message: `file exceeds ${maxBytes} bytes`, type: 'invalid_request_error' } });
      const stored = addFile('batch', (file as File).name ?? 'input.jsonl', await file.text());
      return json(res, 200, {
        id: stored.id,
        object: 'file',
        bytes: file.size,
        created_at: Math.floor(Date.now() / 1000),
        filename: stored.filename,
        purpose: 'batch',
        status: 'processed',
      });
    }
    const content = /^\/v1\/files\/([^/]+)\/content$/.exec(path);
    if (req.method === 'GET' && content) {
      const file = files.get(content[1] as string);
      if (!file) return notFound(res, 'file');
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      res.end(file.content);
      return;
    }
    if (req.method === 'POST' && path === '/v1/batches') {
      const params = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
      const input = files.get(String(params.input_file_id));
      if (!input) return notFound(res, 'file');
      if (params.endpoint !== '/v1/chat/completions' || params.completion_window !== '24h')
        return json(res, 400, { error: { message: 'unsupported endpoint or window', type: 'invalid_request_error' } });
      const lines = input.content
        .split('\n')
        .filter((l) => l.trim() !== '')
        .map((l) => JSON.parse(l) as { custom_id: string; method: string; url: string; body: Record<string, unknown> });
      const batch: StoredBatch = {
        id: `batch_${++serial}`,
        serial,
        inputFileId: input.id,
        createdAt: Date.now(),
        metadata: (params.metadata as Record<string, string> | undefined) ?? null,
        status: 'in_progress',
        lines: lines.map((l) => ({ customId: l.custom_id, body: l.body })),
        outputFileId: null,
        errorFileId: null,
        counts: { total: lines.length, completed: 0, failed: 0 },
        errors: null,
      };
      const ids = new Set(lines.map((l) => l.custom_id));
      const invalid =
        lines.length > maxRequests
          ? `the file has ${lines.length} requests, over the limit of ${maxRequests}`
          : ids.size !== lines.length
            ? 'custom_id values must be unique within a file'
            : lines.some((l) => l.method !== 'POST' || l.url !== '/v1/chat/completions')
              ? 'every line must be POST /v1/chat/completions'
              : undefined;
      if (invalid) {
        batch.status = 'failed';
        batch.errors = [{ code: 'invalid_file', message: invalid }];
      } else {
        submitted.push(...lines.map((l) => l.custom_id));
        created.push({ id: batch.id, requests: lines.length });
      }
      batches.set(batch.id, batch);
      return json(res, 200, batchJson(batch));
    }
    if (req.method === 'GET' && path === '/v1/batches') {
      for (const batch of batches.values()) advance(batch);
      const data = [...batches.values()].reverse().map(batchJson);
      return json(res, 200, {
        object: 'list',
        data,
        first_id: data[0]?.id ?? null,
        last_id: data.at(-1)?.id ?? null,
        has_more: false,
      });
    }
    const one = /^\/v1\/batches\/([^/]+)(\/cancel)?$/.exec(path);
    if (one) {
      const batch = batches.get(one[1] as string);
      if (!batch) return notFound(res, 'batch');
      if (one[2] && req.method === 'POST') {
        if (batch.status === 'in_progress') finish(batch, 'cancelled', 0, ['batch_cancelled', CANCELLED]);
        return json(res, 200, batchJson(batch));
      }
      advance(batch);
      return json(res, 200, batchJson(batch));
    }
    return notFound(res, `route ${req.method} ${path}`);
  }

  const served = await serveOnLoopback(handle);
  const close = () => {
    clearTimeout(lifetime);
    return served.close();
  };
  // bounded: a test that forgets to close it does not keep the process alive, nor the port open for long
  const lifetime = setTimeout(() => void close(), options.lifetimeMs ?? 600_000);
  lifetime.unref();

  return {
    baseURL: `http://127.0.0.1:${served.port}/v1`,
    submitted,
    batches: created,
    chatCompletions: () => chat,
    log,
    close,
  };
}
