import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { billablesOfChain } from '../../reporters/projections/assay-spend.js';
import { spendOf } from '../../reporters/projections/spend.js';
import { addUsage, answerWithBudgetRule, SCC_OUTPUT_TOKENS_CEILING } from '../../src/assays/scc/budget-rule.js';
import { runSccTrial } from '../../src/assays/scc/trial.js';
import type { Usage } from '../../src/schema/trial.js';
import type { BudgetRecord, Subject, TrialRequest, TrialResponse } from '../../src/subjects/subject.js';
import { countInstance } from '../../src/tasks/count/plugin.js';

type Step =
  | { text: string; finishReason: 'stop' | 'length'; usage?: Usage | null; cacheHit?: boolean; budget?: BudgetRecord }
  | { error: string };

/** A subject that answers its calls with `steps` in turn (the last one repeated) and logs the budgets asked. */
function fakeSubject(steps: Step[]): Subject & { budgets: number[] } {
  const budgets: number[] = [];
  return {
    budgets,
    identity: { spec: 'fake', kind: 'sim', parameters: {} },
    async answer(request: TrialRequest): Promise<TrialResponse> {
      const step = steps[Math.min(budgets.length, steps.length - 1)];
      budgets.push(request.maxOutputTokens);
      if ('error' in step) return { kind: 'error', error: step.error, latencyMs: 5, attempts: 3 };
      const { usage, cacheHit, budget, ...rest } = step;
      const billed = usage === undefined ? { promptTokens: 100, completionTokens: request.maxOutputTokens } : usage;
      return {
        kind: 'answer',
        ...rest,
        usage: billed,
        latencyMs: 10,
        cacheHit: cacheHit ?? false,
        attempts: cacheHit ? 0 : 2,
        ...(budget ? { budget } : {}),
      };
    },
  };
}

const request = (maxOutputTokens = 4096, signal?: AbortSignal): TrialRequest => ({
  taskId: 'count',
  instance: countInstance(40, 32, 1),
  prompt: { system: '', user: 'count' },
  trialIndex: 0,
  maxOutputTokens,
  ...(signal ? { signal } : {}),
});

const hasInteger = (text: string) => /\d/.test(text);
const SCC = { hasAnswer: hasInteger, ceiling: SCC_OUTPUT_TOKENS_CEILING };
const CUT = { text: 'Let me count them one by one', finishReason: 'length' } as const;

