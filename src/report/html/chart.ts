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

export type ChartResult = { kind: 'drawn'; chart: ChartSpec } | { kind: 'absent'; absent: AbsentChart };

export const drawn = (chart: ChartSpec): ChartResult => ({ kind: 'drawn', chart });
export const absent = (id: string, title: string, reason: string): ChartResult => ({
  kind: 'absent',
  absent: { id, title, reason },
});

export const VEGA_LITE_SCHEMA = 'https://vega.github.io/schema/vega-lite/v5.json';

/** Shared look: system fonts only (the page loads nothing), light grid, no chart-level background. */
export const CHART_CONFIG = {
  font: 'system-ui, -apple-system, "Segoe UI", Helvetica, Arial, sans-serif',
  background: 'white',
  view: { stroke: '#ccc' },
  axis: { labelFontSize: 11, titleFontSize: 12, gridColor: '#eee' },
  header: { labelFontSize: 13, labelFontWeight: 'bold' as const },
  legend: { labelFontSize: 11, titleFontSize: 11 },
  title: { fontSize: 14, anchor: 'start' as const },
};

/** Variants that mean "the task's own prompt"; others are shown as a suffix (ablations). */
const DEFAULT_VARIANTS = new Set(['standard', 'default']);

export const isDefaultVariant = (variant: string): boolean => DEFAULT_VARIANTS.has(variant);

/** Variants in display order: the task's own prompt first, then the ablations in report order. */
export const variantOrder = (variants: Iterable<string>): string[] => {
  const all = distinct(variants);
  return [...all.filter(isDefaultVariant), ...all.filter((v) => !isDefaultVariant(v))];
};

/** "d2" or "d2 · verbose": one facet per task and non-default variant. */
export const panelLabel = (task: string, variant: string): string =>
  isDefaultVariant(variant) ? task : `${task} · ${variant}`;

/** Distinct values in first-seen order (inputs are already sorted by the report builder). */
export const distinct = <T>(values: Iterable<T>): T[] => [...new Set(values)];

/** Rounds for storage in the spec: 6 significant decimals keep the JSON small and byte-stable. */
export const round = (x: number, digits = 6): number => Number(x.toFixed(digits));

/** Wrapped facet columns: up to three panels per row. */
export const facetColumns = (panels: number): number => Math.min(3, Math.max(1, panels));

type Row = Record<string, unknown>;
/** One entry of a Vega-Lite `layer` array. */
export type LayerItem = Extract<TopLevelSpec, { layer: unknown }>['layer'][number];

/** Vega-Lite transform keeping the rows of one layer (and an optional extra condition on `datum`). */
export const layerFilter = (name: string, extra?: string) => [
  { filter: `datum.layer === '${name}'${extra ? ` && ${extra}` : ''}` },
];

/**
 * `[layer]` when some row belongs to it, else `[]`: Vega fails on a faceted layer whose filter leaves no
 * rows, so empty layers are never emitted. `match` must mirror the layer's extra filter condition.
 */
export function ifRows(
  rows: readonly Row[],
  name: string,
  layer: LayerItem,
  match: (row: Row) => boolean = () => true,
): LayerItem[] {
  return rows.some((r) => r.layer === name && match(r)) ? [layer] : [];
}
