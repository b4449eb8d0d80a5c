import { describe, expect, it } from 'vitest';
import { fitRetentionSweep } from '../../src/assays/sweep/fit-retention.js';
import { runCell } from '../../src/assays/sweep/run-cell.js';
import type { CellResult } from '../../src/schema/cell.js';
import { createSubject } from '../../src/subjects/index.js';
import type { Subject } from '../../src/subjects/subject.js';
import type { MissingRule } from '../../src/tasks/outcome.js';
import { resolveTask } from '../../src/tasks/registry.js';

// Issue 18, Deliver 8: a model that refuses every prompt (content null + refusal) leaves no trial that the
// paper's missing rule counts; the fit must say insufficient, with the reason, never `ok` with p_d 0.5.

const refuser: Subject = {
  identity: { spec: 'test:refuser', kind: 'openai', model: 'refuser', endpoint: 'http://127.0.0.1', parameters: {} },
  async answer() {
    return {
      kind: 'answer',
      text: '',
      refusal: "I can't help with that.",
      finishReason: 'stop',
      usage: null,
      latencyMs: 0,
      cacheHit: false,
      attempts: 1,
    };
  },
};

/** The cells are judged under the rule their fit uses, as a run does (config.missing for both). */
async function sweep(missing: MissingRule = 'paper'): Promise<CellResult[]> {
  const task = resolveTask('d2');
  const cells: CellResult[] = [];
  for (const level of [5, 10])
    cells.push(
      await runCell({ project: 'd2', task, level, trials: 4 }, refuser, {
        concurrency: 2,
        maxMissingFraction: 0.2,
        missing,
      }),
    );
  return cells;
}

describe('fit on zero counted trials', () => {
  it("is insufficient under the paper rule, with the reason; every trial is a refusal, not 'api'", async () => {
    const cells = await sweep();
    const trials = cells.flatMap((c) => c.trials);
    expect(trials.every((t) => t.outcome.kind === 'format' && t.refusal !== undefined)).toBe(true);
    const fit = fitRetentionSweep(cells, { project: 'd2', missing: 'paper', seed: 1 });
    expect(fit.status).toBe('insufficient');
    expect(fit.insufficientReason).toMatch(/no counted trials: 0 of 8 trials are Correct, Reasoning or Constraint/);
    expect(fit.counts.every((c) => c.n === 0)).toBe(true);
  });

  it('counts the refusals under the release rule (every trial but API), so that fit is ok', async () => {
    const fit = fitRetentionSweep(await sweep('release'), { project: 'd2', missing: 'release', seed: 1 });
    expect(fit.status).toBe('ok');
    expect(fit.insufficientReason).toBeUndefined();
    expect(fit.atLowerBound).toBe(true); // 0 correct of 8 counted: p_d at the estimator's lower bound
  });

  it('shows the refusal rate beside p_d; a sweep without refusals has no refusalRate (its report bytes unchanged)', async () => {
    const fit = fitRetentionSweep(await sweep(), { project: 'd2', missing: 'paper', seed: 1 });
    expect(fit.refusalRate).toBe(1);
    const task = resolveTask('d2');
    const plain = await runCell({ project: 'd2', task, level: 5, trials: 2 }, await createSubject('oracle'), {
      concurrency: 1,
      maxMissingFraction: 0.2,
    });
    expect('refusalRate' in fitRetentionSweep([plain], { project: 'd2', missing: 'paper', seed: 1 })).toBe(false);
  });
});