describe('the SCC budget rule over a fake subject', () => {
  it('cut without an answer twice, then answered: 3 calls at 4096/8192/16384, usage, attempts and latency summed', async () => {
    const subject = fakeSubject([CUT, CUT, { text: '40', finishReason: 'stop' }]);
    const response = await answerWithBudgetRule(subject, request(), SCC);
    expect(subject.budgets).toEqual([4096, 8192, 16384]);
    expect(response).toMatchObject({
      kind: 'answer',
      text: '40',
      finishReason: 'stop',
      calls: 3,
      attempts: 6,
      latencyMs: 30,
      cacheHit: false,
      budget: { requested: 4096, final: 16384, doublings: 2, ceilingReached: false },
      // every call is billed: prompt 3 × 100, completion 4096 + 8192 + 16384
      usage: { promptTokens: 300, completionTokens: 28_672 },
      // the last call alone, as an SCC record keeps it
      finalUsage: { promptTokens: 100, completionTokens: 16384 },
    });
  });

  it('stops at the ceiling while still cut without an answer: ceilingReached', async () => {
    const subject = fakeSubject([CUT]);
    const response = await answerWithBudgetRule(subject, request(), SCC);
    expect(subject.budgets).toEqual([4096, 8192, 16384, 32768]);
    expect(response).toMatchObject({
      kind: 'answer',
      finishReason: 'length',
      calls: 4,
      budget: { requested: 4096, final: 32768, doublings: 3, ceilingReached: true },
    });
    // a request at or above the ceiling is asked once
    const high = fakeSubject([CUT]);
    const once = await answerWithBudgetRule(high, request(32768), SCC);
    expect(high.budgets).toEqual([32768]);
    expect(once.budget).toEqual({ requested: 32768, final: 32768, doublings: 0, ceilingReached: true });
  });

  it('an error mid-chain is the error response (missing data), with the failing budget and the text before it', async () => {
    const subject = fakeSubject([CUT, { error: 'HTTP 503: unavailable' }]);
    const response = await answerWithBudgetRule(subject, request(), SCC);
    expect(subject.budgets).toEqual([4096, 8192]);
    expect(response).toMatchObject({
      kind: 'error',
      error: 'HTTP 503: unavailable',
      attempts: 5,
      latencyMs: 15,
      calls: 2,
      previousText: CUT.text,
      budget: { requested: 4096, final: 8192, doublings: 1, ceilingReached: false },
    });
  });

  it('an answer inside a cut-off text ends the doubling (scored as it stands)', async () => {
    const subject = fakeSubject([{ text: 'groups of (10) and', finishReason: 'length' }, CUT]);
    const response = await answerWithBudgetRule(subject, request(), SCC);
    expect(subject.budgets).toEqual([4096]);
    expect(response).toMatchObject({
      kind: 'answer',
      finishReason: 'length',
      budget: { requested: 4096, final: 4096, doublings: 0, ceilingReached: false },
    });
    // a single call's response is passed on unchanged
    if (response.kind === 'answer') expect(response.usage).toEqual(response.finalUsage);
  });

  it('a finished answer without any integer is not doubled (only a cut-off one is)', async () => {
    const subject = fakeSubject([{ text: 'I cannot count', finishReason: 'stop' }]);
    expect((await answerWithBudgetRule(subject, request(), SCC)).budget.doublings).toBe(0);
    expect(subject.budgets).toEqual([4096]);
  });

  it('a subject that already applied the rule (a replay of final answers) is asked once', async () => {
    const applied = { requested: 4096, final: 16384, doublings: 2, ceilingReached: false };
    const subject = fakeSubject([{ ...CUT, cacheHit: true, budget: applied }]);
    const response = await answerWithBudgetRule(subject, request(), SCC);
    expect(subject.budgets).toEqual([4096]);
    expect(response).toMatchObject({ kind: 'answer', calls: 1, cacheHit: true, budget: applied });
  });

  it('cacheHit only when every call was a hit; usage unknown when any call is', async () => {
    const mixed = fakeSubject([
      { ...CUT, cacheHit: true },
      { text: '40', finishReason: 'stop' },
    ]);
    expect(await answerWithBudgetRule(mixed, request(), SCC)).toMatchObject({ cacheHit: false, attempts: 2 });
    const hits = fakeSubject([
      { ...CUT, cacheHit: true },
      { text: '40', finishReason: 'stop', cacheHit: true },
    ]);
    expect(await answerWithBudgetRule(hits, request(), SCC)).toMatchObject({ cacheHit: true, attempts: 0 });
    const unknown = fakeSubject([
      { ...CUT, usage: null },
      { text: '40', finishReason: 'stop' },
    ]);
    expect(await answerWithBudgetRule(unknown, request(), SCC)).toMatchObject({
      usage: null,
      finalUsage: { promptTokens: 100, completionTokens: 8192 },
    });
  });

  it('sums reasoning tokens when any call reported them', () => {
    const a = { promptTokens: 1, completionTokens: 2, reasoningTokens: 3 };
    const b = { promptTokens: 10, completionTokens: 20 };
    expect(addUsage(a, b)).toEqual({ promptTokens: 11, completionTokens: 22, reasoningTokens: 3 });
    expect(addUsage(b, b)).toEqual({ promptTokens: 20, completionTokens: 40 });
    expect(addUsage(a, null)).toBeNull();
  });

  it('sums cached prompt tokens and the provider cost over the calls (each call is billed)', () => {
    const first = { promptTokens: 100, completionTokens: 4096, cachedPromptTokens: 0, costUsd: 0.0025 };
    const second = { promptTokens: 100, completionTokens: 900, cachedPromptTokens: 96, costUsd: 0.0006 };
    const both = addUsage(first, second);
    expect(both).toMatchObject({ promptTokens: 200, completionTokens: 4996, cachedPromptTokens: 96 });
    expect(both?.costUsd).toBeCloseTo(0.0031, 12);
    // a call without a reported cost makes the chain's cost unknown (its tokens are priced instead), never 0
    const unpriced = addUsage(first, { promptTokens: 100, completionTokens: 900 });
    expect(unpriced).toEqual({ promptTokens: 200, completionTokens: 4996, cachedPromptTokens: 0 });
  });

  it('keeps what responses billed without an answer over the chain, and the accounts price it as paid', async () => {
    const noAnswer = { promptTokens: 700, completionTokens: 0 };
    const calls = [
      {
        kind: 'answer' as const,
        text: 'cut',
        finishReason: 'length' as const,
        usage: { promptTokens: 100, completionTokens: 4096 },
      },
      { kind: 'error' as const, error: 'empty choices', billedNoAnswer: noAnswer },
    ];
    let n = 0;
    const subject: Subject = {
      identity: { spec: 'fake', kind: 'sim', parameters: {} },
      async answer(): Promise<TrialResponse> {
        const step = calls[Math.min(n++, calls.length - 1)];
        return step.kind === 'error'
          ? { ...step, latencyMs: 1, attempts: 1 }
          : { ...step, latencyMs: 1, attempts: 1, cacheHit: false };
      },
    };
    const response = await answerWithBudgetRule(subject, request(), { ceiling: 8192, hasAnswer: () => false });
    expect(response.chain.billedNoAnswer).toEqual(noAnswer);
    const spend = spendOf(billablesOfChain(response.chain), { input: 1, output: 10 });
    expect(spend.paid.prompt).toBe(800);
    expect(spend.paid.completion).toBe(4096);
    expect(spend.billedNoAnswer).toEqual({
      trials: 1,
      prompt: 700,
      cachedPrompt: 0,
      completion: 0,
      reasoning: 0,
      costUsd: 700 / 1e6,
    });
  });

  it('makes no further call once the caller aborted', async () => {
    const controller = new AbortController();
    const subject = fakeSubject([CUT]);
    const aborting: Subject = {
      ...subject,
      answer: async (r) => {
        const response = await subject.answer(r);
        controller.abort();
        return response;
      },
    };
    await answerWithBudgetRule(aborting, request(4096, controller.signal), SCC);
    expect(subject.budgets).toEqual([4096]);
  });

  it('final = requested · 2^doublings, at most one call past the ceiling, for any script', () => {
    fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom('cut', 'cut-with-integer', 'stop', 'error'), { minLength: 1, maxLength: 8 }),
        fc.constantFrom(16, 100, 4096),
        fc.constantFrom(16, 400, 32768),
        async (script, requested, ceiling) => {
          const steps: Step[] = script.map((s) =>
            s === 'error'
              ? { error: 'x' }
              : s === 'stop'
                ? { text: '40', finishReason: 'stop' }
                : s === 'cut'
                  ? CUT
                  : { text: 'so far 12', finishReason: 'length' },
          );
          const subject = fakeSubject(steps);
          const response = await answerWithBudgetRule(subject, request(requested), { hasAnswer: hasInteger, ceiling });
          const { budget } = response;
          expect(budget.final).toBe(requested * 2 ** budget.doublings);
          expect(subject.budgets).toEqual(Array.from({ length: budget.doublings + 1 }, (_, i) => requested * 2 ** i));
          expect(budget.final < 2 * Math.max(requested, ceiling)).toBe(true);
          if (budget.ceilingReached) expect(budget.final).toBeGreaterThanOrEqual(ceiling);
        },
      ),
    );
  });
});

