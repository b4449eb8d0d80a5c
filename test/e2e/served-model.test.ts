import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  CLI_BIN,
  promptOf,
  promptsOf,
  readReport,
  simulatedModel,
  spawnBench,
} from '../reliability/support/bench-run.js';
import { type LoopbackServer, startLoopbackServer } from '../support/loopback-server.js';

/**
 * Issue 42 item 2: an endpoint answering with another model than the one asked for (a gateway falling back, an
 * alias moved) is said on the console and in summary.md, and the servedModel gate ('prefix' by default in a gated
 * project) fails on a fallback while a dated snapshot of the requested model passes.
 */
const TRIALS = 2;
const prompts = promptsOf('d2', TRIALS);
const servers: LoopbackServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

/** `ceilingbench run --project d2` against a server whose every third answer names `other` as the served model. */
async function runServedBy(other: string, gates: string, retention?: number) {
  let n = 0;
  // canonical answers, or a model with that step retention (answers in the task's format, some wrong)
  const model = retention === undefined ? undefined : simulatedModel(prompts, retention);
  const server = await startLoopbackServer({
    answer: (request) => {
      const known = promptOf(request, prompts);
      const reply = model ? model(request) : { text: known ? known.task.canonicalResponse(known.instance) : '' };
      n += 1;
      return { ...reply, ...(n % 3 === 0 ? { servedModel: other } : {}) };
    },
  });
  servers.push(server);
  const outDir = mkdtempSync(join(tmpdir(), 'cb-served-'));
  const bench = spawnBench(
    [CLI_BIN, 'run', '--project', 'd2', '--subject', 'openai:loop-model', '--trials', String(TRIALS), '--out', outDir],
    {
      OPENAI_BASE_URL: server.baseURL,
      OPENAI_API_KEY: 'sk-loopback-secret',
      CEILINGBENCH_CACHE_DIR: mkdtempSync(join(tmpdir(), 'cb-served-cache-')),
      CEILINGBENCH_GATES: gates,
    },
  );
  const { code } = await bench.done;
  return {
    code,
    output: bench.stdout() + bench.stderr(),
    report: readReport(outDir),
    summary: readFileSync(join(outDir, 'summary.md'), 'utf8'),
  };
}

describe('the served model', { timeout: 120_000 }, () => {
  it('a fallback to another model is said on the console and in summary.md, and fails the default gate', async () => {
    const r = await runServedBy('totally-different-model', '{"d2":{"minRetention":0}}');
    expect(r.output).toMatch(
      /served model differs: openai:loop-model asked for loop-model, served by totally-different-model in \d+ of 20 answered trials/,
    );
    expect(r.output).toContain('served model changed within the run');
    expect(r.summary).toMatch(/\*\*served model differs: openai:loop-model asked for loop-model/);
    const gate = r.report.gates.find((g) => g.gate === 'servedModel');
    expect(gate).toMatchObject({ project: 'd2', mode: 'hard', passed: false });
    expect(gate?.message).toMatch(/served by totally-different-model — not a prefix match \(the default/);
    expect(r.output).toContain('gate d2.servedModel FAILED (hard)');
    expect(r.code).toBe(1);
  });

  it("a dated snapshot of the requested model passes the default 'prefix', fails 'exact', and is still said", async () => {
    // with a failed advisory gate beside it: printed (it was silent), and the run still passes
    const prefix = await runServedBy(
      'loop-model-2026-01-01',
      // a model at p = 0.9 (H_0.5 ≈ 7 steps) under an advisory minHorizon of 1000 (a hard gate at 0 beside it, which the served-model
      // check needs to apply by default)
      '{"d2":{"minRetention":0,"minHorizon":{"value":1000,"mode":"advisory"}}}',
      0.9,
    );
    expect(prefix.output).toMatch(
      /gate d2\.minHorizon FAILED \(advisory\): .* — advisory: the run does not fail on it/,
    );
    expect(prefix.output).toContain(
      'served model differs: openai:loop-model asked for loop-model, served by loop-model-2026-01-01',
    );
    expect(prefix.report.gates.find((g) => g.gate === 'servedModel')?.passed).toBe(true);
    expect(prefix.code).toBe(0);
    const exact = await runServedBy('loop-model-2026-01-01', '{"d2":{"servedModel":"exact"}}');
    expect(exact.report.gates.find((g) => g.gate === 'servedModel')).toMatchObject({ passed: false });
    expect(exact.code).toBe(1);
  });
});
