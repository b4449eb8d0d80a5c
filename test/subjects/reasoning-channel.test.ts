import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTrial } from '../../src/assays/sweep/run-trial.js';
import { PyRandom } from '../../src/rng/index.js';
import { trialRecordSchema } from '../../src/schema/trial.js';
import { readCompletion } from '../../src/subjects/openai/completion.js';
import type { Subject, TrialResponse } from '../../src/subjects/subject.js';
import { fakeStepsPlugin } from '../support/fake-tasks.js';
import { type LoopbackServer, startLoopbackServer } from '../support/loopback-server.js';
import { loopbackSubject, stepsRequest, tempDir } from '../support/openai-harness.js';

// Reasoning is its own channel (issue 16): read from the provider's fields and inline blocks, recorded and
// cached, never graded.

describe('readCompletion: the provider reasoning fields', () => {
  it('takes DeepSeek reasoning_content and OpenRouter reasoning beside the content', () => {
    const body = (message: Record<string, unknown>) => ({ choices: [{ message, finish_reason: 'stop' }] });
    expect(readCompletion(body({ content: 'ANSWER: 1', reasoning_content: 'first…' }))).toMatchObject({
      text: 'ANSWER: 1',
      reasoning: 'first…',
    });
    expect(readCompletion(body({ content: 'ANSWER: 1', reasoning: 'hmm' })).reasoning).toBe('hmm');
    expect(readCompletion(body({ content: 'ANSWER: 1', reasoning: null }))).not.toHaveProperty('reasoning');
  });
});

function fixedSubject(response: Omit<Extract<TrialResponse, { kind: 'answer' }>, 'kind'>): Subject {
  return {
    identity: { spec: 'fixed', kind: 'sim', parameters: {} },
    answer: async () => ({ kind: 'answer', ...response }),
  };
}

describe('runTrial: reasoning is recorded, never graded', () => {
  const instance = fakeStepsPlugin.generate(new PyRandom(3), 4, { seed: 3 });
  const right = fakeStepsPlugin.canonicalResponse(instance);
  const base = { finishReason: 'stop' as const, usage: null, latencyMs: 1, cacheHit: false, attempts: 1 };

  it('grades the text after a think block, even for a plugin that is not registered', async () => {
    const text = `<think>\nANSWER: ${instance.answer + 5}\n</think>\n${right}`;
    const record = await runTrial(fixedSubject({ ...base, text, reasoning: 'provider thoughts' }), {
      task: fakeStepsPlugin,
      instance,
      variant: 'default',
      trialIndex: 0,
    });
    expect(record.outcome.kind).toBe('correct');
    expect(record.reasoning).toEqual({
      chars: 'provider thoughts'.length + `\nANSWER: ${instance.answer + 5}\n`.length + 1,
      sources: ['provider', 'inline'],
      unclosed: false,
    });
    expect(trialRecordSchema.parse(record)).toEqual(record);
  });

  it('a response without reasoning has no reasoning field (records stay byte-identical)', async () => {
    const record = await runTrial(fixedSubject({ ...base, text: right }), {
      task: fakeStepsPlugin,
      instance,
      variant: 'default',
      trialIndex: 0,
    });
    expect(record).not.toHaveProperty('reasoning');
  });

  it('an unclosed think block is recorded as such and is not graded correct', async () => {
    const record = await runTrial(fixedSubject({ ...base, text: `<think>${right}` }), {
      task: fakeStepsPlugin,
      instance,
      variant: 'default',
      trialIndex: 0,
    });
    expect(record.outcome.kind).not.toBe('correct');
    expect(record.reasoning?.unclosed).toBe(true);
  });
});

describe('openai subject: the provider reasoning is returned and cached', () => {
  let server: LoopbackServer;
  beforeAll(async () => {
    server = await startLoopbackServer({
      answer: () => ({ text: 'ANSWER: 1', reasoningContent: 'I added the deltas.' }),
    });
  });
  afterAll(async () => server.close());

  it('keeps reasoning_content beside the text, on a fresh call and on a cache hit', async () => {
    const dir = await tempDir('cb-reasoning-');
    try {
      const subject = loopbackSubject(server.baseURL, { cacheDir: dir.path });
      const first = await subject.answer(stepsRequest(2, 11, 0));
      const again = await subject.answer(stepsRequest(2, 11, 0));
      expect(first).toMatchObject({
        kind: 'answer',
        text: 'ANSWER: 1',
        reasoning: 'I added the deltas.',
        cacheHit: false,
      });
      expect(again).toMatchObject({ kind: 'answer', reasoning: 'I added the deltas.', cacheHit: true });
    } finally {
      await dir.remove();
    }
  });
});
