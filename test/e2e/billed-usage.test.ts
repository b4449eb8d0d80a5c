import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Report } from '../../src/schema/report.js';
import { costOf } from '../../src/spend/price.js';
import { CLI_BIN, promptOf, promptsOf, readReport, spawnBench } from '../reliability/support/bench-run.js';
import {
  type Fault,
  type LoopbackOptions,
  type LoopbackRequest,
  type LoopbackServer,
  startLoopbackServer,
} from '../support/loopback-server.js';

/**
 * Every billed token counted, through `ceilingbench run --project d2 --trials 2` against a loopback server that
 * answers D2 exactly and bills like one provider. The server counts what it billed (prompt, output, reasoning);
 * the report's spend must equal it, reasoning at its price included, whatever the behaviour: Gemini's thinking
 * tokens outside `completion_tokens`, 200s with empty `choices` or `finish_reason: "error"` that carry usage,
 * Mistral's `model_length`, a stream-only endpoint that says so in a 400.
 */
const TRIALS = 2;
const prompts = promptsOf('d2', TRIALS);
const canonical = (request: LoopbackRequest): string => {
  const known = promptOf(request, prompts);
  if (!known) throw new Error('loopback: a prompt that is not one of the run’s D2 cells');
  return known.task.canonicalResponse(known.instance);
};

/** The run's levels, lowest first: a behaviour is put on the trials of one level. */
const LEVELS = [...new Set([...prompts.values()].map((p) => p.instance.level))].sort((a, b) => a - b);
const [FIRST, SECOND, THIRD] = LEVELS;

const LOOP_PRICE = { input: 0.15, output: 0.6, reasoning: 1.2 };
function priceConfig(): string {
  const path = join(mkdtempSync(join(tmpdir(), 'cb-billed-config-')), 'ceilingbench.config.mjs');
  writeFileSync(path, `export default ${JSON.stringify({ prices: { 'openai:loop-model': LOOP_PRICE } })};\n`);
  return path;
}

const servers = new Set<LoopbackServer>();
afterAll(async () => {
  await Promise.all([...servers].map((s) => s.close()));
});

/** What the server billed: every response that carried usage, answered or not. */
class Bill {
  prompt = 0;
  /** Output tokens, reasoning included. */
  output = 0;
  reasoning = 0;
  add(prompt: number, output: number, reasoning = 0): void {
    this.prompt += prompt;
    this.output += output;
    this.reasoning += reasoning;
  }
  cost(): number {
    return costOf(
      { prompt: this.prompt, cachedPrompt: 0, completion: this.output, reasoning: this.reasoning },
      LOOP_PRICE,
    );
  }
}

const tokensOf = (request: LoopbackRequest, text: string) => ({
  prompt: Math.ceil(request.messages.reduce((s, m) => s + m.content.length, 0) / 4),
  output: Math.ceil(text.length / 4),
});

async function run(options: LoopbackOptions, env: Record<string, string> = {}) {
  const server = await startLoopbackServer(options);
  servers.add(server);
  const outDir = mkdtempSync(join(tmpdir(), 'cb-billed-'));
  const bench = spawnBench(
    [CLI_BIN, 'run', '--project', 'd2', '--subject', 'openai:loop-model', '--trials', String(TRIALS), '--out', outDir],
    {
      OPENAI_BASE_URL: server.baseURL,
      OPENAI_API_KEY: 'sk-loopback-secret',
      CEILINGBENCH_CACHE_DIR: mkdtempSync(join(tmpdir(), 'cb-billed-cache-')),
      CEILINGBENCH_CONFIG: priceConfig(),
      ...env,
    },
  );
  const { code } = await bench.done;
  return { code, report: readReport(outDir), output: bench.stdout() + bench.stderr(), server };
}

const trialsOf = (report: Report) => report.cells.flatMap((c) => c.trials);
const kinds = (report: Report) => {
  const tally: Record<string, number> = {};
  for (const t of trialsOf(report)) tally[t.outcome.kind] = (tally[t.outcome.kind] ?? 0) + 1;
  return tally;
};

/** The report's spend equals the server's bill: prompt, output (reasoning included), reasoning, and the cost. */
function expectSpendIsTheBill(report: Report, bill: Bill): void {
  const paid = report.spend?.total.paid;
  expect(paid?.prompt).toBe(bill.prompt);
  expect(paid?.completion).toBe(bill.output);
  expect(paid?.reasoning).toBe(bill.reasoning);
  expect(paid?.costUsd).toBeCloseTo(bill.cost(), 9);
}

const body = (json: unknown): Fault => ({ kind: 'body', json });
const choice = (content: string, finish: string) => [
  { index: 0, message: { role: 'assistant', content }, finish_reason: finish },
];

