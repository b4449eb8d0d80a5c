import { buildReport } from '../../../reporters/projections/build.js';
import { type Report, reportSchema } from '../../../src/schema/report.js';
import { multiSubjectEntries, RUN } from '../multi-subject.js';

export const THREE = ['sim:retention?p=0.95', 'sim:retention?p=0.90', 'sim:retention?p=0.80'];

/** One run of three sim subjects on d1 and d2 (40 trials per cell), built in-process as the reporter would. */
export async function threeSubjectReport(): Promise<Report> {
  const entries = await multiSubjectEntries(THREE, { tasks: ['d1', 'd2'], trials: 40 });
  return reportSchema.parse(buildReport(entries, RUN));
}

/** Items per `<g class="mark-TYPE role-mark …">` group, in document order (one group per facet panel). */
export function markGroups(svg: string, type: string): number[] {
  const groups: number[] = [];
  const open = `<g class="mark-${type} role-mark`;
  for (let at = svg.indexOf(open); at >= 0; at = svg.indexOf(open, at + 1)) {
    const tagEnd = svg.indexOf('>', at);
    const close = svg.indexOf('</g>', tagEnd);
    const inner = svg.slice(tagEnd + 1, close);
    let items = 0;
    for (let i = inner.indexOf('<'); i >= 0; i = inner.indexOf('<', i + 1)) if (inner[i + 1] !== '/') items++;
    groups.push(items);
  }
  return groups;
}

/** The distinct stroke colours of the paths in each `mark-line` group. */
export function lineColours(svg: string): string[][] {
  const out: string[][] = [];
  const open = '<g class="mark-line role-mark';
  for (let at = svg.indexOf(open); at >= 0; at = svg.indexOf(open, at + 1)) {
    const close = svg.indexOf('</g>', at);
    const inner = svg.slice(at, close);
    out.push([...new Set([...inner.matchAll(/stroke="([^"]+)"/g)].map((m) => m[1]))]);
  }
  return out;
}
