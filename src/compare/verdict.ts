import { gateLine, hardFailures } from '../gates/index.js';
import type { GateResult } from '../schema/gate.js';
import type { MetricComparison, NotCompared } from './schema.js';

/** The hard gate `compare.<metric>` of one record: what it estimated, whether it passed, and why. */
const compareGate = (
  row: { project: string; task: string; metric: string },
  estimate: GateResult['estimate'],
  ci95: GateResult['ci95'],
  passed: boolean,
  detail: string,
): GateResult => ({
  project: row.project,
  task: row.task,
  gate: `compare.${row.metric}`,
  mode: 'hard',
  threshold: 0,
  estimate,
  ci95,
  passed,
  message: gateLine(row.project, `compare.${row.metric}`, passed, 'hard', detail),
});

/**
 * A comparison read as gates, so that compare's verdict is the gates module's: each compared metric is a hard
 * gate on "no regression", each record it could not compare a hard gate not evaluated (it fails: a gate never
 * passes on data it did not check).
 */
export function comparisonGates(
  metrics: readonly MetricComparison[],
  notCompared: readonly NotCompared[],
): GateResult[] {
  const compared = metrics.map((m) =>
    compareGate(m, m.difference, m.ci95, !m.regression, `${m.where ? `${m.where}: ` : ''}${m.reason}`),
  );
  const unchecked = notCompared.map((n) => compareGate(n, null, null, false, `not compared (${n.kind}) — ${n.reason}`));
  return [...compared, ...unchecked];
}

/** Whether a comparison passes: no hard gate of it failed. */
export const comparisonPasses = (metrics: readonly MetricComparison[], notCompared: readonly NotCompared[]): boolean =>
  hardFailures(comparisonGates(metrics, notCompared)).length === 0;
