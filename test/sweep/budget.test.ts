import { describe, expect, it } from 'vitest';
import { runCell } from '../../src/assays/sweep/run-cell.js';
import { createSubject } from '../../src/subjects/index.js';
import type { Subject, TrialRequest } from '../../src/subjects/subject.js';
import { resolveTask } from '../../src/tasks/registry.js';

/** The budget a sweep asks for comes from the cell's budget rule, and the cell says which rule it ran under. */
async function budgetsSent(taskId: string, level: number, budget?: string) {
  const oracle = await createSubject('oracle');
  const sent: number[] = [];
  const recording: Subject = {
    identity: oracle.identity,
    answer: (request: TrialRequest) => {
      sent.push(request.maxOutputTokens);
      return oracle.answer(request);
    },
  };
  const task = resolveTask(taskId);
  const cell = await runCell({ project: task.project, task, level, trials: 2, budget }, recording, {
    concurrency: 1,
    maxMissingFraction: 0.2,
  });
  return { cell, sent };
}

describe('output-budget rules in a sweep', () => {
  it("puzzles default to the fixed budget at every level and record it; 'per-level' sends the growing one", async () => {
    const hanoi = resolveTask('hanoi');
    const fixed = await budgetsSent('hanoi', 1);
    expect(fixed.cell.budget).toBe('fixed');
    expect(fixed.sent).toEqual([hanoi.maxOutputTokens(6, 'per-level'), hanoi.maxOutputTokens(6, 'per-level')]);
    const growing = await budgetsSent('hanoi', 1, 'per-level');
    expect(growing.cell.budget).toBe('per-level');
    expect(growing.sent).toEqual([hanoi.maxOutputTokens(1, 'per-level'), hanoi.maxOutputTokens(1, 'per-level')]);
    expect(growing.sent[0]).toBeLessThan(fixed.sent[0] ?? 0);
  });

  it('a task with one budget rule records none; an unknown rule is a usage error naming the choices', async () => {
    const { cell } = await budgetsSent('d2', 5);
    expect('budget' in cell).toBe(false);
    await expect(budgetsSent('hanoi', 1, 'growing')).rejects.toThrow(
      /unknown budget 'growing'; use one of fixed, per-level/,
    );
    await expect(budgetsSent('d2', 5, 'fixed')).rejects.toThrow(/unknown budget 'fixed'/);
  });
});
