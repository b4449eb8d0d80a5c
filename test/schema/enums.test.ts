import { describe, expect, expectTypeOf, it } from 'vitest';
import type { LadderPhase } from '../../src/assays/scc/ladder.js';
import type { SccTier, SccTrial } from '../../src/assays/scc/schema.js';
import type { TrialStatus } from '../../src/assays/scc/trial.js';
import { configSchema, type GateEvidence, gateValueSchema } from '../../src/config/schema.js';
import type { checkRetentionAtLeast } from '../../src/gates/checks.js';
import { ASSAY_NAMES, SCC_ASSAYS } from '../../src/schema/assay-results.js';
import { baselineSchema } from '../../src/schema/baseline.js';
import { cellResultSchema } from '../../src/schema/cell.js';
import { retentionFitSchema } from '../../src/schema/fit.js';
import { GATE_MODES, type GateResult } from '../../src/schema/gate.js';
import { sccAssayRecordSchema, spendSchema } from '../../src/schema/report.js';
import type { SUBJECT_KINDS, SubjectIdentity } from '../../src/schema/subject.js';
import type { ReasoningRecord, TrialRecord } from '../../src/schema/trial.js';
import type { SubjectSpec } from '../../src/subjects/spec.js';
import { MISSING_RULES, OUTCOME_FAMILIES, type OutcomeFamily } from '../../src/tasks/outcome.js';
import type { ResponseChannels } from '../../src/tasks/response.js';
import { type FinishReason, LEVEL_KINDS, type LevelAxis } from '../../src/tasks/task.js';

/** The values an enum schema accepts (zod 4: `.options`). */
const options = (schema: { options: readonly string[] }) => [...schema.options];

describe('enums in src/schema and src/config are derived from their one definition', () => {
  it('the missing-data rule, outcome family, level kind, gate mode and SCC assay are the defining constants', () => {
    expect(options(retentionFitSchema.shape.missing)).toEqual([...MISSING_RULES]);
    expect(options(baselineSchema.shape.fits.element.shape.missing)).toEqual([...MISSING_RULES]);
    expect(options(configSchema.shape.missing.unwrap())).toEqual([...MISSING_RULES]);
    expect(options(cellResultSchema.shape.family)).toEqual([...OUTCOME_FAMILIES]);
    expect(options(cellResultSchema.shape.levelKind)).toEqual([...LEVEL_KINDS]);
    const gateObject = gateValueSchema.options[1];
    expect(options(gateObject.shape.mode.unwrap())).toEqual([...GATE_MODES]);
    expect(sccAssayRecordSchema.options.map((o) => o.shape.assay.value)).toEqual([...SCC_ASSAYS]);
    expect(options(spendSchema.shape.assays.element.shape.assay)).toEqual([...ASSAY_NAMES]);
    expect(ASSAY_NAMES).toEqual(['scc', ...SCC_ASSAYS]);
  });

  it('the types agree with them', () => {
    expectTypeOf<SubjectIdentity['kind']>().toEqualTypeOf<(typeof SUBJECT_KINDS)[number]>();
    expectTypeOf<GateResult['mode']>().toEqualTypeOf<(typeof GATE_MODES)[number]>();
    expectTypeOf<LevelAxis['kind']>().toEqualTypeOf<(typeof LEVEL_KINDS)[number]>();
    expectTypeOf<OutcomeFamily>().toEqualTypeOf<(typeof OUTCOME_FAMILIES)[number]>();
  });

  // Restated outside src/schema and src/config as type unions (no constant to derive from yet): pinned equal here,
  // so that the two copies cannot drift apart until each derives from the schema.
  it('copies kept elsewhere agree with the schema', () => {
    expectTypeOf<SubjectSpec['kind']>().toEqualTypeOf<SubjectIdentity['kind']>();
    expectTypeOf<FinishReason>().toEqualTypeOf<TrialRecord['finishReason']>();
    expectTypeOf<ResponseChannels['sources']>().toEqualTypeOf<ReasoningRecord['sources']>();
    expectTypeOf<LadderPhase>().toEqualTypeOf<SccTier['phase']>();
    expectTypeOf<TrialStatus>().toEqualTypeOf<SccTrial['status']>();
    // the 'test' evidence has its own check (checkRetentionTest)
    expectTypeOf<NonNullable<Parameters<typeof checkRetentionAtLeast>[2]>>().toEqualTypeOf<
      Exclude<GateEvidence, 'test'>
    >();
  });
});
