import type { Baseline } from '../../../schema/baseline.js';
import type { Report } from '../../../schema/report.js';
import {
  absent,
  CHART_CONFIG,
  type ChartResult,
  distinct,
  drawn,
  isDefaultVariant,
  VEGA_LITE_SCHEMA,
} from '../chart.js';
import { chosenFits } from './accuracy-depth.js';

const PD_ID = 'history-pd';
const PD_TITLE = 'Per-release history of p_d';
const CC_ID = 'history-cc';
const CC_TITLE = 'Per-release history of counting capacity (CC)';

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
      scc: report.scc.filter((s) => !s.skipped),
    });
  }
  return out;
}

const seriesLabel = (task: string, variant: string, missing: string, rules: number) =>
  `${task}${isDefaultVariant(variant) ? '' : ` · ${variant}`}${rules > 1 ? ` (${missing})` : ''}`;

const releaseAxis = (names: string[]) => ({
  field: 'release',
  type: 'ordinal' as const,
  title: 'Release',
  sort: names,
  axis: { labelAngle: -30, labelLimit: 160 },
});

/** p_d with its bootstrap CI per release and task, from baselines/*.json and this report. */
export function historyPdChart(report: Report, baselines: readonly Baseline[]): ChartResult {
  if (baselines.length === 0)
    return absent(PD_ID, PD_TITLE, 'no baselines given (ceilingbench report --baselines DIR)');
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
  if (rows.length === 0) return absent(PD_ID, PD_TITLE, 'the baselines hold no retention fit');
  const names = list.filter((r) => r.fits.length > 0).map((r) => r.name);
  const x = releaseAxis(names);
  const y = { field: 'pd', type: 'quantitative' as const, title: 'p_d', scale: { zero: false } };
  const color = { field: 'series', type: 'nominal' as const, title: 'Task' };
  return drawn({
    id: PD_ID,
    title: PD_TITLE,
    caption:
      'Per-step retention p_d with its 95% parametric-bootstrap interval, per saved baseline in run order' +
      (names.includes(THIS_RUN) ? `, then this report ("${THIS_RUN}").` : '.'),
    spec: {
      $schema: VEGA_LITE_SCHEMA,
      config: CHART_CONFIG,
      data: { values: rows },
      width: { step: 90 },
      height: 220,
      layer: [
        { mark: { type: 'line', strokeWidth: 1 }, encoding: { x, y, color } },
        {
          mark: { type: 'rule' },
          encoding: { x, y: { field: 'lo', type: 'quantitative' }, y2: { field: 'hi' }, color },
        },
        { mark: { type: 'point', filled: true, size: 40, opacity: 1 }, encoding: { x, y, color } },
      ],
    },
  });
}

/** CC per release with the ladder bounds [last pass, first fail]; open markers when no tier failed. */
export function historyCcChart(report: Report, baselines: readonly Baseline[]): ChartResult {
  if (baselines.length === 0)
    return absent(CC_ID, CC_TITLE, 'no baselines given (ceilingbench report --baselines DIR)');
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
  if (rows.length === 0) return absent(CC_ID, CC_TITLE, 'the baselines hold no SCC result');
  const names = list.filter((r) => r.scc.length > 0).map((r) => r.name);
  const x = releaseAxis(names);
  const fill = rows.every((r) => r.bound === 'bounded')
    ? { value: '#555' }
    : {
        field: 'bound',
        type: 'nominal' as const,
        title: 'Upper bound',
        scale: { domain: ['bounded', 'no tier failed'], range: ['#555', 'white'] },
      };
  const y = { field: 'cc', type: 'quantitative' as const, title: 'CC' };
  const color = { field: 'task', type: 'nominal' as const, title: 'Task' };
  return drawn({
    id: CC_ID,
    title: CC_TITLE,
    caption:
      'Counting capacity per saved baseline in run order; bars span the ladder bounds (CC = last passing ' +
      'length, up to the first failing length). Open markers: no tier failed, so CC is a lower bound.',
    spec: {
      $schema: VEGA_LITE_SCHEMA,
      config: CHART_CONFIG,
      data: { values: rows },
      width: { step: 90 },
      height: 220,
      layer: [
        { mark: { type: 'line', strokeWidth: 1 }, encoding: { x, y, color } },
        {
          mark: { type: 'rule' },
          encoding: { x, y: { field: 'lo', type: 'quantitative' }, y2: { field: 'hi' }, color },
        },
        {
          mark: { type: 'point', size: 50, opacity: 1, strokeWidth: 1.5 },
          encoding: {
            x,
            y,
            color,
            fill,
          },
        },
      ],
    },
  });
}
