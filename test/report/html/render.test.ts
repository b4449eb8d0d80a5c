import { describe, expect, it } from 'vitest';
import { type HtmlReport, renderHtmlReport } from '../../../reporters/projections/html/index.js';
import { readReport } from '../../../src/schema/read-report.js';
import type { Report } from '../../../src/schema/report.js';
import { cell, retentionFit } from '../../support/records.js';
import { figureOf, fixtureBaselines, fixtureReport, marksIn, rowsOf } from './support.js';

const ALL_CHARTS = [
  'accuracy-depth',
  'depth-heatmap',
  'kstar',
  'puzzle-collapse',
  'scc-ladder',
  'scc-scatter',
  'history-pd',
  'history-cc',
];

let rendered: Promise<HtmlReport> | undefined;
const full = () => {
  rendered ??= renderHtmlReport(fixtureReport(), { baselines: fixtureBaselines() });
  return rendered;
};
const chart = (r: HtmlReport, id: string) => {
  const found = r.charts.find((c) => c.id === id);
  if (!found) throw new Error(`no chart ${id}`);
  return found;
};

/** A report with only the given parts: everything else empty. */
function bareReport(parts: Partial<Report>): Report {
  const base = fixtureReport();
  return {
    ...base,
    cells: [],
    fits: [],
    collapse: [],
    ablations: [],
    scc: [],
    gates: [],
    tests: [],
    ...parts,
  };
}

