import { fitCollapseSweep } from '../../src/assays/sweep/fit-collapse.js';
import { fitRetentionSweep } from '../../src/assays/sweep/fit-retention.js';
import { runCell } from '../../src/assays/sweep/run-cell.js';
import type { LeaderboardSubject } from '../../src/leaderboard/index.js';
import type { CellResult } from '../../src/schema/cell.js';
import { createSubject } from '../../src/subjects/index.js';
import type { Subject } from '../../src/subjects/subject.js';
import { generateCell } from '../../src/tasks/instances.js';
import { resolveTask } from '../../src/tasks/registry.js';
import type { TaskInstance } from '../../src/tasks/task.js';

/** As describeSweep seeds a run's instances (src/vitest/context.ts seedOffsetFor). */
const seedOffsetFor = (runSeed: number) => runSeed * 1_000_000;

const instanceCache = new Map<string, TaskInstance[]>();

function instancesFor(taskId: string, level: number, trials: number, seedOffset: number): TaskInstance[] {
  const key = `${taskId}|${level}|${trials}|${seedOffset}`;
  let instances = instanceCache.get(key);
  if (!instances) {
    const task = resolveTask(taskId);
    instances = generateCell(task, level, trials, { profile: task.profiles[0], seedOffset });
    instanceCache.set(key, instances);
  }
  return instances;
}

export interface SimRun {
  /** Subject spec; a sim subject without `seed=` takes the run seed, as in a run. */
  spec: string;
  runSeed: number;
  tasks: string[];
  trials: number;
  /** Default: each task's levels. */
  levels?: number[];
  /** Replace the subject (e.g. one whose trials are never sent). */
  wrap?: (subject: Subject) => Subject;
}

/** One subject's records as a run of describeSweep would make them: cells, then each task's fit. */
export async function simRecords(run: SimRun): Promise<LeaderboardSubject> {
  const created = await createSubject(run.spec, { seed: run.runSeed });
  const subject = run.wrap ? run.wrap(created) : created;
  const seedOffset = seedOffsetFor(run.runSeed);
  const records: LeaderboardSubject = {
    subject: run.spec,
    seed: run.runSeed,
    cells: [],
    fits: [],
    collapse: [],
    scc: [],
  };
  for (const taskId of run.tasks) {
    const task = resolveTask(taskId);
    const cells: CellResult[] = [];
    for (const level of run.levels ?? task.levels.values) {
      cells.push(
        await runCell({ project: task.project, task, level, trials: run.trials, seedOffset }, subject, {
          concurrency: 8,
          maxMissingFraction: 0.2,
          instances: instancesFor(taskId, level, run.trials, seedOffset),
        }),
      );
    }
    records.cells.push(...cells);
    if (task.analysis === 'retention') {
      records.fits.push(fitRetentionSweep(cells, { project: task.project, missing: 'paper', seed: run.runSeed }));
    } else {
      records.collapse.push(fitCollapseSweep(cells, { project: task.project, seed: run.runSeed }));
    }
  }
  return records;
}

/** A subject none of whose trials is sent (outcome `budget` everywhere): the records of a run stopped at once. */
export const neverSent = (subject: Subject): Subject => ({
  identity: subject.identity,
  async answer() {
    return { kind: 'not-sent', reason: 'spending limit reached', latencyMs: 0, attempts: 0 };
  },
});