describe.concurrent('every billed token counted through `ceilingbench run`', { timeout: 400_000 }, () => {
  it('Gemini: thinking tokens only in total_tokens are billed as output at the reasoning price; every trial correct', async () => {
    const bill = new Bill();
    const THOUGHTS = 700;
    const result = await run({
      answer: (request) => ({ text: canonical(request) }),
      fault: (request) => {
        const text = canonical(request);
        const t = tokensOf(request, text);
        bill.add(t.prompt, t.output + THOUGHTS, THOUGHTS);
        // Gemini's OpenAI-compatible usage: completion_tokens without the thoughts, total_tokens with them
        return body({
          choices: choice(text, 'stop'),
          usage: { prompt_tokens: t.prompt, completion_tokens: t.output, total_tokens: t.prompt + t.output + THOUGHTS },
        });
      },
    });
    expect(result.code, result.output).toBe(0);
    expect(kinds(result.report)).toEqual({ correct: 20 });
    expect(bill.reasoning).toBe(20 * THOUGHTS);
    expectSpendIsTheBill(result.report, bill);
  });

  it('200s billed without an answer: empty choices are api at once (1 request), finish_reason error is retried; both in spend', async () => {
    const bill = new Bill();
    let serial = 0;
    const result = await run(
      {
        answer: (request) => ({ text: canonical(request) }),
        fault: (request, { attempt }) => {
          const text = canonical(request);
          const t = tokensOf(request, text);
          serial++;
          const level = promptOf(request, prompts)?.instance.level;
          // level 1's trials: an empty `choices` with the prompt billed (Gemini's blocked prompt), every time
          if (level === FIRST) {
            bill.add(t.prompt, 0);
            return body({
              choices: [],
              usage: { prompt_tokens: t.prompt, completion_tokens: 0, total_tokens: t.prompt },
            });
          }
          // level 2's trials: a failed generation first (billed), then the answer
          if (level === SECOND && attempt === 1) {
            bill.add(t.prompt, 5);
            return body({ choices: choice('', 'error'), usage: { prompt_tokens: t.prompt, completion_tokens: 5 } });
          }
          bill.add(t.prompt, t.output);
          return body({
            choices: choice(text, 'stop'),
            usage: { prompt_tokens: t.prompt, completion_tokens: t.output },
          });
        },
      },
      { CEILINGBENCH_SEED: '0' },
    );
    expect(serial).toBeGreaterThan(0);
    const trials = trialsOf(result.report);
    const level1 = trials.filter((t) => t.level === FIRST);
    const level2 = trials.filter((t) => t.level === SECOND);
    expect([level1.length, level2.length]).toEqual([TRIALS, TRIALS]);
    expect(level1.map((t) => [t.outcome.kind, t.attempts, t.usage])).toEqual(level1.map(() => ['api', 1, null]));
    for (const t of level1) expect(t.billedNoAnswer?.promptTokens).toBeGreaterThan(0);
    expect(level2.map((t) => [t.outcome.kind, t.attempts])).toEqual(level2.map(() => ['correct', 2]));
    for (const t of level2) expect(t.billedNoAnswer?.completionTokens).toBe(5);
    expect(kinds(result.report)).toEqual({ correct: 18, api: 2 });
    const noAnswer = result.report.spend?.total.billedNoAnswer;
    expect(noAnswer?.trials).toBe(4);
    expect(noAnswer?.completion).toBe(10);
    expectSpendIsTheBill(result.report, bill);
  });

  it("Mistral's model_length is a cut answer (length), its raw value kept", async () => {
    const bill = new Bill();
    const result = await run({
      answer: (request) => ({ text: canonical(request) }),
      fault: (request) => {
        const level = promptOf(request, prompts)?.instance.level;
        const text = canonical(request);
        const cut = level === THIRD ? text.slice(0, Math.floor(text.length / 3)) : text;
        const t = tokensOf(request, cut);
        bill.add(t.prompt, t.output);
        return body({
          choices: choice(cut, level === THIRD ? 'model_length' : 'stop'),
          usage: { prompt_tokens: t.prompt, completion_tokens: t.output },
        });
      },
    });
    const cut = trialsOf(result.report).filter((t) => t.level === THIRD);
    expect(cut).toHaveLength(TRIALS);
    expect(cut.map((t) => [t.finishReason, t.rawFinishReason])).toEqual(cut.map(() => ['length', 'model_length']));
    for (const t of cut) expect(t.outcome.kind).not.toBe('correct');
    expectSpendIsTheBill(result.report, bill);
  });

  it('a stream-only endpoint that says so in a 400 is learned: every trial correct without CEILINGBENCH_STREAM', async () => {
    let rejected = 0;
    const result = await run({
      answer: (request) => ({ text: canonical(request) }),
      fault: (request) => {
        if (request.body.stream === true) return undefined; // the loopback streams, usage included when asked
        rejected++;
        return {
          kind: 'status',
          status: 400,
          body: { error: { message: 'This model only support stream mode, please enable the stream parameter.' } },
        };
      },
    });
    expect(result.code, result.output).toBe(0);
    expect(kinds(result.report)).toEqual({ correct: 20 });
    // learned once per endpoint and worker process: far fewer 400s than trials, each recorded on the trial that learned
    expect(rejected).toBeGreaterThan(0);
    expect(rejected).toBeLessThan(10);
    const learned = trialsOf(result.report).filter((t) => t.adapted?.includes('stream only'));
    expect(learned).toHaveLength(rejected);
    const served = result.server.log.filter((r) => r.outcome === 'answered');
    const bill = new Bill();
    for (const r of served) bill.add(r.usage?.promptTokens ?? 0, r.usage?.completionTokens ?? 0);
    expectSpendIsTheBill(result.report, bill);
  });
});
