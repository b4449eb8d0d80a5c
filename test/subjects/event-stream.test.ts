import { describe, expect, it } from 'vitest';
import { MalformedResponseError, ProviderFaultError } from '../../src/subjects/openai/completion.js';
import { isEventStream, parseServerSentEvents, readEventStream } from '../../src/subjects/openai/event-stream.js';

const sse = (...payloads: unknown[]) =>
  payloads.map((p) => `data: ${typeof p === 'string' ? p : JSON.stringify(p)}\n\n`).join('');
const delta = (d: Record<string, unknown>, finish: string | null = null, extra: Record<string, unknown> = {}) => ({
  object: 'chat.completion.chunk',
  choices: [{ index: 0, delta: d, finish_reason: finish }],
  ...extra,
});

describe('server-sent events', () => {
  it('splits events on blank lines, joins multi-line data, skips comments, accepts CRLF and a last unterminated event', () => {
    const text = ': OPENROUTER PROCESSING\r\n\r\nevent: message\r\ndata: {"a":\r\ndata: 1}\r\n\r\ndata:[DONE]';
    expect(parseServerSentEvents(text)).toEqual([{ event: 'message', data: '{"a":\n1}' }, { data: '[DONE]' }]);
  });

  it('is recognised by content type, or by its first field when mislabelled', () => {
    expect(isEventStream('text/event-stream; charset=utf-8', '')).toBe(true);
    expect(isEventStream('application/json', '\ndata: {}')).toBe(true);
    expect(isEventStream('application/json', '{"choices":[]}')).toBe(false);
  });
});

describe('an event stream read into one completion', () => {
  it('joins content deltas, keeps the last finish reason, model and provider, and the final usage chunk', () => {
    const text =
      ': OPENROUTER PROCESSING\n\n' +
      sse(
        delta({ role: 'assistant', content: '' }, null, { model: 'anthropic/claude-3.7-sonnet', usage: null }),
        delta({ content: 'ANSWER' }),
        delta({ content: ': 4' }, null, { provider: 'Anthropic' }),
        delta({}, 'stop'),
        {
          choices: [],
          usage: { prompt_tokens: 9, completion_tokens: 3, cost: 0.0002, prompt_tokens_details: { cached_tokens: 8 } },
        },
        '[DONE]',
      );
    expect(readEventStream(text)).toEqual({
      text: 'ANSWER: 4',
      finishReason: 'stop',
      usage: { promptTokens: 9, completionTokens: 3, cachedPromptTokens: 8, costUsd: 0.0002 },
      servedModel: 'anthropic/claude-3.7-sonnet',
      servedProvider: 'Anthropic',
    });
  });

  it('sends reasoning deltas (reasoning_content, reasoning) and thinking parts to the reasoning channel, never the answer', () => {
    const deepseek = readEventStream(
      sse(
        delta({ reasoning_content: 'two ' }),
        delta({ reasoning_content: 'and two' }),
        delta({ content: '4' }, 'stop'),
        '[DONE]',
      ),
    );
    expect(deepseek).toMatchObject({ text: '4', reasoning: 'two and two', usage: null });
    const openrouter = readEventStream(sse(delta({ reasoning: 'hm' }), delta({ content: '4' }, 'length'), '[DONE]'));
    expect(openrouter).toMatchObject({ text: '4', reasoning: 'hm', finishReason: 'length' });
    const mistral = readEventStream(
      sse(
        delta({ content: [{ type: 'thinking', thinking: [{ type: 'text', text: 'let me ' }] }] }),
        delta({ content: [{ type: 'thinking', thinking: [{ type: 'text', text: 'add' }] }] }),
        delta({ content: [{ type: 'text', text: '4' }] }, 'stop'),
        '[DONE]',
      ),
    );
    expect(mistral).toMatchObject({ text: '4', reasoning: 'let me add' });
  });

  it('reads refusal deltas, ignores other choice indices, and accepts a finished stream without [DONE]', () => {
    const text = sse(
      delta({ refusal: "I can't " }),
      { choices: [{ index: 1, delta: { content: 'other' }, finish_reason: null }] },
      delta({ refusal: 'help.' }, 'stop'),
    );
    expect(readEventStream(text)).toEqual({ text: '', refusal: "I can't help.", finishReason: 'stop', usage: null });
  });

  it('provider faults in a stream: an error event by its code, finish_reason "error" retryable', () => {
    const failing = (text: string) => {
      try {
        readEventStream(text);
      } catch (error) {
        return error;
      }
      throw new Error('accepted');
    };
    expect(failing(sse(delta({ content: 'x' }), { error: { code: 400, message: 'bad' } }))).toMatchObject({
      retryable: false,
      message: expect.stringMatching(/code 400.*bad/),
    });
    expect(failing(sse({ error: { code: 529, message: 'overloaded' } }))).toMatchObject({ retryable: true });
    const upstream = failing(sse(delta({ content: '' }, 'error'), '[DONE]'));
    expect(upstream).toBeInstanceOf(ProviderFaultError);
    expect(upstream).toMatchObject({ retryable: true, message: expect.stringMatching(/finish_reason 'error'/) });
  });

  it('malformed streams are retryable: data that is not JSON, no choice at all, cut off before the end', () => {
    expect(() => readEventStream('data: {"choices": [{"delta": {"cont')).toThrow(MalformedResponseError);
    expect(() => readEventStream(sse('[DONE]'))).toThrow(/without a choice/);
    expect(() => readEventStream(sse({ choices: [] }, '[DONE]'))).toThrow(/without a choice/);
    expect(() => readEventStream(sse(delta({ content: 'STEPS: 1' })))).toThrow(/ended before \[DONE\]/);
  });
});
