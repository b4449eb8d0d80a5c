import { describe, expect, it } from 'vitest';
import { mergeReports } from '../../reporters/projections/merge/index.js';
import { reportSchema } from '../../src/schema/report.js';
import { simReport } from './merge-support.js';

// A merge carries each cell whole: its examples stay the ones its run kept (bounded per cell), and a report from
// before examples merges with one that has them.

describe('merging reports with examples', () => {
  it('keeps every cell’s examples as its run wrote them, and takes a report without examples', async () => {
    const a = await simReport({ spec: 'sim:retention?p=0.9', runSeed: 0, tasks: ['d2'], trials: 6, levels: [5, 10] });
    const b = await simReport({ spec: 'sim:retention?p=0.8', runSeed: 0, tasks: ['d2'], trials: 6, levels: [5, 10] });
    const old = structuredClone(b);
    for (const cell of old.cells) delete cell.examples;
    const { report } = mergeReports(
      [
        { name: 'a/ceilingbench.json', report: a },
        { name: 'b/ceilingbench.json', report: old },
      ],
      { version: '9.9.9', resamples: 10 },
    );
    expect(reportSchema.parse(report)).toBeDefined();
    const ofA = report.cells.filter((c) => c.subject === 'sim:retention?p=0.9');
    expect(ofA.map((c) => c.examples)).toEqual(a.cells.map((c) => c.examples));
    expect(ofA.every((c) => (c.examples ?? []).length > 0)).toBe(true);
    const ofB = report.cells.filter((c) => c.subject === 'sim:retention?p=0.8');
    expect(ofB.length).toBe(2);
    expect(ofB.every((c) => c.examples === undefined)).toBe(true);
  });
});
