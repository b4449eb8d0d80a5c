import { decideVerdict, gateLine, hardFailures } from '../gates/index.js';
import type { GateResult } from '../schema/gate.js';
import type { RequirementOutcome } from '../schema/manifest.js';
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
 * A comparison read as gates: each compared metric is a hard gate on "no regression", each record it could not
 * compare a hard gate not evaluated (it fails: a gate never passes on data it did not check).
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

/**
 * What a candidate ceilingbench.json says of its own gates: the gate results its run decided and, with a manifest,
 * each record its hard gates needed and what it got. A baselines/*.json file has none (a saved baseline keeps no
 * gates): only the comparison judges it.
 */
export interface StoredVerdict {
  gates: readonly GateResult[];
  requirements?: readonly RequirementOutcome[];
}

/** A failed line decideVerdict wrote for a need not met: rebuilt from the stored needs, so not taken twice. */
const unmetLine = (g: GateResult) =>
  !g.passed && g.estimate === null && /^gate \S+ FAILED \((hard|advisory)\): not evaluated\b/.test(g.message);

export interface ComparisonVerdict {
  /** The `compare.<metric>` gates (no regression; not compared fails). */
  comparison: GateResult[];
  /** The candidate run's own gates in scope, decided again from what it stored: threshold, notWorseThan, needs. */
  candidate: GateResult[];
  passed: boolean;
}

/**
 * compare's verdict, decided by the gates module's one verdict (src/gates decideVerdict) as a run's is: the
 * comparison's gates beside the candidate's own — its threshold and notWorseThan results, and every record its
 * manifest needed and did not get (not evaluated: it fails) — within the comparison's scope. Two identical runs
 * whose gates passed pass; a candidate whose run left a hard gate unchecked fails whatever the baseline holds.
 */
export function comparisonVerdict(
  metrics: readonly MetricComparison[],
  notCompared: readonly NotCompared[],
  stored: StoredVerdict | undefined,
  inScope: (project: string) => boolean,
): ComparisonVerdict {
  const comparison = comparisonGates(metrics, notCompared);
  const settled = (stored?.requirements ?? []).filter((r) => inScope(r.project));
  const rebuilt = stored?.requirements !== undefined;
  const own = (stored?.gates ?? []).filter((g) => inScope(g.project) && !(rebuilt && unmetLine(g)));
  const { gates } = decideVerdict({
    configured: {},
    requirements: [],
    settled,
    evidence: { records: [], ran: [] },
    measured: [...comparison, ...own],
    entries: [],
    seed: 0,
  });
  const candidate = gates.filter((g) => !g.gate.startsWith('compare.'));
  return { comparison, candidate, passed: hardFailures(gates).length === 0 };
}
