import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { sccRecordOf } from '../../src/assays/scc/record.js';
import { runSccAssay } from '../../src/assays/scc/run.js';
import { runAgentAssay, runDualTaskAssay, runMotifAblation } from '../../src/assays/scc-secondary/index.js';
import { agentRecord, dualTaskRecord, motifRecord } from '../../src/assays/scc-secondary/records.js';
import {
  publishedReportSchema,
  sccAssayResultRecordSchema,
  sccResultRecordSchema,
} from '../../src/schema/assay-results.js';
import { createSubject } from '../../src/subjects/index.js';

describe('one schema per assay result', () => {
  it("an SCC ladder's record and each secondary assay's record match their result schema", async () => {
    const subject = await createSubject('sim:counting?cc=64');
    const ladder = sccRecordOf(await runSccAssay(subject, { seed: 7 }));
    expect(sccResultRecordSchema.safeParse(ladder).error).toBeUndefined();
    const records = [
      motifRecord(await runMotifAblation(subject, { seed: 7, motifs: ['baseline-a-comma', 'letter-b-comma'] })),
      dualTaskRecord(await runDualTaskAssay(subject, { seed: 23, counts: [32, 36], samplesPerCount: 1 })),
      agentRecord(
        await runAgentAssay(subject, { seed: 17, taskSamples: 1, agentCounts: [50, 60], copyCounts: [50, 60] }),
      ),
    ];
    expect(records.map((r) => sccAssayResultRecordSchema.parse(r).assay)).toEqual(['motif', 'dual-task', 'agent']);
    // the union is keyed by assay: a motif result under the dual-task key does not pass
    expect(sccAssayResultRecordSchema.safeParse({ ...records[0], assay: 'dual-task' }).success).toBe(false);
  }, 60_000);

  it('the published JSON Schema describes every assay result', () => {
    const schema = z.toJSONSchema(publishedReportSchema, { unrepresentable: 'any' }) as {
      properties: Record<string, { items: Record<string, unknown> }>;
    };
    const scc = JSON.stringify(schema.properties.scc.items);
    for (const field of ['tiers', 'formatAudit', 'learnedMaxOutputTokens', 'preflightPolicy'])
      expect(scc).toContain(field);
    const secondary = schema.properties.sccAssays.items as { oneOf?: unknown[]; anyOf?: unknown[] };
    const options = secondary.oneOf ?? secondary.anyOf ?? [];
    expect(options).toHaveLength(3);
    const text = JSON.stringify(options);
    for (const field of ['baselineMotif', 'samplesPerCount', 'ladderModel']) expect(text).toContain(field);
  });
});
