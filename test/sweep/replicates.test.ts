import { describe, expect, it } from 'vitest';
import { fitCollapseSweep } from '../../src/assays/sweep/fit-collapse.js';
import { runCell } from '../../src/assays/sweep/run-cell.js';
import { clopperPearson } from '../../src/stats/index.js';
import { createSubject } from '../../src/subjects/index.js';
import type { Subject, SubjectIdentity } from '../../src/subjects/subject.js';
import { resolveTask } from '../../src/tasks/registry.js';

// Issue 40, Deliver 5: replicates that cannot differ are not independent. At temperature 0 the fixed-instance puzzle
// levels (hanoi, checkers, river, jug) get byte-identical answers for every replicate; the cell's interval used to be
// computed as if n were the trial count ([0, 0.088] at 40 trials from what is one sample).

const TRIALS = 40;
const atTemperatureZero: SubjectIdentity = {
  spec: 'openai:local',
  kind: 'openai',
  model: 'local',
  parameters: { temperature: 0 },
};
const unknownSampling: SubjectIdentity = { spec: 'module:./mine.ts', kind: 'function', parameters: {} };

/** Answers every request with the same text: a deterministic server. */
const constant = (identity: SubjectIdentity, text: string): Subject => ({
  identity,
  async answer() {
    return { kind: 'answer', text, finishReason: 'stop', usage: null, latencyMs: 0, cacheHit: false, attempts: 1 };
  },
});

/** The oracle's answer under another identity (a model that solves the puzzle, deterministically). */
async function solving(identity: SubjectIdentity): Promise<Subject> {
  const oracle = await createSubject('oracle');
  return { identity, answer: (request) => oracle.answer(request) };
}

const cellOf = (task: string, level: number, subject: Subject) =>
  runCell({ project: 'puzzles', task: resolveTask(task), level, trials: TRIALS }, subject, {
    concurrency: 8,
    maxMissingFraction: 0.2,
  });

describe('replicates that cannot differ are one sample', () => {
  it.each(['hanoi', 'checkers', 'river', 'jug'])(
    '%s at temperature 0, identical wrong answers: one sample, the interval of 0 of 1, not of 0 of 40',
    async (task) => {
      const cell = await cellOf(task, 3, constant(atTemperatureZero, 'moves = []'));
      expect(cell.successes).toBe(0);
      expect(cell.ci95).toEqual(clopperPearson(0, 1)); // [0, 0.975], never [0, 0.088]
      expect(cell.samples).toEqual({
        reason: 'temperature 0',
        distinct: 1,
        trials: TRIALS,
        outcomes: { [cell.trials[0].outcome.kind]: 1 },
      });
      // the accuracy is the share of the trials, as before: the same for one sample or forty identical ones
      expect(cell.accuracy).toBe(0);
    },
  );

  it('a right answer every time is one sample too: 1 of 1, [0.025, 1], and the collapse fit counts it once', async () => {
    const cell = await cellOf('hanoi', 2, await solving(atTemperatureZero));
    expect([cell.accuracy, cell.successes]).toEqual([1, TRIALS]);
    expect(cell.ci95).toEqual(clopperPearson(1, 1));
    expect(cell.samples?.distinct).toBe(1);
    const fit = fitCollapseSweep([cell], { project: 'puzzles', seed: 1 });
    expect(fit.levels[0]).toMatchObject({ correct: 1, n: 1, accuracy: 1 });
  });

  it('without temperature 0, identical answers observed for every replicate say the same', async () => {
    const cell = await cellOf('hanoi', 3, await solving(unknownSampling));
    expect(cell.samples).toMatchObject({ reason: 'identical answers', distinct: 1, trials: TRIALS });
  });

  it('replicates that did differ are independent draws: no samples record, the interval over the trials', async () => {
    const sim = await createSubject('sim:retention?p=0.9', { seed: 3 });
    const cell = await cellOf('hanoi', 3, sim);
    expect(new Set(cell.trials.map((t) => t.seed)).size).toBe(1); // one instance, 40 replicates
    expect(cell.samples).toBeUndefined();
    const answered = cell.n - cell.missing;
    expect(cell.ci95).toEqual(clopperPearson(cell.successes, answered));
  });

  it('distinct instances are never merged, even at temperature 0 and with the same answer text', async () => {
    const cell = await runCell(
      { project: 'd2', task: resolveTask('d2'), level: 5, trials: 10 },
      constant(atTemperatureZero, 'ANSWER: [[1, 2, 3], [4, 5, 6], [7, 8, 9]]'),
      { concurrency: 4, maxMissingFraction: 1 },
    );
    expect(new Set(cell.trials.map((t) => t.seed)).size).toBe(10);
    expect(cell.samples).toBeUndefined();
  });
});
