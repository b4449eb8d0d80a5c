/**
 * The three CCB sweeps in-process (no Vitest), for `node --cpu-prof`: where a replication's task CPU goes.
 *
 *   node --import tsx --cpu-prof --cpu-prof-dir=/tmp/prof scripts/perf/profile-ccb.ts [trialsPerCell=40]
 */
import { fitRetentionSweep, runCell } from '../../src/assays/sweep/index.js';
import { createSubject } from '../../src/subjects/index.js';
import { resolveTask } from '../../src/tasks/registry.js';

const trials = Number(process.argv[2] ?? 40);
const subject = await createSubject('sim:default');
for (const id of ['d1', 'd2', 'd3']) {
  const task = resolveTask(id);
  const t0 = performance.now();
  const cells = [];
  for (const level of task.levels.values) {
    cells.push(
      await runCell({ project: id, task, level, trials }, subject, { concurrency: 8, maxMissingFraction: 0.1 }),
    );
  }
  const t1 = performance.now();
  fitRetentionSweep(cells, { project: id, missing: 'paper', seed: 0 });
  console.log(`${id}: cells ${(t1 - t0).toFixed(0)} ms; fit ${(performance.now() - t1).toFixed(0)} ms`);
}
