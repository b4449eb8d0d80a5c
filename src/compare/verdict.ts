import { gateLine, hardFailures } from '../gates/index.js';
import type { GateResult } from '../schema/gate.js';
import type { MetricComparison, NotCompared } from './schema.js';

/**
 * A comparison read as gates, so that compare's verdict is the gates module's: each compared metric is a hard
 * gate on "no regression", each record it could not compare a hard gate not evaluated (it fails: a gate never
 * passes on data it did not check).
 */
export function comparisonGates(
  metrics: readonly MetricComparison[],
  notCompared: readonly NotCompared[],
): GateResult[] {
  const compared = metrics.map(
    (m): GateResult => ({
      project: m.project,
      task: m.task,
      gate: `compare.${m.metric}`,
      mode: 'hard',
      threshold: 0,
      estimate: m.difference,
      ci95: m.ci95,
      passed: !m.regression,
      message: gateLine(
        m.project,
        `compare.${m.metric}`,
        !m.regression,
        'hard',
        `${m.where ? `${m.where}: ` : ''}${m.reason}`,
      ),
    }),
  );
  const unchecked = notCompared.map(
    (n): GateResult => ({
      project: n.project,
      task: n.task,
      gate: `compare.${n.metric}`,
      mode: 'hard',
      threshold: 0,
      estimate: null,
      ci95: null,
      passed: false,
      message: gateLine(n.project, `compare.${n.metric}`, false, 'hard', `not compared (${n.kind}) — ${n.reason}`),
    }),
  );
  return [...compared, ...unchecked];
}

/** Whether a comparison passes: no hard gate of it failed. */
export const comparisonPasses = (metrics: readonly MetricComparison[], notCompared: readonly NotCompared[]): boolean =>
  hardFailures(comparisonGates(metrics, notCompared)).length === 0;
