/** A plain-text table's lines: each column padded to its widest cell, two spaces apart, no trailing blanks. */
export function plainTable(header: readonly string[], rows: readonly string[][]): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const format = (cells: readonly string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  return [format(header), ...rows.map(format)];
}
