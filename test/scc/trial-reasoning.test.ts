import { describe, expect, it } from 'vitest';
import { runSccTrial } from '../../src/assays/scc/trial.js';
import type { Subject, TrialResponse } from '../../src/subjects/subject.js';
import { countInstance } from '../../src/tasks/count/plugin.js';

/** A subject that answers every request with the given texts in turn (the last one repeated). */
function scripted(
  ...answers: Array<Pick<Extract<TrialResponse, { kind: 'answer' }>, 'text' | 'finishReason'>>
): Subject {
  let call = 0;
  return {
    identity: { spec: 'scripted', kind: 'oracle', parameters: {} },
    answer: async () => {
      const a = answers[Math.min(call++, answers.length - 1)]!;
      return { kind: 'answer', ...a, usage: null, latencyMs: 0, cacheHit: false, attempts: 1 };
    },
  };
}

const trial = (subject: Subject) =>
  runSccTrial({
    subject,
    taskId: 'count',
    instance: countInstance(40, 32, 1),
    prompt: { system: '', user: 'count' },
    trialIndex: 0,
    budget: 100,
    retryMaxOutputTokens: 400,
    signal: new AbortController().signal,
  });

describe('an SCC trial reads its count from the final answer only', () => {
  it('a draft count inside a think block never decides: the answer after it does', async () => {
    const right = await trial(scripted({ text: '<think>I count 39 of them.</think>\n40', finishReason: 'stop' }));
    expect(right).toMatchObject({ parsed: 40, exact: true });
    const wrong = await trial(scripted({ text: '<think>It is 40.</think>\n41', finishReason: 'stop' }));
    expect(wrong).toMatchObject({ parsed: 41, exact: false });
  });

  it('an output cut off inside an unclosed think block has no count, even with the right number in the draft', async () => {
    const record = await trial(scripted({ text: '<think>so far 40 items, let me recount', finishReason: 'length' }));
    expect(record?.parsed).toBeNull();
    expect(record?.exact).toBe(false);
    // The budget rule saw no answer either: it doubled up to the ceiling (100 → 200 → 400).
    expect(record?.retryCount).toBe(2);
  });
});
