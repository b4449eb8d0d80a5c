import { describe, expect, expectTypeOf, it, type TaskMeta } from 'vitest';
import { type CeilingbenchMeta, ceilingbenchMetaSchema, ceilingbenchRecordSchema } from '../../src/schema/meta.js';
import type { SccAssayRecord, SccRecord } from '../../src/schema/report.js';
import type { SccResult } from '../../src/schema/scc.js';
import type * as vitestApi from '../../src/vitest/index.js';
import { dualTaskResult, motifResult, sccResult } from '../support/assay-results.js';
import { cell, retentionFit } from '../support/records.js';

const subject = { spec: 'sim:default', kind: 'sim' as const, parameters: {} };

describe('the meta record (src/schema/meta.ts) is the one definition', () => {
  it('covers every record kind the report sorts, once', () => {
    const kinds = ceilingbenchRecordSchema.options.map((option) =>
      'shape' in option ? option.shape.kind.value : option.options[0].shape.kind.value,
    );
    expect(kinds).toEqual(['cell', 'retention', 'collapse', 'ablation', 'scc', 'sccAssay']);
  });

  it('validates what a test leaves on task.meta', () => {
    const scc: SccRecord = {
      kind: 'scc',
      project: 'scc',
      task: 'count',
      cc: 12,
      ccLower: 12,
      ccUpper: 13,
      bounded: true,
      result: sccResult(),
    };
    const summary = { trials: 1, model: 'x', rate: null };
    const assays: SccAssayRecord[] = [
      { kind: 'sccAssay', assay: 'motif', project: 'scc', task: 'count', summary, result: motifResult() },
      { kind: 'sccAssay', assay: 'dual-task', project: 'scc', task: 'dual', summary, result: dualTaskResult() },
    ];
    const metas: CeilingbenchMeta[] = [cell(), retentionFit(), scc, ...assays].map((record) => ({
      record,
      cells: [cell()],
      gates: [],
      subject,
      seed: 0,
    }));
    for (const meta of metas) expect(ceilingbenchMetaSchema.parse(meta)).toEqual(meta);
    expect(ceilingbenchMetaSchema.safeParse({ ...metas[0], record: { ...scc, kind: 'nope' } }).success).toBe(false);
    expect(ceilingbenchMetaSchema.safeParse({ ...metas[0], record: { ...assays[0], assay: 'nope' } }).success).toBe(
      false,
    );
    // the union is keyed by assay: a motif result under the dual-task key, or an empty result, does not pass
    expect(
      ceilingbenchMetaSchema.safeParse({ ...metas[0], record: { ...assays[0], assay: 'dual-task' } }).success,
    ).toBe(false);
    expect(ceilingbenchMetaSchema.safeParse({ ...metas[0], record: { ...scc, result: {} } }).success).toBe(false);
  });

  it("is what Vitest's task.meta carries and what ceilingbench/vitest exports under its old names", () => {
    expectTypeOf<TaskMeta['ceilingbench']>().toEqualTypeOf<CeilingbenchMeta | undefined>();
    expectTypeOf<vitestApi.CeilingbenchMeta>().toEqualTypeOf<CeilingbenchMeta>();
    expectTypeOf<vitestApi.SccMetaRecord>().toEqualTypeOf<SccRecord>();
    expectTypeOf<vitestApi.SccAssayMetaRecord>().toEqualTypeOf<SccAssayRecord>();
    expectTypeOf<SccRecord['result']>().toEqualTypeOf<SccResult>();
  });
});
