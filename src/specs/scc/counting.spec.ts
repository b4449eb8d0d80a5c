import { test } from 'vitest';
import { runSccAssay } from '../../src/assays/scc';
import { runContext } from '../../src/vitest/context';
import { evaluateGates } from '../../src/vitest/gates';
import type { CeilingbenchMeta } from '../../src/vitest/meta';

// The SCC counting-capacity ladder (paper 003) on the configured subject, seeded with the run seed
// (the authors' configs use seed 7 for the first model).
test('scc · counting capacity', async ({ task, signal, expect }) => {
  const { config, subject } = await runContext();
  const result = await runSccAssay(subject, { seed: 7 + config.seed, signal });
  const record = {
    kind: 'scc' as const,
    project: 'scc',
    task: 'count',
    cc: result.cc,
    ccLower: result.ccLower,
    ccUpper: result.ccUpper,
    bounded: result.bounded,
    skipped: result.skipped,
    result,
  };
  const gates = evaluateGates('scc', record, config.gates.scc);
  const meta: CeilingbenchMeta = { record, gates, subject: subject.identity, seed: config.seed };
  task.meta.ceilingbench = meta;
  const gate = config.gates.scc?.minCountingCapacity;
  if (gate !== undefined && (typeof gate === 'number' || gate.mode === 'hard')) {
    await expect(result).toHaveCountingCapacityAtLeast(typeof gate === 'number' ? gate : gate.value);
  }
});
