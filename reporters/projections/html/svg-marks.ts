/**
 * Counts the drawn items of an SVG produced by Vega, per mark type: the children of each
 * `<g class="mark-TYPE role-mark …">` group (axes, legends and titles are other roles and are not counted).
 * Linear scan, no backtracking. Used by tests and by the CLI's summary line.
 */
export function countSvgMarks(svg: string): Record<string, number> {
  const counts: Record<string, number> = {};
  const open = '<g class="mark-';
  let at = svg.indexOf(open);
  while (at >= 0) {
    const classEnd = svg.indexOf('"', at + open.length);
    const classes = svg.slice(at + open.length, classEnd).split(' ');
    const type = classes[0];
    const tagEnd = svg.indexOf('>', classEnd);
    if (classes.includes('role-mark') && type !== 'group') {
      const close = svg.indexOf('</g>', tagEnd);
      const inner = svg.slice(tagEnd + 1, close < 0 ? svg.length : close);
      let items = 0;
      for (let i = inner.indexOf('<'); i >= 0; i = inner.indexOf('<', i + 1)) if (inner[i + 1] !== '/') items++;
      counts[type] = (counts[type] ?? 0) + items;
    }
    at = svg.indexOf(open, tagEnd);
  }
  return counts;
}
