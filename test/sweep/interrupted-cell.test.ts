import { describe, expect, it } from 'vitest';
import { runCell } from '../../src/assays/sweep/run-cell.js';
import type { CellResult } from '../../src/schema/cell.js';
import { createSubject } from '../../src/subjects/index.js';
import type { Subject, TrialResponse } from '../../src/subjects/subject.js';
import { resolveTask } from '../../src/tasks/registry.js';

/**
 * Issue 42 item 4: a cancelled run (Ctrl-C, SIGTERM) ended a cell's test at once and its trials were absent from
 * the report, and the requests in flight were left to the endpoint. Now the cell as it stands is recorded when the
 * signal aborts: the trials that finished as graded, the one in flight (its request aborted through the same
 * signal) and those never started as `budget` with `interrupted` — missing data, never failures — whatever their
 * answers would have been.
 */

/** Vitest's reason when a run is cancelled (src/vitest/interrupt-state.ts reads its name). */
const runCancel = () =>
  Object.assign(new Error('The test run was aborted by the user.'), { name: 'TestRunAbortError' });

/**
 * The oracle (every answer right) or a wrong answerer, that answers the first `answered` trials and holds the next
 * one open until its signal aborts; it records what it saw.
 */
async function holding(answered: number, wrong: boolean) {
  const oracle = await createSubject('oracle');
  const seen = { asked: 0, aborted: 0 };
  let release: () => void = () => {};
  const holdingOne = new Promise<void>((resolve) => {
    release = resolve;
  });
  const subject: Subject = {
    identity: oracle.identity,
    async answer(request): Promise<TrialResponse> {
      seen.asked += 1;
      if (seen.asked > answered) {
        release();
        await new Promise<void>((resolve) => {
          request.signal?.addEventListener('abort', () => {
            seen.aborted += 1;
            resolve();
          });
        });
        return { kind: 'error', error: 'aborted by the caller', latencyMs: 0, attempts: 1 };
      }
      const r = await oracle.answer(request);
      return wrong && r.kind === 'answer' ? { ...r, text: 'ANSWER: 0' } : r;
    },
  };
  return { subject, seen, holdingOne };
}

async function cutCell(wrong: boolean) {
  const task = resolveTask('d2');
  const { subject, seen, holdingOne } = await holding(3, wrong);
  const controller = new AbortController();
  const cuts: Array<{ cell: CellResult; reason: unknown }> = [];
  const running = runCell({ project: 'd2', task, level: 5, trials: 10 }, subject, {
    concurrency: 1,
    maxMissingFraction: 0.2,
    signal: controller.signal,
    onCut: (cell, reason) => cuts.push({ cell, reason }) > 0,
  });
  await holdingOne;
  controller.abort(runCancel());
  // recorded synchronously, while the test is being ended
  expect(cuts).toHaveLength(1);
  await expect(running).rejects.toThrow(/aborted by the user/);
  return { cell: cuts[0].cell, reason: cuts[0].reason, seen };
}

describe('a cell cut by a cancelled run', () => {
  it('keeps the trials that finished; the one in flight (aborted) and those not started are `budget`, interrupted', async () => {
    const { cell, reason, seen } = await cutCell(false);
    expect((reason as Error).name).toBe('TestRunAbortError');
    expect(seen).toEqual({ asked: 4, aborted: 1 });
    expect(cell.n).toBe(10);
    expect(cell.trials.map((t) => t.interrupted ?? t.outcome.kind)).toEqual([
      ...Array(3).fill('correct'),
      'in-flight',
      ...Array(6).fill('not-sent'),
    ]);
    for (const t of cell.trials.slice(3)) expect(t.outcome.kind).toBe('budget');
    expect(cell.missing).toBe(7);
    expect(cell.status).toBe('insufficient');
  });

  it('counts the same trials whatever the answers were (right or wrong): whether a trial counts is not its grade', async () => {
    const right = await cutCell(false);
    const wrong = await cutCell(true);
    const shape = (c: CellResult) => c.trials.map((t) => [t.interrupted ?? null, t.outcome.kind === 'budget']);
    expect(shape(wrong.cell)).toEqual(shape(right.cell));
    expect(wrong.cell.missing).toBe(right.cell.missing);
    expect(wrong.cell.trials.slice(0, 3).every((t) => t.outcome.kind !== 'correct')).toBe(true);
  });

  it('every trial in flight when the signal aborts: the cell resolves to the cut, never to `api` answers', async () => {
    const task = resolveTask('d2');
    const { subject, seen } = await holding(0, false);
    const controller = new AbortController();
    const running = runCell({ project: 'd2', task, level: 5, trials: 4 }, subject, {
      concurrency: 4,
      maxMissingFraction: 0.2,
      signal: controller.signal,
      onCut: () => true,
    });
    while (seen.asked < 4) await new Promise((r) => setTimeout(r, 1));
    controller.abort(runCancel());
    const cell = await running;
    expect(seen.aborted).toBe(4);
    expect(cell.trials.map((t) => [t.outcome.kind, t.interrupted])).toEqual(Array(4).fill(['budget', 'in-flight']));
  });

  it('a cell that finished before the abort is not cut; without onCut an abort records nothing (as before)', async () => {
    const task = resolveTask('d2');
    const oracle = await createSubject('oracle');
    const controller = new AbortController();
    const cuts: CellResult[] = [];
    const cell = await runCell({ project: 'd2', task, level: 5, trials: 4 }, oracle, {
      concurrency: 2,
      maxMissingFraction: 0.2,
      signal: controller.signal,
      onCut: (c) => cuts.push(c) > 0,
    });
    controller.abort(runCancel());
    expect(cuts).toEqual([]);
    expect(cell.trials.every((t) => t.interrupted === undefined)).toBe(true);
  });
});
