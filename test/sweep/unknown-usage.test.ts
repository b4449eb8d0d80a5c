import { describe, expect, it } from 'vitest';
import { runCell } from '../../src/assays/sweep/run-cell.js';
import { createSubject } from '../../src/subjects/index.js';
import type { Subject, TrialRequest } from '../../src/subjects/subject.js';
import { resolveTask } from '../../src/tasks/registry.js';

// A provider that sends no `usage` (Ollama, some proxies): the trial's tokens are unknown, not 0. The cell's sums
// cover the trials that reported usage, and say how many did not.
describe('cell token totals with unknown usage', () => {
  it('counts answered trials without usage apart; a cell where every trial reported usage has no such field', async () => {
    const oracle = await createSubject('oracle');
    let calls = 0;
    const halfSilent: Subject = {
      identity: oracle.identity,
      async answer(request: TrialRequest) {
        const response = await oracle.answer(request);
        calls++;
        if (response.kind !== 'answer' || calls % 2 === 0) return response;
        return { ...response, usage: null };
      },
    };
    const task = resolveTask('d2');
    const run = (subject: Subject) =>
      runCell({ project: 'd2', task, level: 5, trials: 4 }, subject, { concurrency: 1, maxMissingFraction: 0.2 });
    const mixed = await run(halfSilent);
    const reported = mixed.trials.filter((t) => t.usage !== null);
    expect(mixed.tokens.unknownUsage).toBe(2);
    expect(mixed.tokens.completion).toBe(reported.reduce((sum, t) => sum + (t.usage?.completionTokens ?? 0), 0));
    expect('unknownUsage' in (await run(oracle)).tokens).toBe(false);
  });
});
