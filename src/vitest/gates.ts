import type { GateValue, ProjectGates } from '../config/schema.js';
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

/** Evaluates the configured gates of a project that apply to one fit record. */
export function evaluateGates(
  project: string,
  record: RetentionFit | CollapseFit | (CountingCapacity & { kind: 'scc'; task: string }),
  gates: ProjectGates | undefined,
): GateResult[] {
  if (!gates) return [];
  const results: GateResult[] = [];
  if (record.kind === 'retention') {
    if (gates.minRetention !== undefined) {
      const g = normalize(gates.minRetention);
      results.push(
        toResult(
          project,
          record.task,
          'minRetention',
          gates.minRetention,
          checkRetentionAtLeast(record, g.value, g.evidence),
        ),
      );
    }
    if (gates.minHorizon !== undefined) {
      results.push(
        toResult(
          project,
          record.task,
          'minHorizon',
          gates.minHorizon,
          checkHorizonAtLeast(record, normalize(gates.minHorizon).value),
        ),
      );
    }
    if (gates.maxTfbcRate !== undefined) {
      results.push(
        toResult(
          project,
          record.task,
          'maxTfbcRate',
          gates.maxTfbcRate,
          checkTfbcRateAtMost(record, normalize(gates.maxTfbcRate).value),
        ),
      );
    }
  } else if (record.kind === 'collapse') {
    if (gates.collapseNoEarlierThan !== undefined) {
      const level = normalize(gates.collapseNoEarlierThan).value;
      results.push(
        toResult(
          project,
          record.task,
          'collapseNoEarlierThan',
          gates.collapseNoEarlierThan,
          checkCollapseNoEarlierThan(record, level),
        ),
      );
    }
  } else if (gates.minCountingCapacity !== undefined) {
    const n = normalize(gates.minCountingCapacity).value;
    results.push(
      toResult(
        project,
        record.task,
        'minCountingCapacity',
        gates.minCountingCapacity,
        checkCountingCapacityAtLeast(record, n),
      ),
    );
  }
  return results;
}
