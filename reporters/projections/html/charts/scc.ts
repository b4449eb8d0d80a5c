import type { Report } from '../../../../src/schema/report.js';
import type { ChartResult } from '../chart.js';
import { distinct, facetedSpec, figure, layerOf, round, verdictColor, verticalInterval } from './scaffold.js';

/** A stopped ladder's cc is a lower bound, never drawn as a measured CC. */
const ccLabel = (record: { cc: number; stopped?: unknown }): string =>
  record.stopped ? `CC ≥ ${record.cc} (stopped, lower bound)` : `CC = ${record.cc}`;

const LADDER = figure('scc-ladder', 'SCC ladder trace: tier length and verdict');
const SCATTER = figure('scc-scatter', 'SCC predicted vs true count, with attractor bands');

const noRunsReason = (report: Report): string =>
  report.scc.length === 0
    ? 'no SCC record in this report'
    : 'no SCC ladder evaluated a tier (each was skipped or stopped before its first tier)';

/** Paper 003 Fig. 2A: the tiers the randomized ladder evaluated, in order, with the sampled length range. */
export function sccLadderChart(report: Report): ChartResult {
  const withTiers = report.scc.filter((r) => r.result.tiers.length > 0);
  if (withTiers.length === 0) return LADDER.absent(noRunsReason(report));
  const rows: Record<string, string | number>[] = [];
  for (const record of withTiers) {
    for (const tier of [...record.result.tiers].sort((a, b) => a.evaluationIndex - b.evaluationIndex)) {
      rows.push({
        layer: 'tier',
        task: record.task,
        step: tier.evaluationIndex + 1,
        center: tier.center,
        low: tier.sampleLow ?? tier.center,
        high: tier.sampleHigh ?? tier.center,
        verdict: tier.passed ? 'pass' : 'fail',
        phase: tier.phase,
      });
    }
    if (record.cc > 0)
      rows.push({ layer: 'bound', side: 'below', task: record.task, value: record.cc, label: ccLabel(record) });
    if (record.bounded && record.ccUpper !== null && record.ccUpper !== record.cc) {
      rows.push({
        layer: 'bound',
        side: 'above',
        task: record.task,
        value: record.ccUpper,
        label: `first fail ${record.ccUpper}`,
      });
    }
  }
  const tasks = distinct(withTiers.map((r) => r.task));
  const x = {
    field: 'step',
    type: 'quantitative' as const,
    title: 'Tier evaluated (order)',
    scale: { zero: false, padding: 12 },
    axis: { tickMinStep: 1, format: 'd' },
  };
  const y = {
    field: 'center',
    type: 'quantitative' as const,
    title: 'Tier centre length',
    scale: { type: 'log' as const },
  };
  return LADDER.drawn(
    'Each marker is one tier of the ladder (expansion doubles, refinement bisects), coloured by its verdict ' +
      '(pass = every trial parsed and mean relative error within tolerance); bars span the jittered lengths ' +
      'sampled in the tier. Horizontal rules: the counting capacity CC and the first failing length.',
    facetedSpec(rows, { field: 'task', sort: tasks, independent: ['x', 'y'] }, { width: 320, height: 220 }, [
      ...layerOf(rows, 'bound', {
        mark: { type: 'rule', strokeDash: [4, 3], color: '#888' },
        encoding: { y: { field: 'value', type: 'quantitative' } },
      }),
      ...(['above', 'below'] as const).flatMap((side) =>
        layerOf(
          rows,
          'bound',
          {
            mark: {
              type: 'text' as const,
              align: 'left' as const,
              dy: side === 'above' ? -6 : 8,
              fontSize: 10,
              color: '#555',
            },
            encoding: {
              y: { field: 'value', type: 'quantitative' as const },
              x: { value: 4 },
              text: { field: 'label' },
            },
          },
          { field: 'side', equals: side },
        ),
      ),
      ...layerOf(rows, 'tier', {
        mark: { type: 'line', color: '#bbb', strokeWidth: 1 },
        encoding: { x, y, order: { field: 'step', type: 'quantitative' } },
      }),
      ...layerOf(rows, 'tier', {
        mark: { type: 'rule', color: '#999' },
        encoding: verticalInterval(x, 'low', 'high'),
      }),
      ...layerOf(rows, 'tier', {
        mark: { type: 'point', filled: true, size: 60, opacity: 1 },
        encoding: {
          x,
          y,
          color: verdictColor('verdict', 'Tier', 'pass', 'fail'),
          shape: { field: 'phase', type: 'nominal', title: 'Phase' },
        },
      }),
    ]),
  );
}

