import type { ProjectGates, ThresholdGateName } from '../config/schema.js';
import type { CollapseFit, RetentionFit } from '../schema/fit.js';
import { DEFAULT_GATE_ALPHA, DEFAULT_GATE_MARGIN, type GateResult } from '../schema/gate.js';
import * as checks from './checks.js';
import { type Threshold, thresholdGatesOf } from './normalize.js';
import { undecidedNote } from './undecided.js';

/** The records a threshold gate reads: a finished retention or collapse fit, or an SCC ladder. */
export type GateRecord = RetentionFit | CollapseFit | (checks.CountingCapacity & { kind: 'scc'; task: string });

interface Gate {
  /** The kind of record the gate's check reads. */
  kind: GateRecord['kind'];
  check(
    record: GateRecord,
    threshold: Threshold,
    context: GateContext,
  ): checks.CheckResult & Partial<checks.TestedCheck>;
}

/** What the run knows beside the record: the power of the design that produced it (the sequential design). */
export interface GateContext {
  designPower?: checks.DesignPower;
}

/** A gate on one kind of record; evaluateGates calls its check on records of that kind only. */
const gate = <K extends GateRecord['kind']>(
  kind: K,
  check: (
    record: Extract<GateRecord, { kind: K }>,
    threshold: Threshold,
    context: GateContext,
  ) => checks.CheckResult & Partial<checks.TestedCheck>,
): Gate => ({ kind, check: check as Gate['check'] });

/** Every threshold gate by name: what it reads and how it decides. */
export const THRESHOLD_GATES: Readonly<Record<ThresholdGateName, Gate>> = {
  minRetention: gate('retention', (fit, t, context) =>
    t.evidence === 'test'
      ? checks.checkRetentionTest(
          fit,
          t.value,
          t.alpha ?? DEFAULT_GATE_ALPHA,
          t.margin ?? DEFAULT_GATE_MARGIN,
          context.designPower,
        )
      : checks.checkRetentionAtLeast(fit, t.value, t.evidence),
  ),
  minHorizon: gate('retention', (fit, t) =>
    t.evidence === 'test'
      ? checks.checkHorizonTest(fit, t.value, t.alpha ?? DEFAULT_GATE_ALPHA, t.margin ?? DEFAULT_GATE_MARGIN)
      : checks.checkHorizonAtLeast(fit, t.value),
  ),
  maxTfbcRate: gate('retention', (fit, t) =>
    t.evidence === 'test'
      ? checks.checkTfbcRateTest(fit, t.value, t.alpha ?? DEFAULT_GATE_ALPHA, t.margin ?? DEFAULT_GATE_MARGIN)
      : checks.checkTfbcRateAtMost(fit, t.value),
  ),
  collapseNoEarlierThan: gate('collapse', (fit, t) => checks.checkCollapseNoEarlierThan(fit, t.value)),
  minCountingCapacity: gate('scc', (result, t) => checks.checkCountingCapacityAtLeast(result, t.value)),
};

/** The line a gate result prints: the same in the test's failure, the console, summary.md and JUnit. */
export const gateLine = (key: string, gate: string, passed: boolean, mode: string, why: string): string =>
  `gate ${key}.${gate} ${passed ? 'passed' : 'FAILED'} (${mode}): ${why}`;

/** Evaluates the configured threshold gates of a project that apply to one record, in THRESHOLD_GATES order. */
export function evaluateGates(
  project: string,
  record: GateRecord,
  gates: ProjectGates | undefined,
  context: GateContext = {},
): GateResult[] {
  if (!gates) return [];
  const configured = new Map(thresholdGatesOf(gates).map((g) => [g.name, g.threshold]));
  return (Object.keys(THRESHOLD_GATES) as ThresholdGateName[]).flatMap((name) => {
    const threshold = configured.get(name);
    const { kind, check } = THRESHOLD_GATES[name];
    if (threshold === undefined || kind !== record.kind) return [];
    const result = check(record, threshold, context);
    const undecided = undecidedNote(name, record, threshold.value);
    return [
      {
        project,
        task: record.task,
        gate: name,
        mode: threshold.mode,
        threshold: threshold.value,
        estimate: result.estimate,
        ci95: result.ci95,
        passed: result.pass,
        message: gateLine(project, name, result.pass, threshold.mode, result.message + (undecided && `; ${undecided}`)),
        // what was compared, when not the point estimate (absent: the point estimate, the bytes reports always had)
        ...(name === 'minRetention' && threshold.evidence !== 'point' ? { evidence: threshold.evidence } : {}),
        ...(name !== 'minRetention' && threshold.evidence === 'test' ? { evidence: threshold.evidence } : {}),
        // a test with stated errors: its alpha, margin and the power the trials achieved at the margin
        ...(result.alpha !== undefined ? { alpha: result.alpha, margin: result.margin } : {}),
        ...(typeof result.power === 'number' ? { power: result.power } : {}),
      },
    ];
  });
}
