import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { TokenCounter } from '../../src/assays/adaptive/cost.js';
import {
  countChatTokens,
  countTokens,
  encodingFor,
  TOKENS_PER_MESSAGE,
  TOKENS_REPLY_PRIMING,
} from '../../src/spend/tokenizer.js';
import { countPromptTokens, tokenCounter } from '../../src/subjects/openai/prompt-tokens.js';
import { buildMessages } from '../../src/subjects/openai/request-body.js';
import { ROOT } from '../support/run-vitest.js';

describe('encodingFor: the encoding of a model name', () => {
  it('o200k_base for the gpt-4o, gpt-4.1, gpt-5 and o-series families (exact)', () => {
    for (const model of [
      'gpt-4o',
      'gpt-4o-mini',
      'chatgpt-4o-latest',
      'gpt-4.1-nano',
      'gpt-5',
      'gpt-5-mini',
      'o1',
      'o1-mini',
      'o3',
      'o4-mini',
      'openai/gpt-4o',
      'GPT-4o-Mini',
    ]) {
      expect(encodingFor(model), model).toEqual({ encoding: 'o200k_base', exact: true });
    }
  });

  it('cl100k_base for gpt-4 and gpt-3.5 (exact)', () => {
    for (const model of ['gpt-4', 'gpt-4-turbo', 'gpt-4-0613', 'gpt-3.5-turbo', 'gpt-3.5-turbo-0125']) {
      expect(encodingFor(model), model).toEqual({ encoding: 'cl100k_base', exact: true });
    }
  });

  it('any other name is o200k_base as an approximation, never claimed exact', () => {
    for (const model of [
      'llama-3.1-8b-instruct',
      'qwen2.5:7b',
      'my-azure-deployment',
      'gpt-oss-20b',
      'gpt-50',
      'o10',
      '',
      undefined,
      null,
    ]) {
      expect(encodingFor(model), String(model)).toEqual({ encoding: 'o200k_base', exact: false });
    }
  });
});

describe('countTokens', () => {
  it('counts with the encoding of the model: the two encodings differ on the same text', () => {
    const text = 'こんにちは世界、お元気ですか';
    expect(countTokens(text, 'gpt-4')).toBe(10);
    expect(countTokens(text, 'gpt-4o')).toBe(7);
    expect(countTokens(text)).toBe(countTokens(text, 'gpt-4o'));
  });

  it('special-token text is counted as plain text, as the provider reads a prompt', () => {
    expect(countTokens('a <|endoftext|> b', 'gpt-4o')).toBeGreaterThan(3);
  });

  it('the empty text is 0 tokens; a longer text never has fewer tokens than its prefix', () => {
    expect(countTokens('')).toBe(0);
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), fc.string({ maxLength: 50 }), (a, b) => {
        const whole = countTokens(`${a} ${b}`);
        expect(whole).toBeGreaterThanOrEqual(countTokens(a));
        expect(whole).toBeLessThanOrEqual(new TextEncoder().encode(`${a} ${b}`).length); // at most one per byte
      }),
      { numRuns: 200 },
    );
  });
});

describe('countChatTokens: OpenAI’s documented framing of chat messages', () => {
  it("matches OpenAI's documented example: one user message 'Say this is a test!' is 13 prompt tokens", () => {
    expect(countChatTokens([{ role: 'user', content: 'Say this is a test!' }], 'gpt-3.5-turbo')).toBe(13);
  });

  it('is the content, the role and 3 tokens per message, plus 3 for the reply', () => {
    const messages = [
      { role: 'system' as const, content: 'You are a careful counter.' },
      { role: 'user' as const, content: 'Count the commas: a, a, a' },
    ];
    const content = messages.reduce((s, m) => s + countTokens(m.content, 'gpt-4o') + countTokens(m.role, 'gpt-4o'), 0);
    expect(countChatTokens(messages, 'gpt-4o')).toBe(content + 2 * TOKENS_PER_MESSAGE + TOKENS_REPLY_PRIMING);
  });

  it('countPromptTokens sends a prompt as the openai subject does (no system message when it is empty)', () => {
    const prompt = { system: 'Answer with a number.', user: 'How many?' };
    expect(countPromptTokens(prompt, 'gpt-4o-mini')).toBe(countChatTokens(buildMessages(prompt), 'gpt-4o-mini'));
    expect(countPromptTokens({ system: '', user: 'How many?' }, 'gpt-4o-mini')).toBe(
      countChatTokens([{ role: 'user', content: 'How many?' }], 'gpt-4o-mini'),
    );
    const merged = countPromptTokens(prompt, 'gpt-4o-mini', 'merge');
    expect(merged).toBe(countChatTokens(buildMessages(prompt, 'merge'), 'gpt-4o-mini'));
    expect(merged).toBeLessThan(countPromptTokens(prompt, 'gpt-4o-mini')); // one message framed, not two
  });
});

describe('tokenCounter: the adaptive design’s counter with the model’s encoding', () => {
  it('counts prompts and texts as countPromptTokens and countTokens do', () => {
    const counter: TokenCounter = tokenCounter('gpt-4');
    const prompt = { system: 'Answer with a number.', user: 'こんにちは世界、お元気ですか' };
    expect(counter.prompt(prompt)).toBe(countPromptTokens(prompt, 'gpt-4'));
    expect(counter.text(prompt.user)).toBe(10);
  });
});

describe('lazy loading', () => {
  it('loading the CLI does not load the encoder; the first count does', () => {
    const script = `
      const { createRequire } = await import('node:module');
      const loaded = () => Object.keys(createRequire(import.meta.url).cache).some((k) => k.includes('gpt-tokenizer'));
      await import(${JSON.stringify(join(ROOT, 'src/cli/program.ts'))});
      const { countTokens } = await import(${JSON.stringify(join(ROOT, 'src/spend/tokenizer.ts'))});
      const before = loaded();
      countTokens('hello world');
      console.log(JSON.stringify({ before, after: loaded() }));
    `;
    const result = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout.trim())).toEqual({ before: false, after: true });
  });
});
