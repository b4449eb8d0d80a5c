import { describe, expect, it } from 'vitest';
import { fitRetentionSweep } from '../../src/assays/sweep/fit-retention.js';
import { runCell } from '../../src/assays/sweep/run-cell.js';
import type { CellResult } from '../../src/schema/cell.js';
import { createSubject } from '../../src/subjects/index.js';
import type { Subject } from '../../src/subjects/subject.js';
import { withResponseChannels } from '../../src/tasks/final-answer.js';
import { resolveTask } from '../../src/tasks/registry.js';
import { REASONING_WRAPPERS, type ReasoningWrapper } from '../tasks/reasoning-wrappers.js';

// p_d cannot inflate through missing data (issue 16): reasoning in front of every response of a model with known
// retention 0.95 — in every delimiter of the table, both Harmony forms and a user's own (issue 27) — must leave the
// fit, and the Format count, exactly where they were.

const DEPTHS = [5, 10, 15, 20];
const TRIALS = 100;
const PROSE =
  'Let me think about this carefully. I will apply each operation in turn, keep the full state in mind, ' +
  'and write out the trace only when I am sure of every step.';

const DRAFT =
  'Draft: 1. TRACE: ["Step 1: [[9, 8, 7], [6, 5, 4], [3, 2, 1]]"]\n2. ANSWER: [[9, 8, 7], [6, 5, 4], [3, 2, 1]]';

/** The same subject, with reasoning (prose and a draft that says otherwise) before every answer. */
function thinking(subject: Subject, wrapper: ReasoningWrapper): Subject {
  return {
    identity: subject.identity,
    async answer(request) {
      const response = await subject.answer(request);
      if (response.kind !== 'answer') return response;
      return { ...response, text: wrapper.closed(DRAFT, response.text, `${PROSE}\n`) };
    },
  };
}

async function sweep(subject: Subject, project: string, wrapper?: ReasoningWrapper): Promise<CellResult[]> {
  const task = withResponseChannels(resolveTask('d1'), wrapper?.delimiters ?? []);
  const cells: CellResult[] = [];
  for (const level of DEPTHS) {
    cells.push(
      await runCell({ project, task, level, trials: TRIALS }, subject, { concurrency: 8, maxMissingFraction: 0.2 }),
    );
  }
  return cells;
}

describe('reasoning markup cannot inflate p_d', () => {
  it.each(REASONING_WRAPPERS.map((w) => [w.name, w] as const))(
    'sim:retention?p=0.95 behind %s reasoning: same p_d, CI holds 0.95, no trial turns Format',
    async (_name, wrapper) => {
      const sim = await createSubject('sim:retention?p=0.95', { seed: 1 });
      plain ??= await sweep(sim, 'd1');
      const wrapped = await sweep(thinking(sim, wrapper), 'd1', wrapper);
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
      expect(trials.every((t) => t.reasoning?.sources.includes('inline') && !t.reasoning.unclosed)).toBe(true);
    },
  );
});

/** The plain sweep, run once for every wrapper's comparison. */
let plain: CellResult[] | undefined;
