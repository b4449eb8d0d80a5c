// A minimal OpenAI-compatible batch endpoint on 127.0.0.1 for the consumer smoke test (scripts/consumer-smoke.mjs):
// `POST /v1/files` (multipart), `GET /v1/files/:id/content`, `POST /v1/batches`, `GET /v1/batches[/:id]`. Every
// batch completes at its first look; each request line is answered with a fixed D2-shaped answer (the smoke test
// checks the route, not the grade). Chat completions are refused and counted, so the smoke test can check that a
// `run --batch` sent none. It stops itself after five minutes. The full server with delays, failures, expiry and
// out-of-order output is test/support/batch-server.ts.
import { createServer } from 'node:http';

export async function startBatchLoopback() {
  const files = new Map();
  const batches = new Map();
  let serial = 0;
  let chat = 0;
  const json = (res, status, body) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const answerLine = (line) => ({
    id: `req_${line.custom_id.slice(0, 8)}`,
    custom_id: line.custom_id,
    response: {
      status_code: 200,
      body: {
        id: 'chatcmpl-batch',
        object: 'chat.completion',
        model: line.body.model,
        choices: [{ index: 0, message: { role: 'assistant', content: 'ANSWER: 0' }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 10, completion_tokens: 3, total_tokens: 13 },
      },
    },
    error: null,
  });
  const batchJson = (b) => ({
    id: b.id,
    object: 'batch',
    endpoint: '/v1/chat/completions',
    input_file_id: b.input,
    completion_window: '24h',
    status: 'completed',
    output_file_id: b.output,
    error_file_id: null,
    created_at: b.created,
    completed_at: b.created,
    request_counts: { total: b.total, completed: b.total, failed: 0 },
    metadata: null,
  });
  const server = createServer(async (req, res) => {
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const body = Buffer.concat(chunks);
    const path = (req.url ?? '').split('?')[0];
    if (path.endsWith('/chat/completions')) {
      chat++;
      return json(res, 400, { error: { message: 'batches only' } });
    }
    if (req.method === 'POST' && path === '/v1/files') {
      const form = await new Request('http://loopback/', {
        method: 'POST',
        headers: { 'content-type': req.headers['content-type'] ?? '' },
        body,
      }).formData();
      const id = `file-${files.size + 1}`;
      files.set(id, await form.get('file').text());
      return json(res, 200, { id, object: 'file', purpose: 'batch', bytes: 0, created_at: 0, filename: 'in.jsonl' });
    }
    const content = /^\/v1\/files\/([^/]+)\/content$/.exec(path);
    if (content && files.has(content[1])) {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      return res.end(files.get(content[1]));
    }
    if (req.method === 'POST' && path === '/v1/batches') {
      const params = JSON.parse(body.toString('utf8'));
      const lines = (files.get(params.input_file_id) ?? '').split('\n').filter((l) => l.trim() !== '');
      const output = `file-${files.size + 1}`;
      files.set(output, `${lines.map((l) => JSON.stringify(answerLine(JSON.parse(l)))).join('\n')}\n`);
      const batch = { id: `batch_${++serial}`, input: params.input_file_id, output, total: lines.length, created: 0 };
      batches.set(batch.id, batch);
      return json(res, 200, batchJson(batch));
    }
    if (req.method === 'GET' && path === '/v1/batches')
      return json(res, 200, { object: 'list', data: [...batches.values()].map(batchJson), has_more: false });
    const one = /^\/v1\/batches\/([^/]+)$/.exec(path);
    if (one && batches.has(one[1])) return json(res, 200, batchJson(batches.get(one[1])));
    return json(res, 404, { error: { message: `no route ${req.method} ${path}` } });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  setTimeout(close, 300_000).unref();
  return {
    baseURL: `http://127.0.0.1:${server.address().port}/v1`,
    batches: () => batches.size,
    chatCompletions: () => chat,
    close,
  };
}
