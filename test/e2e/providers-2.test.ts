import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Report } from '../../src/schema/report.js';
import { CLI_BIN, promptOf, promptsOf, readReport, spawnBench } from '../reliability/support/bench-run.js';
import {
  type Fault,
  type LoopbackOptions,
  type LoopbackReply,
  type LoopbackServer,
  startLoopbackServer,
} from '../support/loopback-server.js';

/**
 * `ceilingbench run --project d2 --subject openai:loop-model --trials 2` against loopback servers that answer D2
 * exactly but wait, load, refuse or are not there as real providers do (docs/providers.md "Retries and stops"):
 * a wait the provider asks for is honoured by the endpoint's trials together (one probe, then the rest), so a
 * healthy model ends with 0 `api`; a run that cannot succeed stops once with one line and exit 3. The waits are
 * short real ones here (1 s, 1.5 s); test/subjects/endpoint-gate.test.ts checks 40 s and 45 s in virtual time.
 */
const TRIALS = 2;
const CELLS = 10;
const prompts = promptsOf('d2', TRIALS);

const exact = (request: Parameters<LoopbackOptions['answer']>[0]): LoopbackReply => {
  const known = promptOf(request, prompts);
  if (!known) throw new Error('loopback: a prompt that is not one of the run’s D2 cells');
  return { text: known.task.canonicalResponse(known.instance) };
};

const servers = new Set<LoopbackServer>();
afterAll(async () => {
  await Promise.all([...servers].map((s) => s.close()));
});

async function serve(fault: LoopbackOptions['fault']): Promise<LoopbackServer> {
  const server = await startLoopbackServer({ answer: exact, fault });
  servers.add(server);
  return server;
}

async function runAgainst(server: LoopbackServer, env: Record<string, string> = {}, baseURL = server.baseURL) {
  const outDir = mkdtempSync(join(tmpdir(), 'cb-provider2-'));
  const bench = spawnBench(
    [CLI_BIN, 'run', '--project', 'd2', '--subject', 'openai:loop-model', '--trials', String(TRIALS), '--out', outDir],
    {
      OPENAI_BASE_URL: baseURL,
      OPENAI_API_KEY: 'sk-loopback-secret',
      CEILINGBENCH_CACHE_DIR: mkdtempSync(join(tmpdir(), 'cb-provider2-cache-')),
      ...env,
    },
  );
  const { code } = await bench.done;
  const output = bench.stdout() + bench.stderr();
  // a configuration error stops before any report
  const report = existsSync(join(outDir, 'ceilingbench.json')) ? readReport(outDir) : undefined;
  return { code, report: report as Report, output, reported: report !== undefined };
}

const trialsOf = (report: Report) => report.cells.flatMap((c) => c.trials);
const kinds = (report: Report) => {
  const tally: Record<string, number> = {};
  for (const t of trialsOf(report)) tally[t.outcome.kind] = (tally[t.outcome.kind] ?? 0) + 1;
  return tally;
};
const requestsPerTrial = (server: LoopbackServer) => {
  const counts = new Map<string, number>();
  for (const r of server.log) counts.set(r.trialKey, (counts.get(r.trialKey) ?? 0) + 1);
  return [...counts.values()];
};
/** Lines of the output that carry the stop message. */
const stopLines = (output: string) => output.split('\n').filter((l) => l.includes('run stopped (CB_PROVIDER_FATAL)'));

/** A fault for `ms` after the server's first request, then none. */
function during(ms: number, fault: (left: number) => Fault): LoopbackOptions['fault'] {
  let start: number | undefined;
  return () => {
    start ??= performance.now();
    const left = start + ms - performance.now();
    return left > 0 ? fault(left) : undefined;
  };
}