describe('the SCC trial records the rule as the authors do', () => {
  const trial = (subject: Subject) =>
    runSccTrial({
      subject,
      taskId: 'count',
      instance: countInstance(40, 32, 1),
      prompt: { system: '', user: 'count' },
      trialIndex: 0,
      budget: 4096,
      retryMaxOutputTokens: 32768,
      signal: new AbortController().signal,
    });

  it('doubled then answered: retry count, both budgets and the final call’s tokens', async () => {
    const record = await trial(fakeSubject([CUT, { text: '40', finishReason: 'stop' }]));
    expect(record).toMatchObject({
      status: 'completed',
      retryCount: 1,
      requestedMaxOutputTokens: 4096,
      finalMaxOutputTokens: 8192,
      parsed: 40,
      tokens: 8192,
      inputTokens: 100,
    });
  });

  it('an error after a doubling: status error, the previous attempt’s text, the failing budget', async () => {
    const record = await trial(fakeSubject([CUT, { error: 'HTTP 503: unavailable' }]));
    expect(record).toMatchObject({
      status: 'error',
      detail: 'HTTP 503: unavailable',
      text: CUT.text,
      retryCount: 1,
      finalMaxOutputTokens: 8192,
      parsed: null,
      tokens: null,
    });
  });

  it('cut at the ceiling without an integer: retry_limit_reached', async () => {
    const record = await trial(fakeSubject([CUT]));
    expect(record).toMatchObject({
      status: 'incomplete',
      detail: 'max_output_tokens|retry_limit_reached',
      retryCount: 3,
      finalMaxOutputTokens: 32768,
    });
  });
});
