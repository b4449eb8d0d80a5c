import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { sccRecordOf } from '../../src/assays/scc/record.js';
import { runSccAssay } from '../../src/assays/scc/run.js';
import { runAgentAssay, runDualTaskAssay, runMotifAblation } from '../../src/assays/scc-secondary/index.js';
import { agentRecord, dualTaskRecord, motifRecord } from '../../src/assays/scc-secondary/records.js';
import { ASSAY_NAMES, ASSAY_RESULTS } from '../../src/schema/assay-results.js';
import { readReport } from '../../src/schema/read-report.js';
import { type Report, reportSchema, sccAssayRecordSchema, sccRecordSchema } from '../../src/schema/report.js';
import { createSubject } from '../../src/subjects/index.js';
import { motifResult, sccResult } from '../support/assay-results.js';

type JsonSchema = {
  description?: string;
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  oneOf?: JsonSchema[];
  anyOf?: JsonSchema[];
};

describe('one schema per assay result', () => {
  it("an SCC ladder's record and each secondary assay's record match their result schema", async () => {
    const subject = await createSubject('sim:counting?cc=64');
    const ladder = sccRecordOf(await runSccAssay(subject, { seed: 7 }));
    expect(sccRecordSchema.safeParse(ladder).error).toBeUndefined();
    const records = [
      motifRecord(await runMotifAblation(subject, { seed: 7, motifs: ['baseline-a-comma', 'letter-b-comma'] })),
      dualTaskRecord(await runDualTaskAssay(subject, { seed: 23, counts: [32, 36], samplesPerCount: 1 })),
      agentRecord(
        await runAgentAssay(subject, { seed: 17, taskSamples: 1, agentCounts: [50, 60], copyCounts: [50, 60] }),
      ),
    ];
    expect(records.map((r) => sccAssayRecordSchema.parse(r).assay)).toEqual(['motif', 'dual-task', 'agent']);
    // the union is keyed by assay: a motif result under the dual-task key does not pass
    expect(sccAssayRecordSchema.safeParse({ ...records[0], assay: 'dual-task' }).success).toBe(false);
  }, 60_000);

  it('the published JSON Schema (the report schema) describes every assay result', () => {
    const schema = z.toJSONSchema(reportSchema, { unrepresentable: 'any' }) as JsonSchema;
    const props = schema.properties as Record<string, JsonSchema>;
    const ladder = props.scc.items?.properties?.result as JsonSchema;
    const secondaries = (props.sccAssays.items?.oneOf ?? props.sccAssays.items?.anyOf ?? []).map(
      (option) => option.properties as Record<string, JsonSchema & { const?: string }>,
    );
    expect(secondaries.map((p) => p.assay.const)).toEqual(['motif', 'dual-task', 'agent']);
    const results: Record<string, JsonSchema> = { scc: ladder };
    for (const p of secondaries) results[p.assay.const as string] = p.result;
    expect(Object.keys(results)).toEqual(ASSAY_NAMES);
    for (const name of ASSAY_NAMES) {
      expect(results[name].description, name).toBe(ASSAY_RESULTS[name].description);
      expect(results[name].description?.length, name).toBeGreaterThan(40);
    }
    for (const field of ['tiers', 'formatAudit', 'learnedMaxOutputTokens', 'preflightPolicy'])
      expect(Object.keys(ladder.properties ?? {})).toContain(field);
    // the ladder's headline fields say what they measure
    for (const field of ['cc', 'ccLower', 'ccUpper', 'bounded', 'calls', 'tokensSpent'])
      expect(ladder.properties?.[field]?.description, field).toMatch(/\w{4,}/);
    expect(JSON.stringify(results)).toContain('baselineMotif');
  });
});

/** A report with one SCC ladder and one motif ablation, as JSON (what a reader gets). */
function rawReport(): Record<string, unknown> & { scc: Array<Record<string, unknown>>; sccAssays: unknown[] } {
  const report: Report = {
    schemaVersion: 1,
    tool: { name: 'ceilingbench', version: '0.0.0' },
    seed: 0,
    subjects: [],
    git: { sha: null },
    projects: ['scc'],
    cells: [],
    fits: [],
    collapse: [],
    ablations: [],
    scc: [
      { kind: 'scc', project: 'scc', task: 'count', cc: 1, ccLower: 1, ccUpper: 2, bounded: true, result: sccResult() },
      {
        kind: 'scc',
        project: 'scc',
        task: 'nested',
        cc: 1,
        ccLower: 1,
        ccUpper: 2,
        bounded: true,
        result: sccResult({ task: 'nested' }),
      },
    ],
    sccAssays: [
      { kind: 'sccAssay', assay: 'motif', project: 'scc', task: 'count', summary: {}, result: motifResult() },
    ],
    gates: [],
    tests: [],
    summary: {
      cells: 0,
      trials: 0,
      missing: 0,
      missingRate: null,
      insufficientCells: 0,
      hardGatesFailed: 0,
      testsFailed: 0,
    },
    timing: { startedAt: 'x', finishedAt: 'x', durationMs: 0 },
  };
  return JSON.parse(JSON.stringify(report));
}

describe('reading a report validates each assay result (src/schema/read-report.ts)', () => {
  it('a report as written reads back whole, nothing set aside', () => {
    const read = readReport(rawReport());
    expect(read.setAside).toEqual([]);
    expect(read.success && read.data.scc.map((s) => s.result.task)).toEqual(['count', 'nested']);
  });

  it('a record whose result does not match its assay is set aside and named; the others load', () => {
    const raw = rawReport();
    (raw.scc[0].result as Record<string, unknown>).tiers = 'not a list';
    (raw.sccAssays[0] as { result: { rows: unknown } }).result.rows = [{ motif: 3 }];
    const read = readReport(raw);
    expect(read.success).toBe(true);
    if (!read.success) return;
    expect(read.data.scc.map((s) => s.task)).toEqual(['nested']);
    expect(read.data.sccAssays).toEqual([]);
    expect(read.setAside).toHaveLength(2);
    expect(read.setAside[0]).toMatch(/^scc record scc\/count set aside: .*field 'tiers': .*expected array/);
    expect(read.setAside[1]).toMatch(/^motif record scc\/count set aside: .*field 'rows\.0\.motif'/);
  });

  it('anything else that does not match fails the read, with the first bad field; nothing is set aside', () => {
    const raw = rawReport();
    raw.scc[1].cc = 'many';
    (raw.scc[0].result as Record<string, unknown>).tiers = 'not a list';
    const read = readReport(raw);
    expect(read.success).toBe(false);
    expect(read.setAside).toEqual([]);
    expect(read.success ? null : read.error.issues.map((i) => i.path.join('.'))).toContain('scc.1.cc');
  });

  it('a record of an unknown assay fails the read (it is not a result of another shape)', () => {
    const raw = rawReport();
    (raw.sccAssays[0] as { assay: string }).assay = 'telepathy';
    expect(readReport(raw).success).toBe(false);
  });
});
