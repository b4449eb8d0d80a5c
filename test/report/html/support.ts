import { readdirSync, readFileSync } from 'node:fs';
import type { ChartSpec } from '../../../reporters/projections/html/chart.js';
import { countSvgMarks } from '../../../reporters/projections/html/index.js';
import { type Baseline, baselineSchema } from '../../../src/schema/baseline.js';
import { type Report, reportSchema } from '../../../src/schema/report.js';

export const FIXTURE_DIR = new URL('../../../fixtures/report/', import.meta.url);

export function fixtureReport(): Report {
  return reportSchema.parse(JSON.parse(readFileSync(new URL('ceilingbench.json', FIXTURE_DIR), 'utf8')));
}

export function fixtureBaselines(): Baseline[] {
  const dir = new URL('baselines/', FIXTURE_DIR);
  return readdirSync(dir)
    .sort()
    .map((name) => baselineSchema.parse(JSON.parse(readFileSync(new URL(name, dir), 'utf8'))));
}

/** The `<figure id="chart-ID">…</figure>` block of one chart in the page (or a DOM dump of it). */
export function figureOf(html: string, id: string): string | null {
  const start = html.indexOf(`<figure id="chart-${id}"`);
  if (start < 0) return null;
  const end = html.indexOf('</figure>', start);
  return end < 0 ? null : html.slice(start, end);
}

/** Data rows of a chart's inline dataset, optionally only those of one layer. */
export function rowsOf(chart: ChartSpec, layer?: string): Array<Record<string, unknown>> {
  const data = (chart.spec as { data?: { values?: Array<Record<string, unknown>> } }).data;
  const rows = data?.values ?? [];
  return layer === undefined ? rows : rows.filter((r) => r.layer === layer);
}

export function marksIn(html: string, id: string): Record<string, number> {
  const figure = figureOf(html, id);
  if (figure === null) throw new Error(`chart '${id}' is not on the page`);
  return countSvgMarks(figure);
}
