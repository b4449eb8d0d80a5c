import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { billedTokens, costOf } from '../../src/spend/price.js';
import { addUsage } from '../../src/spend/usage-sum.js';
import { mapFinishReason, ProviderFaultError, readCompletion } from '../../src/subjects/openai/completion.js';
import { readEventStream } from '../../src/subjects/openai/event-stream.js';
import { adaptTransport } from '../../src/subjects/openai/request-body.js';

const answer = (usage: unknown, finish: string | null = 'stop') =>
  readCompletion({ choices: [{ message: { content: 'x' }, finish_reason: finish }], usage });

describe('usage as billed: completion includes reasoning', () => {
  it('OpenAI: reasoning inside completion_tokens is kept as reported', () => {
    const usage = { prompt_tokens: 10, completion_tokens: 900, total_tokens: 910 };
    expect(answer({ ...usage, completion_tokens_details: { reasoning_tokens: 800 } }).usage).toEqual({
      promptTokens: 10,
      completionTokens: 900,
      reasoningTokens: 800,
    });
  });

  it('Gemini: thinking tokens only in total_tokens are added to the completion and are the reasoning', () => {
    // total = prompt + completion + thoughts: 10 + 100 + 960
    expect(answer({ prompt_tokens: 10, completion_tokens: 100, total_tokens: 1070 }).usage).toEqual({
      promptTokens: 10,
      completionTokens: 1060,
      reasoningTokens: 960,
    });
  });

  it('a reasoning count above the completion (and no total) is billed on top of it', () => {
    const usage = { prompt_tokens: 10, completion_tokens: 100, completion_tokens_details: { reasoning_tokens: 960 } };
    expect(answer(usage).usage).toEqual({ promptTokens: 10, completionTokens: 1060, reasoningTokens: 960 });
  });

  it('property: billed prompt + completion always equals the total the provider reports, whichever convention', () => {
    fc.assert(
      fc.property(
        fc.nat(10_000),
        fc.nat(10_000),
        fc.nat(10_000),
        fc.boolean(),
        fc.boolean(),
        (prompt, visible, thoughts, excluded, detail) => {
          // a provider either counts the thoughts inside completion_tokens (OpenAI) or outside it (Gemini)
          const completion = excluded ? visible : visible + thoughts;
          const usage = {
            prompt_tokens: prompt,
            completion_tokens: completion,
            total_tokens: prompt + visible + thoughts,
            ...(detail && !excluded ? { completion_tokens_details: { reasoning_tokens: thoughts } } : {}),
          };
          const read = answer(usage).usage;
          expect(read).not.toBeNull();
          if (read === null) return;
          const billed = billedTokens(read);
          expect(billed.prompt + billed.completion).toBe(prompt + visible + thoughts);
          if (excluded && thoughts > 0) expect(billed.reasoning).toBe(thoughts);
          if (detail && !excluded) expect(billed.reasoning).toBe(thoughts);
        },
      ),
    );
  });

  it('reasoning is priced at the reasoning price (default output), never capped at the completion', () => {
    const price = { input: 1, output: 10, reasoning: 20 };
    // an old record: reasoning 960 > completion 100 (the provider left it out of completion)
    const old = billedTokens({ promptTokens: 1_000_000, completionTokens: 100, reasoningTokens: 960 });
    expect(old).toEqual({ prompt: 1_000_000, cachedPrompt: 0, completion: 1060, reasoning: 960 });
    expect(costOf(old, price)).toBeCloseTo(1 + (100 * 10 + 960 * 20) / 1e6, 12);
  });

  it('unknown usage stays unknown (null), never 0', () => {
    expect(answer(undefined).usage).toBeNull();
    expect(answer({ prompt_tokens: 'x' }).usage).toBeNull();
    expect(addUsage({ promptTokens: 1, completionTokens: 2 }, null)).toBeNull();
  });

  it('property: addUsage sums every field, cost and cached prompt tokens included (SCC doublings)', () => {
    const usage = fc.record(
      {
        promptTokens: fc.nat(1e6),
        completionTokens: fc.nat(1e6),
        reasoningTokens: fc.nat(1e6),
        cachedPromptTokens: fc.nat(1e6),
        costUsd: fc.integer({ min: 0, max: 1e6 }).map((c) => c / 1024),
      },
      { requiredKeys: ['promptTokens', 'completionTokens'] },
    );
    fc.assert(
      fc.property(fc.array(usage, { minLength: 1, maxLength: 6 }), (calls) => {
        const sum = calls.slice(1).reduce((s, u) => addUsage(s, u), calls[0] as ReturnType<typeof addUsage>);
        const total = (k: 'promptTokens' | 'completionTokens' | 'reasoningTokens' | 'cachedPromptTokens') =>
          calls.reduce((s, u) => s + (u[k] ?? 0), 0);
        expect(sum?.promptTokens).toBe(total('promptTokens'));
        expect(sum?.completionTokens).toBe(total('completionTokens'));
        expect(sum?.reasoningTokens ?? 0).toBe(total('reasoningTokens'));
        expect(sum?.cachedPromptTokens ?? 0).toBe(total('cachedPromptTokens'));
        if (calls.every((u) => u.costUsd !== undefined)) {
          expect(sum?.costUsd).toBe(calls.reduce((s, u) => s + (u.costUsd ?? 0), 0));
        } else expect(sum?.costUsd).toBeUndefined();
      }),
    );
  });
});

