import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Report } from '../../src/schema/report.js';
import { costOf } from '../../src/spend/price.js';
import { CLI_BIN, promptOf, promptsOf, readReport, spawnBench } from '../reliability/support/bench-run.js';
import {
  type Fault,
  type LoopbackOptions,
  type LoopbackReply,
  type LoopbackServer,
  startLoopbackServer,
} from '../support/loopback-server.js';

/**
 * `ceilingbench run --project d2 --subject openai:<model> --trials 2`, as a new user runs it, against a loopback
 * server that answers D2 exactly but behaves like one provider. Any trial that is not correct is the provider's
 * doing, so each case checks that ceilingbench grades it as docs/providers.md says: provider faults are `api`
 * (missing data), a refusal is the model's non-answer, and nothing is retried that cannot change.
 */
const TRIALS = 2;
const CELLS = 10;
const prompts = promptsOf('d2', TRIALS);

/** The exact D2 answer for the request's prompt. */
const canonical = (request: Parameters<LoopbackOptions['answer']>[0]): string => {
  const known = promptOf(request, prompts);
  if (!known) throw new Error('loopback: a prompt that is not one of the run’s D2 cells');
  return known.task.canonicalResponse(known.instance);
};
const exact = (request: Parameters<LoopbackOptions['answer']>[0]): LoopbackReply => ({ text: canonical(request) });

// each case closes its own server (the cases run concurrently: every one is a child process waiting on I/O)
const servers = new Set<LoopbackServer>();
afterAll(async () => {
  await Promise.all([...servers].map((s) => s.close()));
});

interface Run {
  code: number | null;
  report: Report;
  output: string;
  outDir: string;
  server: LoopbackServer;
}

async function runAgainst(
  server: LoopbackServer,
  env: Record<string, string> = {},
  options: { cacheDir?: string; baseURL?: string } = {},
): Promise<Run> {
  const outDir = mkdtempSync(join(tmpdir(), 'cb-provider-'));
  const bench = spawnBench(
    [CLI_BIN, 'run', '--project', 'd2', '--subject', 'openai:loop-model', '--trials', String(TRIALS), '--out', outDir],
    {
      OPENAI_BASE_URL: options.baseURL ?? server.baseURL,
      OPENAI_API_KEY: 'sk-loopback-secret',
      CEILINGBENCH_CACHE_DIR: options.cacheDir ?? mkdtempSync(join(tmpdir(), 'cb-provider-cache-')),
      ...env,
    },
  );
  const { code } = await bench.done;
  return { code, report: readReport(outDir), output: bench.stdout() + bench.stderr(), outDir, server };
}

async function serve(options: LoopbackOptions): Promise<LoopbackServer> {
  const server = await startLoopbackServer(options);
  servers.add(server);
  return server;
}

const trialsOf = (report: Report) => report.cells.flatMap((c) => c.trials);
const kinds = (report: Report) => {
  const tally: Record<string, number> = {};
  for (const t of trialsOf(report)) tally[t.outcome.kind] = (tally[t.outcome.kind] ?? 0) + 1;
  return tally;
};
const answered = (server: LoopbackServer) => server.log.filter((r) => r.usage !== undefined);

/** USD per million tokens for the loopback model, in a configuration file of its own (CEILINGBENCH_CONFIG). */
const LOOP_PRICE = { input: 0.15, output: 0.6, reasoning: 1.2 };
function priceConfig(): string {
  const path = join(mkdtempSync(join(tmpdir(), 'cb-provider-config-')), 'ceilingbench.config.mjs');
  writeFileSync(path, `export default ${JSON.stringify({ prices: { 'openai:loop-model': LOOP_PRICE } })};\n`);
  return path;
}

/** Every file under a folder, read as text (for "the secret is nowhere"). */
const textsUnder = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? textsUnder(path) : [readFileSync(path, 'utf8')];
  });