/**
 * Paper 003 Fig. 2B/D: every parsed trial's answer against its true count (log–log; answers ≤ 0 are counted, not drawn), the
 * diagonal, CC, and the attractor values wrong answers past capacity cluster on.
 */
export function sccScatterChart(report: Report): ChartResult {
  const rows: Record<string, string | number>[] = [];
  const tasks: string[] = [];
  let nonPositive = 0;
  for (const record of report.scc) {
    const parsedTrials = record.result.tiers.flatMap((t) => t.trials).filter((t) => t.parsed !== null && t.target > 0);
    const trials = parsedTrials.filter((t) => (t.parsed as number) > 0);
    nonPositive += parsedTrials.length - trials.length;
    if (trials.length === 0) continue;
    tasks.push(record.task);
    let maxTarget = 0;
    for (const t of trials) {
      const parsed = t.parsed as number;
      maxTarget = Math.max(maxTarget, t.target);
      rows.push({
        layer: 'trial',
        task: record.task,
        target: t.target,
        parsed,
        result: parsed === t.target ? 'exact' : 'wrong',
      });
    }
    const minTarget = Math.min(...trials.map((t) => t.target));
    rows.push({ layer: 'diagonal', task: record.task, target: minTarget, parsed: minTarget });
    rows.push({ layer: 'diagonal', task: record.task, target: maxTarget, parsed: maxTarget });
    if (record.cc > 0) rows.push({ layer: 'cc', task: record.task, target: record.cc, label: ccLabel(record) });
    for (const a of record.result.attractors) {
      rows.push({
        layer: 'attractor',
        task: record.task,
        parsed: a.value,
        share: a.share,
        label: `${a.value} (${(100 * a.share).toFixed(0)}%)`,
      });
    }
  }
  if (rows.length === 0) {
    const reason = report.scc.length > 0 ? 'no SCC trial produced a parsed count' : noRunsReason(report);
    return SCATTER.absent(reason);
  }
  // Explicit domains: the layers that carry only one coordinate (CC rule, attractor bands) must not widen them.
  const xs = rows.flatMap((r) => (typeof r.target === 'number' ? [r.target] : []));
  const ys = rows.flatMap((r) => (typeof r.parsed === 'number' ? [r.parsed] : []));
  const domain = (values: number[]) => [round(Math.min(...values) / 1.25, 3), round(Math.max(...values) * 1.25, 3)];
  const x = {
    field: 'target',
    type: 'quantitative' as const,
    title: 'True count',
    scale: { type: 'log' as const, domain: domain(xs), nice: false },
  };
  const y = {
    field: 'parsed',
    type: 'quantitative' as const,
    title: 'Predicted count',
    scale: { type: 'log' as const, domain: domain([...ys, ...xs]), nice: false },
  };
  return SCATTER.drawn(
    'One point per parsed trial of every tier (unparsed trials cannot be placed). Grey line: perfect count. ' +
      'Dashed vertical rule: CC. Orange bands: attractor values, the wrong answers past capacity that recur ' +
      '(width ∝ their share of the wrong answers past CC, in brackets). Log–log axes' +
      (nonPositive > 0 ? `; ${nonPositive} trials answering 0 or less are not drawn.` : '.'),
    facetedSpec(rows, { field: 'task', sort: tasks, independent: ['x', 'y'] }, { width: 400, height: 300 }, [
      ...layerOf(rows, 'attractor', {
        mark: { type: 'rule', color: '#ff7f0e', opacity: 0.35 },
        encoding: {
          y,
          size: { field: 'share', type: 'quantitative', legend: null, scale: { range: [2, 10] } },
        },
      }),
      ...layerOf(rows, 'attractor', {
        mark: { type: 'text', align: 'left', dy: -6, fontSize: 10, color: '#b35900' },
        encoding: { y, x: { value: 4 }, text: { field: 'label' } },
      }),
      ...layerOf(rows, 'diagonal', {
        mark: { type: 'line', color: '#999', strokeWidth: 1 },
        encoding: { x, y },
      }),
      ...layerOf(rows, 'cc', {
        mark: { type: 'rule', strokeDash: [4, 3], color: '#555' },
        encoding: { x },
      }),
      ...layerOf(rows, 'trial', {
        mark: { type: 'point', filled: true, size: 22, opacity: 0.7 },
        encoding: {
          x,
          y,
          color: verdictColor('result', 'Answer', 'exact', 'wrong'),
        },
      }),
    ]),
  );
}
