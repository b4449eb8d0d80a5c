import { test } from 'vitest';
import { dualTaskRecord, runDualTaskAssay } from '../../src/assays/scc-secondary';
import { runContext } from '../../src/vitest/context';
import type { CeilingbenchMeta } from '../../src/vitest/meta';

// Dual-task interference (paper 003 Supplementary Note 7, Fig. 2F; scc.md §12): counts 32–96 (step 4) with a
// D2 (N = 10) or SAT (L2) secondary task, a length-matched code block or a second count of b. Trials per count
// and condition scale with the configured trials: round(trials / 40), at least 1 (the authors: 6).
test('scc · dual-task interference', async ({ task, signal }) => {
  const { config, subject } = await runContext();
  const result = await runDualTaskAssay(subject, {
    seed: 23 + config.seed,
    samplesPerCount: Math.max(1, Math.round(config.trials / 40)),
    concurrency: config.concurrency,
    signal,
  });
  const meta: CeilingbenchMeta = {
    record: dualTaskRecord(result),
    gates: [],
    subject: subject.identity,
    seed: config.seed,
  };
  task.meta.ceilingbench = meta;
});
