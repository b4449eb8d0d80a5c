import { test } from 'vitest';
import { motifRecord, runMotifAblation } from '../../src/assays/scc-secondary';
import { runContext } from '../../src/vitest/context';
import type { CeilingbenchMeta } from '../../src/vitest/meta';

// Stimulus ablation (paper 003 Fig. 2E, Table S11; scc.md §9): the SCC ladder for each of the 11 motifs, seeds
// 7 + run seed + motif index (the authors: 7 + case index), CC relative to the baseline `a, `.
test('scc · motif ablation', async ({ task, signal }) => {
  const { config, subject } = await runContext();
  const result = await runMotifAblation(subject, { seed: 7 + config.seed, concurrency: config.concurrency, signal });
  const meta: CeilingbenchMeta = {
    record: motifRecord(result),
    gates: [],
    subject: subject.identity,
    seed: config.seed,
  };
  task.meta.ceilingbench = meta;
});