const rejection = (param: string, code: string, message: string): Fault => ({
  kind: 'status',
  status: 400,
  body: { error: { message, type: 'invalid_request_error', param, code } },
});

// each case is a whole `ceilingbench run` (Vitest start-up included), several at once on a loaded CI machine
describe.concurrent('real provider shapes through `ceilingbench run`, no configuration beyond the README', {
  timeout: 400_000,
}, () => {
  it('o-series: learns max_completion_tokens and no temperature from the 400s; every trial correct', async () => {
    const server = await serve({
      answer: exact,
      fault: (request) => {
        if (request.body.max_tokens !== undefined) {
          return rejection(
            'max_tokens',
            'unsupported_parameter',
            "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
          );
        }
        if (request.body.temperature !== undefined) {
          return rejection(
            'temperature',
            'unsupported_value',
            "Unsupported value: 'temperature' does not support 0 with this model. Only the default (1) value is supported.",
          );
        }
        return undefined;
      },
    });
    const run = await runAgainst(server);
    expect(run.code, run.output).toBe(0);
    expect(kinds(run.report)).toEqual({ correct: CELLS * TRIALS });
    expect(answered(server)).toHaveLength(CELLS * TRIALS);
    // learned once per process: at most two rejected requests per trial already in flight when the first came back
    expect(server.log.length - CELLS * TRIALS).toBeLessThanOrEqual(2 * CELLS * TRIALS);
    expect(answered(server).every((r) => r.outcome === 'answered')).toBe(true);
  });

  it('inline <think> cut off inside the block is Truncation, never correct; closed blocks are set aside', async () => {
    const cut = new Set<string>();
    const server = await serve({
      answer: (request) => {
        const text = canonical(request);
        // every other trial runs out of budget while still thinking (its draft even contains the right answer)
        if (request.trialKey.charCodeAt(request.trialKey.length - 1) % 2 === 1) {
          cut.add(request.trialKey);
          return { text: `<think>\nLet me work it out.\n${text}\nwait, let me check again`, finishReason: 'length' };
        }
        return { text: `<think>\nLet me work it out.\n${text}\n</think>\n${text}` };
      },
    });
    const run = await runAgainst(server);
    const tally = kinds(run.report);
    expect(cut.size).toBeGreaterThan(0);
    expect(tally).toEqual({ correct: CELLS * TRIALS - cut.size, truncation: cut.size });
    for (const t of trialsOf(run.report)) {
      if (t.outcome.kind === 'truncation') expect(t.outcome.kStar, 'k* is not read from a draft').toBe(-1);
    }
  });

  it("finish_reason 'error' (an upstream failure) is api — missing data — not a format failure", async () => {
    const server = await serve({
      answer: exact,
      fault: () => ({
        kind: 'body',
        json: {
          id: 'gen-1',
          model: 'loop-model',
          choices: [{ index: 0, message: { role: 'assistant', content: '' }, finish_reason: 'error' }],
        },
      }),
    });
    // every trial retries with backoff before it gives up: all 20 in flight at once keep the run short
    const run = await runAgainst(server, { CEILINGBENCH_CONCURRENCY: '20' });
    expect(kinds(run.report)).toEqual({ api: CELLS * TRIALS });
    expect(run.report.fits[0]?.status).toBe('insufficient');
    expect(run.code).toBe(1); // cells with too much missing data fail; the model is not blamed
  });

  it('content as an array of parts is read once, not retried', async () => {
    const server = await serve({
      answer: exact,
      fault: (request) => ({
        kind: 'body',
        json: {
          id: 'cmpl-parts',
          model: 'loop-model',
          choices: [
            {
              index: 0,
              message: { role: 'assistant', content: [{ type: 'text', text: canonical(request) }] },
              finish_reason: 'stop',
            },
          ],
          usage: { prompt_tokens: 10, completion_tokens: 20, total_tokens: 30 },
        },
      }),
    });
    const run = await runAgainst(server);
    expect(run.code, run.output).toBe(0);
    expect(kinds(run.report)).toEqual({ correct: CELLS * TRIALS });
    expect(server.log).toHaveLength(CELLS * TRIALS);
  });

  it('a refusal is the model’s non-answer: never correct, flagged, not retried; an all-refusal fit is insufficient', async () => {
    const server = await serve({
      answer: exact,
      fault: () => ({
        kind: 'body',
        json: {
          id: 'cmpl-refusal',
          model: 'loop-model',
          choices: [
            {
              index: 0,
              message: { role: 'assistant', content: null, refusal: 'I can’t help with that.' },
              finish_reason: 'stop',
            },
          ],
          usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
        },
      }),
    });
    const run = await runAgainst(server);
    expect(kinds(run.report)).toEqual({ format: CELLS * TRIALS });
    expect(trialsOf(run.report).every((t) => t.refusal?.text === 'I can’t help with that.')).toBe(true);
    expect(server.log).toHaveLength(CELLS * TRIALS);
    const [fit] = run.report.fits;
    expect(fit?.status).toBe('insufficient');
    expect(fit?.refusalRate).toBe(1);
    expect(readFileSync(join(run.outDir, 'summary.md'), 'utf8')).toMatch(/\| API \| refusal \| rule \|/);
  });

  it('429 insufficient_quota stops the run after at most `concurrency` requests, exit 3, one clear message', async () => {
    const server = await serve({
      answer: exact,
      fault: () => ({
        kind: 'status',
        status: 429,
        body: {
          error: {
            message: 'You exceeded your current quota.',
            type: 'insufficient_quota',
            code: 'insufficient_quota',
          },
        },
      }),
    });
    const run = await runAgainst(server, { CEILINGBENCH_CONCURRENCY: '2' });
    expect(run.code, run.output).toBe(3);
    expect(server.log.length).toBeLessThanOrEqual(2);
    expect(run.output).toMatch(/run stopped \(CB_PROVIDER_FATAL\): .*quota/);
    expect(kinds(run.report)).toEqual({ api: CELLS * TRIALS });
  });

  it('x-ratelimit-reset-requests is honoured: a rate-limited start ends with every trial correct', async () => {
    const server = await serve({
      answer: exact,
      fault: (_request, { serial }) =>
        serial <= 4
          ? {
              kind: 'status',
              status: 429,
              headers: { 'x-ratelimit-reset-requests': '300ms' },
              message: 'Rate limit reached for requests',
            }
          : undefined,
    });
    const run = await runAgainst(server);
    expect(run.code, run.output).toBe(0);
    expect(kinds(run.report)).toEqual({ correct: CELLS * TRIALS });
    expect(server.log).toHaveLength(CELLS * TRIALS + 4);
  });

  it('Azure: api-version and the api-key header reach the server; the key is written nowhere', async () => {
    const key = 'azure-key-0123456789';
    const server = await serve({
      answer: exact,
      fault: (request) =>
        request.headers['api-key'] === key && request.url.includes('api-version=2024-10-21')
          ? undefined
          : { kind: 'status', status: 401, message: 'Access denied due to invalid subscription key.' },
    });
    const baseURL = `${server.baseURL.replace(/\/v1$/, '')}/openai/deployments/dep?api-version=2024-10-21`;
    const cacheDir = mkdtempSync(join(tmpdir(), 'cb-provider-cache-'));
    const run = await runAgainst(
      server,
      // the page too: every file of the report set is searched for the key
      { CEILINGBENCH_HEADERS: JSON.stringify({ 'api-key': key }), CEILINGBENCH_HTML: 'true' },
      { baseURL, cacheDir },
    );
    expect(run.code, run.output).toBe(0);
    expect(kinds(run.report)).toEqual({ correct: CELLS * TRIALS });
    for (const text of [run.output, ...textsUnder(run.outDir), ...textsUnder(cacheDir)]) {
      expect(text).not.toContain(key);
      expect(text).not.toContain('sk-loopback-secret');
    }
  });

  it('a stream-only endpoint (an event stream even to a plain request) is read: every trial correct', async () => {
    const server = await serve({ answer: exact, fault: () => ({ kind: 'sse', answer: true, usage: true }) });
    const run = await runAgainst(server);
    expect(run.code, run.output).toBe(0);
    expect(kinds(run.report)).toEqual({ correct: CELLS * TRIALS });
    expect(server.log).toHaveLength(CELLS * TRIALS);
  });

  it('token totals equal the server’s usage sums, retried trials included; a cached rerun with CEILINGBENCH_SEED=0 sends nothing', async () => {
    const server = await serve({
      // each answer reports 3 reasoning tokens inside its completion tokens
      answer: (request) => ({ ...exact(request), reasoningTokens: 3 }),
      fault: (_request, { attempt }) => (attempt === 1 ? { kind: 'status', status: 503, retryAfter: '0' } : undefined),
    });
    const cacheDir = mkdtempSync(join(tmpdir(), 'cb-provider-cache-'));
    const env = { CEILINGBENCH_SEED: '0', CEILINGBENCH_CONFIG: priceConfig() };
    const first = await runAgainst(server, env, { cacheDir });
    expect(first.code, first.output).toBe(0);
    const served = answered(server);
    const sum = (pick: (c: Report['cells'][number]) => number) => first.report.cells.reduce((a, c) => a + pick(c), 0);
    const prompt = served.reduce((a, r) => a + (r.usage?.promptTokens ?? 0), 0);
    const completion = served.reduce((a, r) => a + (r.usage?.completionTokens ?? 0), 0);
    expect(sum((c) => c.tokens.prompt)).toBe(prompt);
    expect(sum((c) => c.tokens.completion)).toBe(completion);
    // the accounts: every request the server saw (the 503s included) and every token it reported, paid this run
    const paid = first.report.spend;
    const cost = costOf({ prompt, cachedPrompt: 0, completion, reasoning: 3 * served.length }, LOOP_PRICE);
    expect(paid).toMatchObject({
      currency: 'USD',
      priced: true,
      total: {
        calls: server.log.length,
        paid: { trials: CELLS * TRIALS, prompt, cachedPrompt: 0, completion, reasoning: 3 * served.length },
        fromCache: { trials: 0, prompt: 0, completion: 0, savedUsd: 0 },
        unknownUsage: 0,
      },
    });
    expect(paid?.total.paid.costUsd).toBeCloseTo(cost, 12);
    expect(paid?.projects.map((p) => p.project)).toEqual(['d2']);
    expect(paid?.cells).toHaveLength(CELLS);
    expect(readFileSync(join(first.outDir, 'summary.md'), 'utf8')).toContain('## Spend');
    expect(readFileSync(join(first.outDir, 'junit.xml'), 'utf8')).toContain(
      `<property name="spend_calls" value="${server.log.length}"/>`,
    );
    const before = server.log.length;
    const again = await runAgainst(server, env, { cacheDir });
    expect(again.code, again.output).toBe(0);
    expect(server.log.length - before).toBe(0);
    expect(kinds(again.report)).toEqual({ correct: CELLS * TRIALS });
    // a fully cached rerun paid nothing: every trial and token from the cache, and the same cost "saved"
    const cached = again.report.spend;
    expect(cached?.total).toMatchObject({
      calls: 0,
      paid: { trials: 0, prompt: 0, cachedPrompt: 0, completion: 0, reasoning: 0, costUsd: 0 },
      fromCache: { trials: CELLS * TRIALS, prompt, completion, reasoning: 3 * served.length },
    });
    expect(cached?.total.fromCache.savedUsd).toBeCloseTo(cost, 12);
    expect(cached?.total.fromCache.savedUsd).toBe(paid?.total.paid.costUsd);
  });
});
