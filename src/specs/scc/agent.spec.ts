import { test } from 'vitest';
import { agentRecord, runAgentAssay } from '../../src/assays/scc-secondary';
import { runContext } from '../../src/vitest/context';
import type { CeilingbenchMeta } from '../../src/vitest/meta';

// Agent-operation assay (paper 003 Supplementary Note 8, Tables S9–S10; scc.md §11): four conditions, marker
// counts on the authors' jittered 50–1000 ladders (seed 17 + run seed, salted with the subject's model). Agent
// tasks scale with the configured trials: round(6 · trials / 40), between 1 and 6 (the authors: 6).
test('scc · agent operation', async ({ task, signal }) => {
  const { config, subject } = await runContext();
  const result = await runAgentAssay(subject, {
    seed: 17 + config.seed,
    taskSamples: Math.min(6, Math.max(1, Math.round((6 * config.trials) / 40))),
    concurrency: config.concurrency,
    signal,
  });
  const meta: CeilingbenchMeta = {
    record: agentRecord(result),
    gates: [],
    subject: subject.identity,
    seed: config.seed,
  };
  task.meta.ceilingbench = meta;
});