describe('renderHtmlReport on the sample run', () => {
  it('draws every chart, each with data rows and the marks those rows imply', async () => {
    const r = await full();
    expect(r.charts.map((c) => c.id)).toEqual(ALL_CHARTS);
    expect(r.absent).toEqual([]);
    expect(r.warnings).toEqual([]);
    for (const c of r.charts) {
      expect(rowsOf(c).length, c.id).toBeGreaterThan(0);
      const marks = marksIn(r.html, c.id);
      const total = Object.values(marks).reduce((s, n) => s + n, 0);
      expect(total, `${c.id} marks`).toBeGreaterThan(0);
    }
  });

  it('accuracy vs depth: one marker and one Clopper–Pearson bar per CCB cell, one curve per fit', async () => {
    const r = await full();
    const report = fixtureReport();
    const ccbCells = report.cells.filter((c) => c.family === 'ccb' && c.accuracy !== null);
    const c = chart(r, 'accuracy-depth');
    expect(rowsOf(c, 'observed')).toHaveLength(ccbCells.length);
    const marks = marksIn(r.html, 'accuracy-depth');
    expect(marks.symbol).toBe(ccbCells.length + rowsOf(c, 'fit-input').length);
    expect(marks.rule).toBe(ccbCells.length);
    expect(marks.line).toBe(report.fits.length);
    // The curve is 100·p_d^N of the fit, not a smoothing of the points.
    const d2 = report.fits.find((f) => f.task === 'd2');
    const at20 = rowsOf(c, 'fit').find((row) => row.task === 'd2' && row.depth === 20);
    expect(at20?.accuracy).toBeCloseTo(100 * (d2?.pd ?? Number.NaN) ** 20, 4);
    // Error bars are the cells' own Clopper–Pearson intervals.
    const cellAt = ccbCells.find((x) => x.task === 'd1' && x.level === 15);
    const row = rowsOf(c, 'observed').find((x) => x.task === 'd1' && x.depth === 15);
    expect(row?.lo).toBeCloseTo(100 * (cellAt?.ci95?.[0] ?? Number.NaN), 4);
    expect(row?.hi).toBeCloseTo(100 * (cellAt?.ci95?.[1] ?? Number.NaN), 4);
  });

  it('heatmap, k*, puzzles, SCC and history draw exactly their rows', async () => {
    const r = await full();
    const report = fixtureReport();
    const heat = marksIn(r.html, 'depth-heatmap');
    const ccbCells = report.cells.filter((c) => c.family === 'ccb');
    expect(heat.rect).toBe(ccbCells.length);
    expect(heat.text).toBe(ccbCells.length);

    const kstar = chart(r, 'kstar');
    expect(marksIn(r.html, 'kstar').rect).toBe(rowsOf(kstar, 'bar').length);
    const d2Hist = report.fits.find((f) => f.task === 'd2')?.kStar.histogram ?? {};
    const d2Bars = rowsOf(kstar, 'bar').filter((row) => String(row.panel).startsWith('d2 '));
    expect(d2Bars.reduce((s, row) => s + Number(row.count), 0)).toBe(Object.values(d2Hist).reduce((s, n) => s + n, 0));

    const puzzles = chart(r, 'puzzle-collapse');
    const levels = report.collapse.flatMap((c) => c.levels);
    expect(marksIn(r.html, 'puzzle-collapse').symbol).toBe(levels.length);
    const lambda = rowsOf(puzzles, 'lambda');
    expect(lambda.map((row) => [row.task, row.level])).toEqual(
      report.collapse.map((c) => [c.task, c.collapseThreshold.levelIndex]),
    );

    const tiers = (report.scc[0].result as { tiers: Array<{ trials: unknown[] }> }).tiers;
    expect(marksIn(r.html, 'scc-ladder').symbol).toBe(tiers.length);
    const trials = tiers.flatMap((t) => t.trials);
    expect(marksIn(r.html, 'scc-scatter').symbol).toBe(trials.length);
    expect(rowsOf(chart(r, 'scc-scatter'), 'attractor').length).toBeGreaterThan(0);

    // Two baselines and this report; three tasks each for p_d, one SCC task for CC.
    expect(marksIn(r.html, 'history-pd').symbol).toBe(3 * 3);
    expect(marksIn(r.html, 'history-cc').symbol).toBe(3);
    expect(rowsOf(chart(r, 'history-pd')).map((row) => row.release)).toContain('this report');
  });

  it('is deterministic: the same report gives the same bytes', async () => {
    const a = await renderHtmlReport(fixtureReport(), { baselines: fixtureBaselines() });
    const b = await renderHtmlReport(fixtureReport(), { baselines: [...fixtureBaselines()].reverse() });
    expect(b.html).toBe(a.html);
    expect(JSON.stringify(b.charts)).toBe(JSON.stringify(a.charts));
    expect(a.html).toBe((await full()).html);
  });

  it('loads nothing over the network: no http(s) URL other than SVG namespaces, no script, no link', async () => {
    const { html } = await full();
    const withoutNamespaces = html.replace(/ xmlns(:\w+)?="[^"]*"/g, '');
    expect(withoutNamespaces).not.toMatch(/https?:\/\//);
    expect(html).not.toMatch(/<script|<link|<iframe|<img|@import|url\((?!#)/i);
    expect(html).toContain('Content-Security-Policy');
    // Gradient and clip ids are scoped per chart, so inline SVGs cannot collide.
    const ids = [...html.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('prints the tables: fits with p_d [CI], gates, ablation, header', async () => {
    const { html } = await full();
    const report = fixtureReport();
    const d1 = report.fits[0];
    expect(html).toContain(`[${d1.ci95[0].toFixed(3)}, ${d1.ci95[1].toFixed(3)}]`);
    expect(html).toContain(report.git.sha ?? 'no sha');
    expect(html).toContain('sim:retention?p=0.95');
    expect(html).toMatch(/exact McNemar vs <code>standard<\/code>/);
    expect(html).toContain('<span class="fail">FAIL</span>');
  });
});

describe('renderHtmlReport on partial reports', () => {
  it('says plainly which sections are absent, and draws what it has', async () => {
    const cells = [5, 10, 15].map((level) => cell({ level }));
    const kStar = { n: 4, mean: 2, median: 2, early: 4, mid: 0, late: 0, histogram: { '2': 4 } };
    const fits = [retentionFit({ counts: [{ depth: 5, correct: 30, n: 38 }], kStar })];
    const r = await renderHtmlReport(bareReport({ cells, fits }));
    expect(r.charts.map((c) => c.id)).toEqual(['accuracy-depth', 'depth-heatmap', 'kstar']);
    expect(r.absent.map((a) => a.id)).toEqual([
      'puzzle-collapse',
      'scc-ladder',
      'scc-scatter',
      'history-pd',
      'history-cc',
    ]);
    expect(r.html).toContain('Not in this report');
    expect(r.html).toContain('no puzzle level sweeps in this report');
    expect(r.html).toContain('no baselines given');
    expect(r.warnings).toEqual([]);
    expect(figureOf(r.html, 'scc-ladder')).toBeNull();
    // A figure of an absent section is not listed a second time.
    expect(r.html).not.toContain('Figure “Puzzle accuracy');
  });

  it('puts the task’s own prompt before its ablation variants (heatmap columns, colour order)', async () => {
    const cells = [
      cell({ level: 5, variant: 'A' }),
      cell({ level: 5 }),
      cell({ level: 10 }),
      cell({ level: 5, variant: 'verbose' }),
    ];
    const r = await renderHtmlReport(bareReport({ cells }));
    const heat = r.charts.find((c) => c.id === 'depth-heatmap')?.spec as {
      layer: Array<{ encoding: { x: { sort: string[] } } }>;
    };
    expect(heat.layer[0].encoding.x.sort).toEqual(['d2', 'd2 · A', 'd2 · verbose']);
    const acc = JSON.stringify(r.charts.find((c) => c.id === 'accuracy-depth')?.spec);
    expect(acc).toContain('"domain":["standard","A","verbose"]');
  });

  it('an empty report renders a page with every figure listed as absent', async () => {
    const r = await renderHtmlReport(bareReport({}));
    expect(r.charts).toEqual([]);
    expect(r.absent.map((a) => a.id)).toEqual(ALL_CHARTS);
    expect(r.html).toContain('</html>');
  });

  it('k* falls back to the cells’ histograms when a task has no fit', async () => {
    const cells = [
      cell({ level: 5 }),
      cell({ level: 10, kStar: { n: 3, mean: 4, median: 4, early: 0, mid: 3, late: 0, histogram: { '4': 3 } } }),
    ];
    const r = await renderHtmlReport(bareReport({ cells }));
    const kstar = r.charts.find((c) => c.id === 'kstar');
    expect(rowsOf(kstar as never, 'bar').map((row) => [row.k, row.count])).toEqual([
      [3, 8],
      [4, 3],
    ]);
  });

  it('an SCC record whose result has another shape is set aside when read, named; the rest of the page renders', async () => {
    const base = fixtureReport();
    const raw = JSON.parse(JSON.stringify(bareReport({ scc: base.scc, cells: base.cells })));
    raw.scc[0].result.tiers = 'not a list';
    const read = readReport(raw);
    expect(read.success).toBe(true);
    expect(read.setAside).toEqual([
      "scc record scc/count set aside: its result does not match its assay's schema (field 'tiers': Invalid input: expected array, received string)",
    ]);
    const r = await renderHtmlReport(read.success ? read.data : bareReport({}));
    expect(r.charts.map((c) => c.id)).not.toContain('scc-ladder');
    expect(r.absent.find((a) => a.id === 'scc-ladder')?.reason).toBe('no SCC record in this report');
    expect(r.charts.length).toBeGreaterThan(0);
    expect(r.warnings).toEqual([]);
  });

  it('escapes every string that comes from the report', async () => {
    const cells = [cell({ task: '<script>alert(1)</script>', level: 5 })];
    const { html } = await renderHtmlReport(bareReport({ cells }));
    expect(html).not.toContain('<script>');
    expect(html).toContain('&lt;script&gt;');
  });
});
