import type { TopLevelSpec } from 'vega-lite';

/** One figure of the HTML report: a Vega-Lite spec whose data is inline, so it can be re-plotted as is. */
export interface ChartSpec {
  id: string;
  title: string;
  /** Plain-text caption: what is plotted, from which records, and which population. */
  caption: string;
  spec: TopLevelSpec;
}

/** A figure the report has no data for, with the reason printed on the page. */
export interface AbsentChart {
  id: string;
  title: string;
  reason: string;
}

/** What a chart builder returns (built with charts/scaffold.ts `figure`). */
export type ChartResult = { kind: 'drawn'; chart: ChartSpec } | { kind: 'absent'; absent: AbsentChart };
