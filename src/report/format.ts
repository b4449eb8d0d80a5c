/** Number formatting shared by the Markdown, JUnit and CLI projections. */
export const fixed = (x: number | null | undefined, digits = 3): string =>
  x === null || x === undefined ? '–' : Number.isFinite(x) ? x.toFixed(digits) : String(x);

export const percent = (x: number | null | undefined, digits = 1): string =>
  x === null || x === undefined ? '–' : `${(100 * x).toFixed(digits)}%`;

export const interval = (ci: readonly [number, number] | null | undefined, digits = 3): string =>
  ci ? `[${fixed(ci[0], digits)}, ${fixed(ci[1], digits)}]` : '–';
