import type { Baseline } from '../../../../src/schema/baseline.js';
import type { Report } from '../../../../src/schema/report.js';
import type { ChartResult } from '../chart.js';
import { chosenFits } from './accuracy-depth.js';
import { distinct, figure, type LayerItem, layeredSpec, panelLabel, verticalInterval } from './scaffold.js';

const PD = figure('history-pd', 'Per-release history of p_d');
const CC = figure('history-cc', 'Per-release history of counting capacity (CC)');
const NO_BASELINES = 'no baselines given (ceilingbench report --baselines DIR)';

/** A release on the history axis: saved baselines in run order, then this report unless it was saved. */
interface Release {
  name: string;
  order: number;
  fits: Array<{ task: string; variant: string; missing: string; pd: number; ci95: [number, number] }>;
  scc: Array<{ task: string; cc: number; ccLower: number; ccUpper: number | null; bounded: boolean }>;
}

export const THIS_RUN = 'this report';

export function releases(report: Report, baselines: readonly Baseline[]): Release[] {
  const sorted = [...baselines].sort((a, b) =>
    a.runStartedAt === b.runStartedAt
      ? a.name < b.name
        ? -1
        : a.name > b.name
          ? 1
          : 0
      : a.runStartedAt < b.runStartedAt
        ? -1
        : 1,
  );
  const out: Release[] = sorted.map((b, order) => ({ name: b.name, order, fits: b.fits, scc: b.scc }));
  if (!baselines.some((b) => b.runStartedAt === report.timing.startedAt)) {
    out.push({
      name: THIS_RUN,
      order: out.length,
      fits: chosenFits(report.fits),
      scc: report.scc.filter((s) => !s.skipped && !s.stopped),
    });
  }
  return out;
}

const seriesLabel = (task: string, variant: string, missing: string, rules: number) =>
  `${panelLabel(task, variant)}${rules > 1 ? ` (${missing})` : ''}`;

/**
 * One series per value of the `series` field over the releases in `names` order: a line through the estimates,
 * the interval from `lo` to `hi` as a bar, and a marker per release (`marker`: its mark and any encoding beyond
 * x, y and colour).
 */
function releaseSeriesSpec(
  rows: ReadonlyArray<Record<string, unknown>>,
  names: string[],
  series: string,
  y: { field: string; type: 'quantitative'; title: string; scale?: { zero: boolean } },
  marker: { mark: Extract<LayerItem, { mark: unknown }>['mark']; encoding?: Record<string, unknown> },
) {
  const x = {
    field: 'release',
    type: 'ordinal' as const,
    title: 'Release',
    sort: names,
    axis: { labelAngle: -30, labelLimit: 160 },
  };
  const color = { field: series, type: 'nominal' as const, title: 'Task' };
  return layeredSpec(rows, { width: { step: 90 }, height: 220 }, [
    { mark: { type: 'line', strokeWidth: 1 }, encoding: { x, y, color } },
    { mark: { type: 'rule' }, encoding: { ...verticalInterval(x), color } },
    { mark: marker.mark, encoding: { x, y, color, ...marker.encoding } },
  ]);
}

/** p_d with its bootstrap CI per release and task, from baselines/*.json and this report. */
export function historyPdChart(report: Report, baselines: readonly Baseline[]): ChartResult {
  if (baselines.length === 0) return PD.absent(NO_BASELINES);
  const list = releases(report, baselines);
  const rules = distinct(list.flatMap((r) => r.fits.map((f) => f.missing))).length;
  const rows = list.flatMap((r) =>
    r.fits.map((f) => ({
      release: r.name,
      series: seriesLabel(f.task, f.variant, f.missing, rules),
      pd: f.pd,
      lo: f.ci95[0],
      hi: f.ci95[1],
    })),
  );
  if (rows.length === 0) return PD.absent('the baselines hold no retention fit');
  const names = list.filter((r) => r.fits.length > 0).map((r) => r.name);
  return PD.drawn(
    'Per-step retention p_d with its 95% parametric-bootstrap interval, per saved baseline in run order' +
      (names.includes(THIS_RUN) ? `, then this report ("${THIS_RUN}").` : '.'),
    releaseSeriesSpec(
      rows,
      names,
      'series',
      { field: 'pd', type: 'quantitative', title: 'p_d', scale: { zero: false } },
      { mark: { type: 'point', filled: true, size: 40, opacity: 1 } },
    ),
  );
}

/** CC per release with the ladder bounds [last pass, first fail]; open markers when no tier failed. */
export function historyCcChart(report: Report, baselines: readonly Baseline[]): ChartResult {
  if (baselines.length === 0) return CC.absent(NO_BASELINES);
  const list = releases(report, baselines);
  const rows = list.flatMap((r) =>
    r.scc.map((s) => ({
      release: r.name,
      task: s.task,
      cc: s.cc,
      lo: s.ccLower,
      hi: s.ccUpper ?? s.cc,
      bound: s.bounded ? 'bounded' : 'no tier failed',
    })),
  );
  if (rows.length === 0) return CC.absent('the baselines hold no SCC result');
  const names = list.filter((r) => r.scc.length > 0).map((r) => r.name);
  const fill = rows.every((r) => r.bound === 'bounded')
    ? { value: '#555' }
    : {
        field: 'bound',
        type: 'nominal' as const,
        title: 'Upper bound',
        scale: { domain: ['bounded', 'no tier failed'], range: ['#555', 'white'] },
      };
  return CC.drawn(
    'Counting capacity per saved baseline in run order; bars span the ladder bounds (CC = last passing ' +
      'length, up to the first failing length). Open markers: no tier failed, so CC is a lower bound.',
    releaseSeriesSpec(
      rows,
      names,
      'task',
      { field: 'cc', type: 'quantitative', title: 'CC' },
      { mark: { type: 'point', size: 50, opacity: 1, strokeWidth: 1.5 }, encoding: { fill } },
    ),
  );
}
