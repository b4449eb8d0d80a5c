/** Number formatting shared by the Markdown, JUnit and CLI projections. */
export const fixed = (x: number | null | undefined, digits = 3): string =>
  x === null || x === undefined ? '–' : Number.isFinite(x) ? x.toFixed(digits) : String(x);

export const percent = (x: number | null | undefined, digits = 1): string =>
  x === null || x === undefined ? '–' : `${(100 * x).toFixed(digits)}%`;

export const interval = (ci: readonly [number, number] | null | undefined, digits = 3): string =>
  ci ? `[${fixed(ci[0], digits)}, ${fixed(ci[1], digits)}]` : '–';

/** A count with thousands separators (1,234,567), independent of the locale. */
export const thousands = (n: number): string => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/** USD: cents from $1 up, four significant digits below (token prices are fractions of a cent); – when unknown. */
export function usd(x: number | null | undefined): string {
  if (x === null || x === undefined) return '–';
  if (x === 0) return '$0';
  if (x >= 1) return `$${x.toFixed(2)}`;
  const digits = Math.min(12, Math.max(2, 3 - Math.floor(Math.log10(x))));
  return `$${x.toFixed(digits).replace(/0+$/, '')}`;
}

/**
 * The share of a cell's trials set aside under the run's missing-data rule (api, budget, and under 'paper' the
 * family's set-aside kinds); a cell from a report written before `setAside` was kept reads its api/budget share.
 */
export const cellSetAside = (cell: { n: number; missing: number; setAside?: number }): number | null =>
  cell.n > 0 ? (cell.setAside ?? cell.missing) / cell.n : null;

/** How many distinct samples a cell's interval stands on, when replicates could not differ: `1 distinct, temperature 0`. */
export const samplesNote = (cell: { samples?: { distinct: number; reason: string } }): string =>
  cell.samples ? `${cell.samples.distinct} distinct, ${cell.samples.reason}` : '';

/**
 * The report's note of a retry the measuring tests refused (scope.retryRefused): Vitest's retry would re-measure a
 * failed cell, fit or ladder until it passed, the failed attempts recorded nowhere; here each is measured once.
 */
export const retryRefusedText = (count: number): string =>
  `retry ${count} refused by the measuring tests (cells, fits, adaptive designs, SCC assays): each measured once, its failure stands`;
