import { describe, expect, it } from 'vitest';
import { buildReport } from '../../reporters/projections/build.js';
import {
  agentRecord,
  dualTaskRecord,
  motifRecord,
  runAgentAssay,
  runDualTaskAssay,
  runMotifAblation,
} from '../../src/assays/scc-secondary/index.js';
import type { SccAssayRecord } from '../../src/schema/report.js';
import { costOf } from '../../src/spend/price.js';
import { createSubject } from '../../src/subjects/index.js';
import type { Subject } from '../../src/subjects/subject.js';
import { cutFirstCall, emptySeen, RUN_INFO, recordEntry, recording } from '../support/spend-subjects.js';

/**
 * The secondary assays' accounts: every call of every trial is counted and priced, the cut first calls the
 * budget rule asked again at twice the budget included.
 */
const PRICE = { input: 1, output: 4 };

const assays: [string, (subject: Subject) => Promise<SccAssayRecord>][] = [
  ['dual-task', async (s) => dualTaskRecord(await runDualTaskAssay(s, { seed: 23, counts: [32, 48] }))],
  [
    'agent',
    async (s) =>
      agentRecord(await runAgentAssay(s, { seed: 17, taskSamples: 1, agentCounts: [4, 8], copyCounts: [4] })),
  ],
  [
    'motif',
    async (s) => motifRecord(await runMotifAblation(s, { seed: 7, motifs: ['baseline-a-comma'], maxLength: 64 })),
  ],
];

describe.each(assays)('%s spend', (name, runAssay) => {
  it('equals the sum of every request the subject saw, doublings included, at the price', async () => {
    const oracle = await createSubject('oracle', { cacheMode: 'off', seed: 0 });
    const seen = emptySeen();
    const record = await runAssay(recording(cutFirstCall(oracle), seen));
    const report = buildReport([recordEntry(record, oracle.identity)], {
      ...RUN_INFO,
      prices: { [oracle.identity.spec]: PRICE },
    });
    const spend = report.spend;
    if (!spend) throw new Error('no spend section');
    const tokens = { prompt: seen.prompt, cachedPrompt: 0, completion: seen.completion, reasoning: 0 };
    const entry = spend.assays.find((a) => a.assay === name);
    expect(entry).toMatchObject({ calls: seen.attempts, paid: tokens, unknownUsage: 0 });
    // the cut first calls were asked again: more requests than trials
    expect(seen.requests).toBeGreaterThan(entry?.trials ?? 0);
    expect(spend.total).toMatchObject({ calls: seen.attempts, paid: tokens });
    expect(spend.total.paid.costUsd).toBeCloseTo(costOf(tokens, PRICE), 12);
    expect(spend.priced).toBe(true);
  });
});