describe.concurrent('waits, loads and runs that cannot succeed, through `ceilingbench run`', {
  timeout: 400_000,
}, () => {
  it('Gemini’s 429 as a JSON list with RetryInfo.retryDelay: honoured, ≤ 2 requests per trial, 0 api', async () => {
    const server = await serve(
      during(1_000, (left) => ({
        kind: 'status',
        status: 429,
        body: [
          {
            error: {
              code: 429,
              message: 'You exceeded your current quota, please check your plan and billing details.',
              status: 'RESOURCE_EXHAUSTED',
              details: [
                { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: `${(left / 1000).toFixed(3)}s` },
              ],
            },
          },
        ],
      })),
    );
    const run = await runAgainst(server);
    expect(run.code, run.output).toBe(0);
    expect(kinds(run.report)).toEqual({ correct: CELLS * TRIALS });
    expect(Math.max(...requestsPerTrial(server))).toBeLessThanOrEqual(2);
  });

  it('a server answering 503 "Loading model" for 1.5 s: every trial correct, 0 api', async () => {
    const server = await serve(
      during(1_500, () => ({
        kind: 'status',
        status: 503,
        body: { error: { code: 503, message: 'Loading model', type: 'unavailable_error' } },
      })),
    );
    const run = await runAgainst(server);
    expect(run.code, run.output).toBe(0);
    expect(kinds(run.report)).toEqual({ correct: CELLS * TRIALS });
    expect(Math.max(...requestsPerTrial(server))).toBeLessThanOrEqual(2);
  });

  it('Retry-After: 3600 stops the run once with the provider’s reason: exit 3, report written', async () => {
    const server = await serve(() => ({
      kind: 'status',
      status: 429,
      retryAfter: '3600',
      body: { error: { message: 'Requests per day limit reached', type: 'requests', code: 'rate_limit_exceeded' } },
    }));
    const run = await runAgainst(server, { CEILINGBENCH_CONCURRENCY: '2' });
    expect(run.code, run.output).toBe(3);
    expect(server.log.length).toBeLessThanOrEqual(2);
    const [line, ...more] = stopLines(run.output);
    expect(more, run.output).toEqual([]);
    expect(line).toMatch(/asks to wait 3600 s, longer than the retry budget .*Requests per day limit reached/);
    expect(line).toMatch(/rerun later/);
    // missing data, never a model failure; the report is there for the rerun to resume from the cache
    expect(run.reported).toBe(true);
    expect(kinds(run.report)).toEqual({ api: CELLS * TRIALS });
  });

  it('404 model_not_found: one line naming the model problem, exit 3, at most `concurrency` requests', async () => {
    const server = await serve(() => ({
      kind: 'status',
      status: 404,
      body: {
        error: {
          message: 'The model `loop-model` does not exist or you do not have access to it.',
          type: 'invalid_request_error',
          code: 'model_not_found',
        },
      },
    }));
    const run = await runAgainst(server, { CEILINGBENCH_CONCURRENCY: '2' });
    expect(run.code, run.output).toBe(3);
    expect(server.log.length).toBeLessThanOrEqual(2);
    const [line, ...more] = stopLines(run.output);
    expect(more, run.output).toEqual([]);
    expect(line).toMatch(/model not found: .*`loop-model` does not exist/);
  });

  it('a base URL without /v1 (every request 404): one line with the hint, exit 3', async () => {
    // a FastAPI server (vLLM) answers an unknown path with {"detail": "Not Found"}
    const server = await serve(() => ({ kind: 'status', status: 404, body: { detail: 'Not Found' } }));
    const run = await runAgainst(server, { CEILINGBENCH_CONCURRENCY: '2' });
    expect(run.code, run.output).toBe(3);
    const [line, ...more] = stopLines(run.output);
    expect(more, run.output).toEqual([]);
    expect(line).toMatch(
      /no chat completions at this URL: HTTP 404: 404 Not Found — check OPENAI_BASE_URL: it usually ends in \/v1/,
    );
  });

  it('a proxy’s HTML error page: api (missing data), the page’s text in the issue and on the console', async () => {
    const page =
      '<!DOCTYPE html><html><head><title>400 Bad Request</title><style>h1{color:red}</style></head><body>' +
      '<center><h1>400 Bad Request</h1></center><p>Request Header Or Cookie Too Large</p><hr><center>nginx</center>' +
      '</body></html>';
    const server = await serve(() => ({ kind: 'status', status: 400, raw: page }));
    const run = await runAgainst(server);
    expect(kinds(run.report)).toEqual({ api: CELLS * TRIALS });
    expect(server.log).toHaveLength(CELLS * TRIALS); // a 400 is not retried
    const issue = trialsOf(run.report)[0]?.outcome.issues[0];
    expect(issue).toBe('HTTP 400: 400 400 Bad Request 400 Bad Request Request Header Or Cookie Too Large nginx');
    expect(run.output).toContain(`first API failure: ${issue}`);
  });

  it('an invalid header name in CEILINGBENCH_HEADERS is a configuration error before any request: exit 2', async () => {
    const server = await serve(() => undefined);
    const run = await runAgainst(server, { CEILINGBENCH_HEADERS: JSON.stringify({ 'X Title': 'mine' }) });
    expect(run.code, run.output).toBe(2);
    expect(run.output).toMatch(/'X Title' is not a valid header name/);
    expect(server.log).toHaveLength(0);
    expect(run.reported).toBe(false);
  });
});
