import type { TopLevelSpec } from 'vega-lite';
import type { ChartResult } from '../chart.js';

/**
 * What every chart of the HTML report is built from: the figure (drawn, or absent with a reason), the Vega-Lite
 * spec skeletons (one layered view, or layered panels faceted by a field), the shared look, and the fragments
 * several charts encode alike. Key order in the specs is part of the output (charts.vl.json), so the skeletons
 * fix it once.
 */

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

/** One figure of the page by id and title: drawn with a caption and a spec, or absent with the reason shown. */
export interface Figure {
  drawn(caption: string, spec: TopLevelSpec): ChartResult;
  absent(reason: string): ChartResult;
}

export const figure = (id: string, title: string): Figure => ({
  drawn: (caption, spec) => ({ kind: 'drawn', chart: { id, title, caption, spec } }),
  absent: (reason) => ({ kind: 'absent', absent: { id, title, reason } }),
});

type Row = Record<string, unknown>;
/** One entry of a Vega-Lite `layer` array. */
export type LayerItem = Extract<TopLevelSpec, { layer: unknown }>['layer'][number];
type Size = number | { step: number };

/** One layered view over inline rows. */
export const layeredSpec = (
  rows: readonly Row[],
  size: { width: Size; height: Size },
  layer: LayerItem[],
): TopLevelSpec => ({
  $schema: VEGA_LITE_SCHEMA,
  config: CHART_CONFIG,
  data: { values: rows as Row[] },
  width: size.width,
  height: size.height,
  layer,
});

/** Wrapped facet columns: up to three panels per row. */
export const facetColumns = (panels: number): number => Math.min(3, Math.max(1, panels));

/**
 * Layered panels over inline rows, one per value of `facet.field` in `facet.sort` order, wrapped three to a
 * row; `independent` lists the scales each panel sets on its own.
 */
export function facetedSpec(
  rows: readonly Row[],
  facet: { field: string; sort: readonly string[]; independent?: ReadonlyArray<'x' | 'y'> },
  panel: { width: number; height: number },
  layer: LayerItem[],
): TopLevelSpec {
  const independent = facet.independent ?? [];
  return {
    $schema: VEGA_LITE_SCHEMA,
    config: CHART_CONFIG,
    data: { values: rows as Row[] },
    facet: { field: facet.field, type: 'nominal', title: null, sort: [...facet.sort] },
    columns: facetColumns(facet.sort.length),
    ...(independent.length > 0
      ? { resolve: { scale: Object.fromEntries(independent.map((channel) => [channel, 'independent' as const])) } }
      : {}),
    spec: { width: panel.width, height: panel.height, layer },
  };
}

/** The accuracy axis of every accuracy chart: percent, always the full 0–100 range. */
export const ACCURACY_PERCENT = {
  field: 'accuracy',
  type: 'quantitative' as const,
  title: 'Accuracy (%)',
  scale: { domain: [0, 100] },
};

/** The encoding of a vertical interval bar at `x`, from field `lo` to field `hi` (a CI, ladder bounds). */
export const verticalInterval = <X>(x: X, lo = 'lo', hi = 'hi', title?: string) => ({
  x,
  y: { field: lo, type: 'quantitative' as const, ...(title === undefined ? {} : { title }) },
  y2: { field: hi },
});

/** A colour legend for a two-valued verdict field: the right value green, the wrong one red. */
export const verdictColor = (field: string, title: string, right: string, wrong: string) => ({
  field,
  type: 'nominal' as const,
  title,
  scale: { domain: [right, wrong], range: ['#2ca02c', '#d62728'] },
});

/** Variants that mean "the task's own prompt"; others are shown as a suffix (ablations). */
const DEFAULT_VARIANTS = new Set(['standard', 'default']);

export const isDefaultVariant = (variant: string): boolean => DEFAULT_VARIANTS.has(variant);

/** Distinct values in first-seen order (inputs are already sorted by the report builder). */
export const distinct = <T>(values: Iterable<T>): T[] => [...new Set(values)];

/** Variants in display order: the task's own prompt first, then the ablations in report order. */
export const variantOrder = (variants: Iterable<string>): string[] => {
  const all = distinct(variants);
  return [...all.filter(isDefaultVariant), ...all.filter((v) => !isDefaultVariant(v))];
};

/** "d2" or "d2 · verbose": one facet per task and non-default variant. */
export const panelLabel = (task: string, variant: string): string =>
  isDefaultVariant(variant) ? task : `${task} · ${variant}`;

/** Rounds for storage in the spec: 6 significant decimals keep the JSON small and byte-stable. */
export const round = (x: number, digits = 6): number => Number(x.toFixed(digits));

type Layer = LayerItem extends infer L ? (L extends unknown ? Omit<L, 'transform'> : never) : never;

/**
 * The layer drawing the rows whose `layer` is `name` (and, with `where`, whose `where.field` equals
 * `where.equals`), or `[]` when no row is left: Vega fails on a faceted layer whose filter leaves no rows, so
 * empty layers are never emitted. The Vega-Lite filter and the check here are written from the same terms.
 */
export function layerOf(
  rows: readonly Row[],
  name: string,
  layer: Layer,
  where?: { field: string; equals: string },
): LayerItem[] {
  const keeps = (r: Row) => r.layer === name && (where === undefined || r[where.field] === where.equals);
  if (!rows.some(keeps)) return [];
  const extra = where === undefined ? '' : ` && datum.${where.field} === '${where.equals}'`;
  return [{ transform: [{ filter: `datum.layer === '${name}'${extra}` }], ...layer } as LayerItem];
}
