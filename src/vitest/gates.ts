import type { GateValue, ProjectGates, ThresholdGateName } from '../config/schema.js';
import type { CollapseFit, RetentionFit } from '../schema/fit.js';
import type { GateResult } from '../schema/gate.js';
import {
  type CheckResult,
  type CountingCapacity,
  checkCollapseNoEarlierThan,
  checkCountingCapacityAtLeast,
  checkHorizonAtLeast,
  checkRetentionAtLeast,
  checkTfbcRateAtMost,
} from './checks.js';

const normalize = (g: GateValue) =>
  typeof g === 'number' ? { value: g, mode: 'hard' as const, evidence: 'point' as const } : g;

function toResult(project: string, task: string, gate: string, g: GateValue, check: CheckResult): GateResult {
  const { value, mode } = normalize(g);
  return {
    project,
    task,
    gate,
    mode,
    threshold: value,
    estimate: check.estimate,
    ci95: check.ci95,
    passed: check.pass,
    message: `gate ${project}.${gate} ${check.pass ? 'passed' : 'FAILED'} (${mode}): ${check.message}`,
  };
}

type GateRecord = RetentionFit | CollapseFit | (CountingCapacity & { kind: 'scc'; task: string });
type Threshold = ReturnType<typeof normalize>;

interface Gate {
  name: ThresholdGateName;
  /** The kind of record the gate's check reads. */
  kind: GateRecord['kind'];
  check(record: GateRecord, threshold: Threshold): CheckResult;
}

/** A gate on one kind of record; evaluateGates calls its check on records of that kind only. */
const gate = <K extends GateRecord['kind']>(
  name: ThresholdGateName,
  kind: K,
  check: (record: Extract<GateRecord, { kind: K }>, threshold: Threshold) => CheckResult,
): Gate => ({ name, kind, check: check as Gate['check'] });

/** Every gate, in the order its results are reported. */
const GATES: readonly Gate[] = [
  gate('minRetention', 'retention', (fit, t) => checkRetentionAtLeast(fit, t.value, t.evidence)),
  gate('minHorizon', 'retention', (fit, t) => checkHorizonAtLeast(fit, t.value)),
  gate('maxTfbcRate', 'retention', (fit, t) => checkTfbcRateAtMost(fit, t.value)),
  gate('collapseNoEarlierThan', 'collapse', (fit, t) => checkCollapseNoEarlierThan(fit, t.value)),
  gate('minCountingCapacity', 'scc', (result, t) => checkCountingCapacityAtLeast(result, t.value)),
];

/**
 * The gates that apply to a Vitest project: those keyed by its name and, for a per-subject project
 * `d2@<label>`, those keyed by its standard project `d2` — every subject's — with the `d2@<label>` key's
 * value winning gate by gate.
 */
export function gatesFor(
  gates: Readonly<Record<string, ProjectGates>>,
  vitestProject: string,
): ProjectGates | undefined {
  const at = vitestProject.lastIndexOf('@');
  const shared = at > 0 ? gates[vitestProject.slice(0, at)] : undefined;
  const own = gates[vitestProject];
  if (!shared) return own;
  return own ? { ...shared, ...own } : shared;
}

/** Evaluates the configured gates of a project that apply to one fit record. */
export function evaluateGates(project: string, record: GateRecord, gates: ProjectGates | undefined): GateResult[] {
  if (!gates) return [];
  return GATES.flatMap(({ name, kind, check }) => {
    const configured = gates[name];
    if (configured === undefined || kind !== record.kind) return [];
    return [toResult(project, record.task, name, configured, check(record, normalize(configured)))];
  });
}
