import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PyRandom } from '../../src/rng/index.js';
import { countInstance, countPlugin } from '../../src/tasks/count/plugin.js';
import {
  COUNT_SYSTEM_PROMPT,
  countPrompt,
  countUserPrompt,
  inlinePrompt,
  MOTIFS,
} from '../../src/tasks/count/stimulus.js';
import { targetRange } from '../../src/tasks/ladder-targets.js';
import { nestedNegativeCount, nestedUserPrompt } from '../../src/tasks/nested/generate.js';
import { nestedPlugin } from '../../src/tasks/nested/plugin.js';

const prompts = JSON.parse(readFileSync(new URL('../../fixtures/scc/prompts.json', import.meta.url), 'utf8'));
const rngVectors = JSON.parse(readFileSync(new URL('../../fixtures/scc/python_rng.json', import.meta.url), 'utf8'));
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

describe('SCC prompts (prompts.json)', () => {
  it('uses the system instruction verbatim', () => {
    expect(COUNT_SYSTEM_PROMPT).toBe(prompts.system);
  });

  it('renders the user examples and the Google inline fallback', () => {
    for (const example of prompts.scc_user_examples) {
      expect(countUserPrompt(example.n)).toBe(example.user);
    }
    expect(inlinePrompt(countPrompt(8))).toBe(prompts.google_inline_fallback_example);
  });

  it('renders all eleven motifs of the stimulus ablation', () => {
    expect(MOTIFS.map((m) => m.id)).toEqual(prompts.stimulus_user_examples.map((e: { id: string }) => e.id));
    for (const example of prompts.stimulus_user_examples) {
      const rendered = countPlugin.render(countInstance(example.n, example.n, 0), example.id);
      expect(rendered.user).toBe(example.user);
    }
  });

  it('matches the SHA-256 of the long user prompts', () => {
    for (const [n, digest] of Object.entries(prompts.scc_user_sha256)) {
      expect(sha256(countUserPrompt(Number(n)))).toBe(digest);
    }
  });

  it('canonical response is the exact count and grades exact', () => {
    const instance = countInstance(37, 32, 0);
    expect(countPlugin.canonicalResponse(instance)).toBe('37');
    const outcome = countPlugin.grade(instance, '37');
    expect(outcome).toMatchObject({
      family: 'count',
      kind: 'exact',
      parsed: 37,
      relativeError: 0,
      format: 'single-integer',
    });
    // an approximation is no exact count (docs/outputs.md); the authors' parser reads its last integer
    expect(countPlugin.grade(instance, 'about 37').kind).toBe('unparsed');
    expect(countPlugin.grade(instance, 'about 40', { reading: 'authors' }).kind).toBe('inexact');
    expect(countPlugin.grade(instance, '').kind).toBe('unparsed');
    expect(countPlugin.maxOutputTokens(32)).toBe(4096);
  });
});

describe('nested key-path prompts (Supplementary Note 5)', () => {
  it('reproduces the full texts for x = 8 and 32', () => {
    for (const [x, entry] of Object.entries(prompts.nested_full) as [
      string,
      { negative_count: number; user: string },
    ][]) {
      expect(nestedNegativeCount(Number(x))).toBe(entry.negative_count);
      expect(nestedUserPrompt(Number(x))).toBe(entry.user);
    }
  });

  it('matches negative count, length and SHA-256 for x = 25…39, 416, 448, 1000', () => {
    for (const [x, entry] of Object.entries(prompts.nested_sha256) as [
      string,
      { negative_count: number; chars: number; sha256: string },
    ][]) {
      const user = nestedUserPrompt(Number(x));
      expect(nestedNegativeCount(Number(x))).toBe(entry.negative_count);
      expect(user.length).toBe(entry.chars);
      expect(sha256(user)).toBe(entry.sha256);
    }
  });

  it('string seeds give the CPython stream', () => {
    for (const vector of rngVectors.str_seeds) {
      const rng = new PyRandom(vector.seed);
      expect(vector.first_getrandbits32.map(() => rng.getrandbits(32))).toEqual(vector.first_getrandbits32);
    }
  });

  it('the nested plugin renders under the counting system prompt', () => {
    const instance = nestedPlugin.generate(new PyRandom(7), 32, { seed: 7 });
    expect(instance.answer).toBeGreaterThanOrEqual(25);
    expect(instance.answer).toBeLessThanOrEqual(39);
    expect(nestedPlugin.render(instance).system).toBe(COUNT_SYSTEM_PROMPT);
  });
});

describe('ladder targets (python_rng.json)', () => {
  it('draws the 16 targets of each tier with randint(floor(0.8L), ceil(1.2L))', () => {
    for (const vector of rngVectors.int_seeds) {
      const rng = new PyRandom(vector.seed);
      for (const tier of vector.ladder_draws_in_order) {
        expect(targetRange(tier.center_length)).toEqual({ low: tier.low, high: tier.high });
        const draws = Array.from({ length: 16 }, () => rng.randint(tier.low, tier.high));
        expect(draws).toEqual(tier.randint16);
      }
    }
  });

  it('count plugin generates one target per instance from the same stream', () => {
    const rng = new PyRandom(7);
    expect(countPlugin.generate(rng, 32, { seed: 7 }).answer).toBe(30);
  });
});
