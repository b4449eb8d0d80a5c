import { describe, expect, it } from 'vitest';
import { fitRetentionSweep } from '../../src/assays/sweep/fit-retention.js';
import { runCell } from '../../src/assays/sweep/run-cell.js';
import type { CellResult } from '../../src/schema/cell.js';
import { createSubject } from '../../src/subjects/index.js';
import type { Subject } from '../../src/subjects/subject.js';
import { resolveTask } from '../../src/tasks/registry.js';

// p_d cannot inflate through missing data (issue 16): a think block in front of every response of a model
// with known retention 0.95 must leave the fit — and the Format count — exactly where they were.

const DEPTHS = [5, 10, 15, 20];
const TRIALS = 100;
const PROSE =
  'Let me think about this carefully. I will apply each operation in turn, keep the full state in mind, ' +
  'and write out the trace only when I am sure of every step.';

/** The same subject, with a prose reasoning block (and a draft that says otherwise) before every answer. */
function thinking(subject: Subject): Subject {
  return {
    identity: subject.identity,
    async answer(request) {
      const response = await subject.answer(request);
      if (response.kind !== 'answer') return response;
      const draft =
        'Draft: 1. TRACE: ["Step 1: [[9, 8, 7], [6, 5, 4], [3, 2, 1]]"]\n2. ANSWER: [[9, 8, 7], [6, 5, 4], [3, 2, 1]]';
      return { ...response, text: `<think>\n${PROSE}\n${draft}\n</think>\n\n${response.text}` };
    },
  };
}

async function sweep(subject: Subject, project: string): Promise<CellResult[]> {
  const task = resolveTask('d1');
  const cells: CellResult[] = [];
  for (const level of DEPTHS) {
    cells.push(
      await runCell({ project, task, level, trials: TRIALS }, subject, { concurrency: 8, maxMissingFraction: 0.2 }),
    );
  }
  return cells;
}

describe('think blocks cannot inflate p_d', () => {
  it('sim:retention?p=0.95 behind a prose think block: same p_d, CI holds 0.95, no trial turns Format', async () => {
    const sim = await createSubject('sim:retention?p=0.95', { seed: 1 });
    const plain = await sweep(sim, 'd1');
    const wrapped = await sweep(thinking(sim), 'd1');
    for (const missing of ['paper', 'release'] as const) {
      const before = fitRetentionSweep(plain, { project: 'd1', missing, seed: 1 });
      const after = fitRetentionSweep(wrapped, { project: 'd1', missing, seed: 1 });
      expect(after.ci95[0]).toBeLessThanOrEqual(0.95);
      expect(after.ci95[1]).toBeGreaterThanOrEqual(0.95);
      expect(after.pd).toBe(before.pd);
      expect(after.counts).toEqual(before.counts);
    }
    const formats = (cells: CellResult[]) => cells.reduce((n, c) => n + (c.outcomes.format ?? 0), 0);
    expect(formats(wrapped)).toBe(formats(plain));
    const trials = wrapped.flatMap((c) => c.trials);
    expect(trials).toHaveLength(DEPTHS.length * TRIALS);
    expect(trials.every((t) => t.reasoning?.sources.includes('inline'))).toBe(true);
  });
});
