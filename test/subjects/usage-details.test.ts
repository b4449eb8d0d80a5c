import { describe, expect, it } from 'vitest';
import { readCompletion } from '../../src/subjects/openai/completion.js';
import { readEventStream } from '../../src/subjects/openai/event-stream.js';

// The usage a bill is made of: reasoning tokens (inside the completion tokens) and cached prompt tokens are kept
// apart when the provider reports them, under whichever name it uses; an unreadable detail never costs the counts.
const body = (usage: unknown) => ({
  choices: [{ message: { role: 'assistant', content: '4' }, finish_reason: 'stop' }],
  usage,
});
const usageOf = (usage: unknown) => readCompletion(body(usage)).usage;

describe('usage details of a completion', () => {
  it('reads reasoning tokens and cached prompt tokens (OpenAI names)', () => {
    expect(
      usageOf({
        prompt_tokens: 1200,
        completion_tokens: 300,
        prompt_tokens_details: { cached_tokens: 1024 },
        completion_tokens_details: { reasoning_tokens: 256 },
      }),
    ).toEqual({ promptTokens: 1200, completionTokens: 300, reasoningTokens: 256, cachedPromptTokens: 1024 });
  });

  it("reads DeepSeek's prompt_cache_hit_tokens when prompt_tokens_details does not say", () => {
    const deepseek = {
      prompt_tokens: 90,
      completion_tokens: 7,
      prompt_cache_hit_tokens: 64,
      prompt_cache_miss_tokens: 26,
    };
    expect(usageOf(deepseek)).toEqual({ promptTokens: 90, completionTokens: 7, cachedPromptTokens: 64 });
    // both names: the OpenAI detail wins
    expect(usageOf({ ...deepseek, prompt_tokens_details: { cached_tokens: 32 } })?.cachedPromptTokens).toBe(32);
  });

  it('an unreadable detail is dropped, never the token counts', () => {
    expect(
      usageOf({
        prompt_tokens: 5,
        completion_tokens: 3,
        completion_tokens_details: { reasoning_tokens: 'n/a' },
        prompt_tokens_details: [1],
        prompt_cache_hit_tokens: -1,
      }),
    ).toEqual({ promptTokens: 5, completionTokens: 3 });
    // null details (vLLM) say nothing
    expect(
      usageOf({ prompt_tokens: 5, completion_tokens: 3, completion_tokens_details: null, prompt_tokens_details: null }),
    ).toEqual({ promptTokens: 5, completionTokens: 3 });
  });

  it('a streamed answer keeps the same details from its usage chunk', () => {
    const chunk = (json: unknown) => `data: ${JSON.stringify(json)}\n\n`;
    const text =
      chunk({ choices: [{ index: 0, delta: { content: '4' }, finish_reason: 'stop' }] }) +
      chunk({
        choices: [],
        usage: {
          prompt_tokens: 40,
          completion_tokens: 20,
          completion_tokens_details: { reasoning_tokens: 12 },
          prompt_cache_hit_tokens: 32,
        },
      }) +
      'data: [DONE]\n\n';
    expect(readEventStream(text).usage).toEqual({
      promptTokens: 40,
      completionTokens: 20,
      reasoningTokens: 12,
      cachedPromptTokens: 32,
    });
  });
});
