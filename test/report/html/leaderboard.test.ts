import { beforeAll, describe, expect, it } from 'vitest';
import { type HtmlReport, renderHtmlReport } from '../../../reporters/projections/html/index.js';
import type { Report } from '../../../src/schema/report.js';
import { lineColours, markGroups, THREE, threeSubjectReport } from './multi-subject-report.js';
import { figureOf, rowsOf } from './support.js';

let report: Report;
let rendered: HtmlReport;

beforeAll(async () => {
  report = await threeSubjectReport();
  rendered = await renderHtmlReport(report);
}, 180_000);

const chart = (id: string) => {
  const found = rendered.charts.find((c) => c.id === id);
  if (!found) throw new Error(`no chart ${id}`);
  return found;
};

describe('the HTML report of a run with three subjects', () => {
  it('accuracy vs depth: one fitted p_d^N curve per subject per task, in leaderboard order', () => {
    expect(rendered.warnings).toEqual([]);
    const c = chart('accuracy-depth');
    const fitRows = rowsOf(c, 'fit');
    const curves = new Set(fitRows.map((r) => `${r.task}|${r.series}`));
    expect([...curves].sort()).toEqual(['d1', 'd2'].flatMap((t) => THREE.map((s) => `${t}|${s}`)).sort());
    // each curve is its own subject's fit
    for (const fit of report.fits) {
      const at20 = fitRows.find((r) => r.task === fit.task && r.series === fit.subject && r.depth === 20);
      expect(at20?.accuracy).toBeCloseTo(100 * fit.pd ** 20, 4);
    }
    const svg = figureOf(rendered.html, 'accuracy-depth') ?? '';
    // Vega draws each series of a panel as its own line group: 2 panels × 3 subjects, one path each, 3 colours
    expect(markGroups(svg, 'line')).toEqual([1, 1, 1, 1, 1, 1]);
    expect(new Set(lineColours(svg).flat()).size).toBe(3);
    const legend = (c.spec as { spec: { layer: Array<{ encoding: { color: { scale: { domain: string[] } } } }> } }).spec
      .layer[0].encoding.color.scale.domain;
    expect(legend).toEqual(THREE);
  });

  it('heatmap: a column per task and subject; the ranked tables and relations are on the page', () => {
    const columns = new Set(rowsOf(chart('depth-heatmap')).map((r) => r.column));
    expect(columns.size).toBe(6);
    expect(columns.has('d2 · sim:retention?p=0.80')).toBe(true);
    const section = rendered.html.slice(rendered.html.indexOf('<section id="leaderboard">'));
    expect(section).toContain('d2 · d2 (standard, paper rule) — ranked by p_d');
    expect(section).toContain('sim:retention?p=0.95 &gt; sim:retention?p=0.90 (p = ');
    // no puzzle or SCC boards, so no λ* or CC figure
    expect(rendered.charts.map((x) => x.id)).not.toContain('leaderboard-cc');
  });

  it('λ* per family per subject and CC per subject with ladder bounds, from the boards', async () => {
    const lb = report.leaderboard;
    if (!lb) throw new Error('no leaderboard');
    const entry = (subject: string, rank: number, cc: number, lower: number, upper: number | null) => ({
      subject,
      spec: subject,
      seed: 0,
      status: 'ok' as const,
      rank,
      rankRange: [rank, rank] as [number, number],
      rankLabel: String(rank),
      cc,
      ccLower: lower,
      ccUpper: upper,
      bounded: upper !== null,
    });
    const collapseEntry = (subject: string, rank: number, levelIndex: number | null) => ({
      subject,
      spec: subject,
      seed: 0,
      status: 'ok' as const,
      rank,
      rankRange: [rank, rank] as [number, number],
      rankLabel: String(rank),
      levelIndex,
      knob: null,
      levelIndexCi95: levelIndex === null ? null : ([levelIndex - 1, levelIndex] as [number, number]),
      accuracy: 0.5,
      accuracyCi95: [0.4, 0.6] as [number, number],
      correct: 20,
      n: 40,
      tfbcRate: null,
      kStarMean: null,
    });
    const base = { paired: true, comparisons: [], relations: [], cells: [], notes: [] };
    const withBoards: Report = {
      ...report,
      leaderboard: {
        ...lb,
        projects: [
          ...lb.projects,
          {
            project: 'puzzles',
            boards: [
              {
                kind: 'collapse',
                project: 'puzzles',
                task: 'hanoi',
                ...base,
                entries: [collapseEntry('A', 1, 4), collapseEntry('B', 2, 3), collapseEntry('C', 3, null)],
              },
            ],
          },
          {
            project: 'scc',
            boards: [
              {
                kind: 'scc',
                project: 'scc',
                task: 'count',
                ...base,
                entries: [entry('A', 1, 64, 64, 128), entry('B', 2, 16, 16, 32), entry('C', 3, 4, 4, null)],
              },
            ],
          },
        ],
      },
    };
    const r = await renderHtmlReport(withBoards);
    expect(r.warnings).toEqual([]);
    const lambda = r.charts.find((c) => c.id === 'leaderboard-lambda');
    expect(rowsOf(lambda as never).map((x) => [x.subject, x.level])).toEqual([
      ['A', 4],
      ['B', 3],
    ]);
    expect(lambda?.caption).toContain('Undefined (flat curve), not drawn: C on hanoi');
    const cc = r.charts.find((c) => c.id === 'leaderboard-cc');
    expect(rowsOf(cc as never).map((x) => [x.subject, x.cc, x.lo, x.hi])).toEqual([
      ['A', 64, 64, 128],
      ['B', 16, 16, 32],
      ['C', 4, 4, 4],
    ]);
    expect(markGroups(figureOf(r.html, 'leaderboard-cc') ?? '', 'symbol')).toEqual([3]);
    expect(markGroups(figureOf(r.html, 'leaderboard-cc') ?? '', 'rule')).toEqual([3]);
  });
});