describe('responses billed without an answer', () => {
  it('a 200 with empty choices is a provider fault that keeps its usage and is not retryable', () => {
    const body = { choices: [], usage: { prompt_tokens: 102_000, completion_tokens: 0 } };
    let error: unknown;
    try {
      readCompletion(body);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ProviderFaultError);
    const fault = error as ProviderFaultError;
    expect(fault.retryable).toBe(false);
    expect(fault.usage).toEqual({ promptTokens: 102_000, completionTokens: 0 });
    expect(fault.message).toMatch(/empty 'choices'.*102000 prompt/);
  });

  it("finish_reason 'error' keeps its usage (retryable, as before)", () => {
    const usage = { prompt_tokens: 50, completion_tokens: 7, total_tokens: 80 };
    let error: unknown;
    try {
      answer(usage, 'error');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ProviderFaultError);
    expect((error as ProviderFaultError).retryable).toBe(true);
    expect((error as ProviderFaultError).usage).toEqual({
      promptTokens: 50,
      completionTokens: 30,
      reasoningTokens: 23,
    });
  });

  it('a stream that carried usage but no choice is billed for no answer', () => {
    const text = 'data: {"choices":[],"usage":{"prompt_tokens":9,"completion_tokens":0}}\n\ndata: [DONE]\n\n';
    expect(() => readEventStream(text)).toThrow(ProviderFaultError);
    try {
      readEventStream(text);
    } catch (e) {
      expect((e as ProviderFaultError).usage).toEqual({ promptTokens: 9, completionTokens: 0 });
    }
  });
});

describe('finish reasons mapped, the raw value kept', () => {
  it.each([
    ['stop', 'stop', undefined],
    ['length', 'length', undefined],
    ['model_length', 'length', 'model_length'],
    ['MAX_TOKENS', 'length', 'MAX_TOKENS'],
    ['content_filter', 'content_filter', undefined],
    ['SAFETY', 'content_filter', 'SAFETY'],
    ['end_turn', 'stop', 'end_turn'],
    ['something_new', null, 'something_new'],
  ])('%s → %s', (raw, mapped, kept) => {
    expect(mapFinishReason(raw)).toEqual({ finishReason: mapped, ...(kept ? { raw: kept } : {}) });
    const read = answer(null, raw);
    expect(read.finishReason).toBe(mapped);
    expect(read.rawFinishReason).toBe(kept);
  });

  it('null and absent stay null; a prototype key is not a finish reason', () => {
    expect(mapFinishReason(null)).toEqual({ finishReason: null });
    expect(mapFinishReason(undefined)).toEqual({ finishReason: null });
    expect(mapFinishReason('constructor')).toEqual({ finishReason: null, raw: 'constructor' });
  });
});

describe('stream-only endpoints and stream_options, learned from their 400', () => {
  it('learns stream-only from the words providers use, once', () => {
    for (const message of [
      'This model only support stream mode, please enable the stream parameter to access the model.',
      'Only streaming mode is supported',
      'stream must be set to true',
      'non-streaming requests are not supported',
    ]) {
      expect(adaptTransport({}, false, { status: 400, message }), message).toEqual({ streamOnly: true });
      expect(adaptTransport({ streamOnly: true }, false, { status: 400, message })).toBeUndefined();
    }
    expect(adaptTransport({}, false, { status: 404, message: 'only support stream mode' })).toBeUndefined();
    expect(adaptTransport({}, false, { status: 400, message: 'max_tokens is too large' })).toBeUndefined();
  });

  it('learns to leave out stream_options when a streamed request was rejected for it', () => {
    const rejection = { status: 400, message: "Unrecognized request argument supplied: 'stream_options'" };
    expect(adaptTransport({ streamOnly: true }, true, rejection)).toEqual({ streamOnly: true, noStreamOptions: true });
    expect(adaptTransport({}, false, rejection)).toBeUndefined(); // not sent: nothing to learn
    expect(adaptTransport({ noStreamOptions: true }, true, rejection)).toBeUndefined();
    expect(adaptTransport({}, true, { status: 400, param: 'stream_options', message: 'bad' })).toEqual({
      noStreamOptions: true,
    });
  });
});
