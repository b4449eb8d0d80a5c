import { describe, expect, it } from 'vitest';
import { fitRetentionSweep } from '../../src/assays/sweep/fit-retention.js';
import { runCell } from '../../src/assays/sweep/run-cell.js';
import { evaluateGates } from '../../src/gates/index.js';
import type { CellResult } from '../../src/schema/cell.js';
import { createSubject } from '../../src/subjects/index.js';
import { parseSubjectSpec } from '../../src/subjects/spec.js';
import type { Subject } from '../../src/subjects/subject.js';
import { generateCell } from '../../src/tasks/instances.js';
import { resolveTask } from '../../src/tasks/registry.js';

// Issue 40, Deliver 3: set-aside data counts against sufficiency. A model that answers perfectly at N ≤ 10 and with
// unformatted text from N = 15 on used to pass `d2: { minRetention: 0.9 }` with p_d 1.000 [1.000, 1.000]: under the
// default `missing: 'paper'` its Format trials left the fit, and only api/budget counted against a cell. Its deep
// cells are now insufficient, so is the fit, and the gate fails saying how much was set aside.

const DEPTHS = [5, 10, 15, 20, 25, 30, 35, 40, 45, 50];
const TRIALS = 10;
const PROSE = 'I worked through the operations one by one and I am fairly confident about where the grid ends up.';

/** The subject, by hand: the canonical answer at N ≤ 10, prose with no answer in the format from N = 15. */
async function fallsApartAtDepth(): Promise<Subject> {
  const oracle = await createSubject('oracle');
  return {
    identity: { spec: 'test:deep-format', kind: 'function', parameters: {} },
    async answer(request) {
      if (request.instance.level <= 10) return oracle.answer(request);
      return {
        kind: 'answer',
        text: PROSE,
        finishReason: 'stop',
        usage: null,
        latencyMs: 0,
        cacheHit: false,
        attempts: 1,
      };
    },
  };
}

async function sweep(subject: Subject): Promise<CellResult[]> {
  const task = resolveTask('d2');
  const cells: CellResult[] = [];
  for (const level of DEPTHS) {
    cells.push(
      await runCell({ project: 'd2', task, level, trials: TRIALS }, subject, {
        concurrency: 4,
        maxMissingFraction: 0.2,
        missing: 'paper',
      }),
    );
  }
  return cells;
}

const SUBJECTS: [string, () => Promise<Subject>][] = [
  ['a subject written by hand', fallsApartAtDepth],
  ['sim:retention?p=1&format=1&faultsFrom=15', () => createSubject('sim:retention?p=1&format=1&faultsFrom=15')],
];

describe('set-aside data counts against sufficiency (the deep-Format subject)', () => {
  it.each(SUBJECTS)('%s fails d2 minRetention 0.9 as insufficient, with the set-aside share', async (_, make) => {
    const cells = await sweep(await make());
    const fit = fitRetentionSweep(cells, { project: 'd2', missing: 'paper', seed: 1 });
    const [gate] = evaluateGates('d2', fit, { minRetention: 0.9 });
    // the behaviour first: before issue 40 this gate passed on p_d 1.000 [1.000, 1.000]
    expect({ passed: gate.passed, status: fit.status }).toEqual({ passed: false, status: 'insufficient' });
    expect(gate.estimate).toBeNull();
    expect(gate.message).toContain('d2 p_d: insufficient data (8 of 10 cell(s) insufficient');
    expect(gate.message).toContain('— levels 15, 20, 25, 30, 35, 40, 45, 50: 100% (format 10 of 10) each)');
    expect(gate.message).toContain('a gate never passes on missing or set-aside data');
    expect(fit.setAsideRate).toBe(0.8);
    expect(fit.insufficientReason).toBe(
      '8 of 10 cell(s) insufficient (too many trials missing or set aside) — levels 15, 20, 25, 30, 35, 40, 45, 50: 100% (format 10 of 10) each',
    );
    // 8 of 10 cells are 100% Format: each is insufficient, with its share recorded; N = 5 and 10 are clean
    for (const cell of cells) {
      const deep = cell.level >= 15;
      expect(cell.outcomes.format, `N=${cell.level}`).toBe(deep ? TRIALS : 0);
      expect(cell.setAside, `N=${cell.level}`).toBe(deep ? TRIALS : 0);
      expect(cell.status, `N=${cell.level}`).toBe(deep ? 'insufficient' : 'ok');
    }
  });

  it('a share at maxMissingFraction is sufficient, one trial more is not (the boundary is "more than")', async () => {
    const task = resolveTask('d2');
    const oracle = await createSubject('oracle');
    // two of ten trials unformatted (20%: at the limit), then three (30%)
    const seeds = generateCell(task, 5, 10).map((instance) => instance.seed);
    const some = (formats: number): Subject => ({
      identity: oracle.identity,
      async answer(request) {
        const response = await oracle.answer(request);
        return seeds.indexOf(request.instance.seed) < formats && response.kind === 'answer'
          ? { ...response, text: PROSE }
          : response;
      },
    });
    const cell = (formats: number) =>
      runCell({ project: 'd2', task, level: 5, trials: 10 }, some(formats), {
        concurrency: 4,
        maxMissingFraction: 0.2,
      });
    const atLimit = await cell(2);
    expect([atLimit.outcomes.format, atLimit.setAside, atLimit.status]).toEqual([2, 2, 'ok']);
    const over = await cell(3);
    expect([over.outcomes.format, over.setAside, over.status]).toEqual([3, 3, 'insufficient']);
    // under the release rule Format is a counted failure, not set aside: the same cell is sufficient
    const release = await runCell({ project: 'd2', task, level: 5, trials: 10 }, some(3), {
      concurrency: 4,
      maxMissingFraction: 0.2,
      missing: 'release',
    });
    expect([release.setAside, release.status]).toEqual([0, 'ok']);
  });

  it('sim: faultsFrom=L applies the format and truncation faults from level L on, and is validated', async () => {
    expect(parseSubjectSpec('sim:retention?p=1&format=1&faultsFrom=15')).toMatchObject({
      params: { p: 1, format: 1, faultsFrom: 15 },
    });
    expect(() => parseSubjectSpec('sim:default?faultsFrom=deep')).toThrow(/'faultsFrom'/);
    // below L the answers are those of the subject without faults, trial by trial
    const task = resolveTask('d2');
    const spec = { project: 'd2', task, level: 10, trials: 5 };
    const options = { concurrency: 2, maxMissingFraction: 0.2 };
    const late = await runCell(spec, await createSubject('sim:retention?p=0.9&format=1&faultsFrom=15'), options);
    const clean = await runCell(spec, await createSubject('sim:retention?p=0.9'), options);
    expect(late.trials.map((t) => t.outcome)).toEqual(clean.trials.map((t) => t.outcome));
  });
});
