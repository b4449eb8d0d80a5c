import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Baseline } from '../../../src/schema/baseline.js';
import type { Report } from '../../../src/schema/report.js';
import type { AbsentChart, ChartResult, ChartSpec } from './chart.js';
import { accuracyDepthChart } from './charts/accuracy-depth.js';
import { depthHeatmapChart } from './charts/depth-heatmap.js';
import { historyCcChart, historyPdChart } from './charts/history.js';
import { kStarChart } from './charts/kstar.js';
import { leaderboardCcChart, leaderboardLambdaChart } from './charts/leaderboard.js';
import { puzzleCollapseChart } from './charts/puzzle-collapse.js';
import { sccLadderChart, sccScatterChart } from './charts/scc.js';
import { assemblePage, type RenderedFigure } from './page.js';
import type { renderChartSvg } from './render-svg.js';

export interface HtmlReportOptions {
  /** Saved per-release baselines (baselines/*.json) for the history charts. */
  baselines?: Baseline[];
}

export interface HtmlReport {
  html: string;
  /** Every drawn chart, in page order, with its Vega-Lite spec (data inline). */
  charts: ChartSpec[];
  /** The figures the report has no data for (or that failed to render), with the reason shown on the page. */
  absent: AbsentChart[];
  /** Vega-Lite / Vega warnings, prefixed with the chart id (none for a well-formed report; tests assert it). */
  warnings: string[];
}

/** Every figure of the report, in page order; each is drawn or absent with a reason. */
export function planCharts(report: Report, options: HtmlReportOptions = {}): ChartResult[] {
  const baselines = options.baselines ?? [];
  return [
    // only with a leaderboard (several subjects): a one-subject page keeps its figures
    ...leaderboardLambdaChart(report),
    ...leaderboardCcChart(report),
    accuracyDepthChart(report),
    depthHeatmapChart(report),
    kStarChart(report),
    puzzleCollapseChart(report),
    sccLadderChart(report),
    sccScatterChart(report),
    historyPdChart(report, baselines),
    historyCcChart(report, baselines),
  ];
}

/**
 * The chart renderer, loaded only when a report is drawn: vega and vega-lite are optional peer dependencies
 * (README: their install size, measured), so a user who never writes the HTML report does not install them. Without them every figure is
 * absent with this reason and the tables still stand.
 */
async function loadRenderer(): Promise<typeof renderChartSvg | { missing: string }> {
  // vega → vega-loader → node-fetch 2 → whatwg-url → tr46 requires Node's deprecated `punycode` as it loads, which
  // printed a DEP0040 warning on every run that drew charts; no deprecation is printed while vega loads (the
  // module is never used: charts fetch nothing)
  const noDeprecation = process.noDeprecation;
  process.noDeprecation = true;
  try {
    return (await import('./render-svg.js')).renderChartSvg;
  } catch (error) {
    // the usual case, said in words; anything else (a broken install) with its own first line
    const chain: string[] = [];
    for (let e: unknown = error; e instanceof Error && chain.length < 5; e = e.cause) chain.push(e.message);
    const notInstalled = chain.some((m) => /Cannot find (package|module) '(vega|vega-lite)'/.test(m));
    return {
      missing:
        (notInstalled
          ? 'they need the optional packages vega and vega-lite, which are not installed'
          : `vega could not be loaded (${(error as Error).message.split('\n')[0]})`) +
        ' — npm install -D vega@5 vega-lite@5, then run `ceilingbench report` to draw them from ceilingbench.json',
    };
  } finally {
    process.noDeprecation = noDeprecation;
  }
}

/** Renders index.html (self-contained: inline CSS and SVG) for a validated ceilingbench.json. */
export async function renderHtmlReport(report: Report, options: HtmlReportOptions = {}): Promise<HtmlReport> {
  const planned = planCharts(report, options);
  const absent = planned.flatMap((r) => (r.kind === 'absent' ? [r.absent] : []));
  const figures: RenderedFigure[] = [];
  const warnings: string[] = [];
  const render = await loadRenderer();
  const drawn = planned.flatMap((r) => (r.kind === 'drawn' ? [r.chart] : []));
  // Without the renderer, one entry says so for every figure (not one per figure, each with the loader's error).
  if (typeof render !== 'function' && drawn.length > 0) {
    const titles = drawn.map((c) => c.title).join(', ');
    absent.push({ id: 'charts', title: 'Charts', reason: `${drawn.length} figures (${titles}): ${render.missing}` });
  }
  // A chart that cannot be rendered is reported as absent: the rest of the page still stands.
  for (const chart of drawn) {
    if (typeof render !== 'function') continue;
    try {
      const rendered = await render(chart);
      warnings.push(...rendered.warnings.map((w) => `${chart.id}: ${w}`));
      figures.push({ chart, svg: rendered.svg });
    } catch (error) {
      absent.push({ id: chart.id, title: chart.title, reason: (error as Error).message });
    }
  }
  const charts = figures.map((f) => f.chart);
  return { html: assemblePage(report, figures, absent), charts, absent, warnings };
}

function writeAtomic(path: string, text: string): void {
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, path);
}

/** Writes an already rendered report (index.html + charts.vl.json) into `outDir`; returns the paths. */
export function writeRenderedHtmlReport(report: Report, rendered: HtmlReport, outDir: string): string[] {
  mkdirSync(outDir, { recursive: true });
  const specs = {
    generator: `ceilingbench ${report.tool.version}`,
    charts: rendered.charts.map((c) => ({ id: c.id, title: c.title, caption: c.caption, spec: c.spec })),
  };
  const files: Array<[string, string]> = [
    ['index.html', rendered.html],
    ['charts.vl.json', `${JSON.stringify(specs, null, 2)}\n`],
  ];
  for (const [name, text] of files) writeAtomic(join(outDir, name), text);
  return files.map(([name]) => join(outDir, name));
}

/** Writes index.html and charts.vl.json (every chart's spec with its data) into `outDir`; returns the paths. */
export async function writeHtmlReport(
  report: Report,
  outDir: string,
  options: HtmlReportOptions = {},
): Promise<string[]> {
  return writeRenderedHtmlReport(report, await renderHtmlReport(report, options), outDir);
}
