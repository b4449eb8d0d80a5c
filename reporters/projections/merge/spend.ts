import type { Spend } from '../../../src/schema/report.js';
import { byKey } from '../order.js';
import { addAssayUsage as addAssays, addSpend, totalsOf as totals } from '../spend.js';

/**
 * The spend of merged runs: summed per subject and project, cells and assay rows listed as the runs list them.
 * Absent when an input has none; each run's spending limit is its own and is not carried over.
 */

export function mergeSpend(spends: ReadonlyArray<Spend | undefined>): Spend | undefined {
  if (spends.some((s) => s === undefined)) return undefined;
  const all = spends as Spend[];
  const subjects = new Map<string, Spend['subjects'][number]>();
  for (const s of all.flatMap((x) => x.subjects)) {
    const seen = subjects.get(s.subject);
    subjects.set(s.subject, seen ? { ...seen, ...addSpend(totals(seen), totals(s)) } : s);
  }
  const projects = new Map<string, Spend['projects'][number]>();
  for (const p of all.flatMap((x) => x.projects)) {
    const seen = projects.get(p.project);
    if (!seen) {
      projects.set(p.project, p);
      continue;
    }
    const assays = seen.assays && p.assays ? addAssays(seen.assays, p.assays) : (seen.assays ?? p.assays);
    projects.set(p.project, {
      project: p.project,
      ...addSpend(totals(seen), totals(p)),
      ...(assays ? { assays } : {}),
    });
  }
  const total = all.map((s) => totals(s.total)).reduce((x, y) => addSpend(x, y));
  const assayRecords = all.flatMap((s) => (s.total.assays ? [s.total.assays] : []));
  const assayTotal = assayRecords.length === 0 ? undefined : assayRecords.reduce(addAssays);
  return {
    currency: 'USD',
    priced: all.every((s) => s.priced),
    total: { ...total, ...(assayTotal ? { assays: assayTotal } : {}) },
    subjects: [...subjects.values()].sort(byKey((s) => s.subject)),
    projects: [...projects.values()].sort(byKey((p) => p.project)),
    cells: all.flatMap((s) => s.cells),
    assays: all.flatMap((s) => s.assays),
  };
}
