import type { Report } from '../../../src/schema/report.js';
import type { AbsentChart, ChartSpec } from './chart.js';
import { escapeHtml as e } from './escape.js';
import { renderExamplesSection } from './sections/examples.js';
import { leaderboardTables } from './sections/leaderboard.js';
import { renderSccSecondarySection } from './sections/scc-secondary.js';
import { PAGE_CSS } from './style.js';
import { subjectLabel } from './subject-label.js';
import {
  ablationTables,
  cellsTable,
  collapseTable,
  evidenceTable,
  failedTestsList,
  fitsTable,
  gatesTable,
  headerTable,
  sccTable,
  spendTables,
} from './tables.js';

export interface RenderedFigure {
  chart: ChartSpec;
  svg: string;
}

/** A page section: figures (by chart id) and tables, or the reason it is absent. */
interface Section {
  id: string;
  title: string;
  charts: string[];
  tables: string;
  /** Why the section has nothing to show (null = shown). */
  absentReason: string | null;
}

// No script, no external fetch of any kind: the policy makes the browser enforce what the tests check.
const CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:";

function figure({ chart, svg }: RenderedFigure): string {
  return (
    `<figure id="chart-${e(chart.id)}" data-chart="${e(chart.id)}">\n<h3>${e(chart.title)}</h3>\n${svg}\n` +
    `<figcaption>${e(chart.caption)}</figcaption>\n</figure>`
  );
}

function sections(report: Report): Section[] {
  const none = (what: string) => `no ${what} in this report`;
  return [
    {
      id: 'gates',
      title: 'Gates',
      charts: [],
      tables: report.gates.length ? `${gatesTable(report)}\n${evidenceTable(report)}` : '',
      absentReason: report.gates.length ? null : none('gate results'),
    },
    {
      // only with several subjects; a one-subject page has no such section (and no note about it)
      id: 'leaderboard',
      title: 'Leaderboard: subjects ranked per project, with which ranks the paired tests separate',
      charts: ['leaderboard-lambda', 'leaderboard-cc'],
      tables: report.leaderboard ? leaderboardTables(report.leaderboard) : '',
      absentReason: null,
    },
    {
      id: 'ccb',
      title: 'CCB: accuracy vs depth, retention p_d, divergence step k*',
      charts: ['accuracy-depth', 'depth-heatmap', 'kstar'],
      tables:
        (report.fits.length
          ? `<h3>Retention fits (P(correct | N) = p_d^N)</h3>\n${fitsTable(report)}\n` +
            '<p class="note">' +
            // the † mark's footnote, where a row carries it
            (report.fits.some((f) => f.atLowerBound)
              ? '† at the optimiser lower bound 0.5: no statistically identifiable step retention. '
              : '') +
            'TFBC rate = correct answers reached through a divergent trace / correct answers. Format, truncation ' +
            'and API rates are over all non-API trials (API over all trials), whichever missing-data rule fits p_d.</p>'
          : '') + (report.ablations.length ? `<h3>Prompt ablations</h3>\n${ablationTables(report)}` : ''),
      absentReason: report.cells.some((c) => c.levelKind === 'depth') || report.fits.length ? null : none('CCB cells'),
    },
    {
      id: 'puzzles',
      title: 'Puzzles: accuracy vs level and the collapse threshold λ*',
      charts: ['puzzle-collapse'],
      tables: report.collapse.length ? collapseTable(report) : '',
      absentReason: report.collapse.length ? null : none('puzzle level sweeps'),
    },
    {
      id: 'scc',
      title: 'SCC: counting capacity',
      charts: ['scc-ladder', 'scc-scatter'],
      tables: report.scc.length ? sccTable(report) : '',
      absentReason: report.scc.length ? null : none('SCC records'),
    },
    {
      id: 'scc-secondary',
      title: 'SCC secondary assays: motif ablation, dual-task interference, agent operations',
      charts: [],
      tables: renderSccSecondarySection(report.sccAssays),
      absentReason: report.sccAssays.length ? null : none('SCC secondary assay records'),
    },
    {
      id: 'history',
      title: 'Per-release history',
      charts: ['history-pd', 'history-cc'],
      tables: '',
      absentReason: null,
    },
    {
      id: 'spend',
      title: 'Spend: calls, tokens and cost',
      charts: [],
      tables: report.spend && (report.spend.projects.length || report.spend.limit) ? spendTables(report.spend) : '',
      absentReason: null,
    },
    {
      // only when cells kept examples (config `examples`, CEILINGBENCH_EXAMPLES); no note otherwise
      id: 'examples',
      title: 'Examples: what the model wrote, trace beside the canonical one',
      charts: [],
      tables: report.cells.some((c) => (c.examples ?? []).length > 0)
        ? '<p class="note">Each cell keeps a few trials per outcome kind, failures first. The first step where the ' +
          "model's state differs from the canonical one is marked (k*'s step); steps before it are the same. Model " +
          'text is shown as text, cut to a bound.</p>\n' +
          renderExamplesSection(report)
        : '',
      absentReason: null,
    },
    {
      id: 'cells',
      title: 'All cells',
      charts: [],
      tables: report.cells.length
        ? `<details><summary>${report.cells.length} cells (click to expand)</summary>\n${cellsTable(report)}\n</details>`
        : '',
      absentReason: report.cells.length ? null : none('cells'),
    },
    {
      id: 'failed-tests',
      title: 'Failed tests without results',
      charts: [],
      tables: report.tests.length ? failedTestsList(report) : '',
      absentReason: null,
    },
  ];
}

/** Assembles the self-contained page: inline CSS and SVG, no script, no external resource. */
export function assemblePage(
  report: Report,
  figures: readonly RenderedFigure[],
  missing: readonly AbsentChart[],
): string {
  const byId = new Map(figures.map((f) => [f.chart.id, f]));
  const absentNotes: string[] = [];
  const chartsOfAbsentSections = new Set<string>();
  const body: string[] = [];
  for (const section of sections(report)) {
    const shown = section.charts.flatMap((id) => {
      const f = byId.get(id);
      return f ? [figure(f)] : [];
    });
    if (section.absentReason !== null && shown.length === 0) {
      absentNotes.push(`<li><b>${e(section.title)}</b>: ${e(section.absentReason)}.</li>`);
      for (const id of section.charts) chartsOfAbsentSections.add(id);
      continue;
    }
    if (shown.length === 0 && !section.tables) continue;
    body.push(
      `<section id="${section.id}">\n<h2>${e(section.title)}</h2>\n${shown.join('\n')}\n${section.tables}\n</section>`,
    );
  }
  // A figure of a section that is absent as a whole is not listed again.
  for (const a of missing) {
    if (chartsOfAbsentSections.has(a.id)) continue;
    absentNotes.push(`<li><b>Figure “${e(a.title)}”</b>: ${e(a.reason)}.</li>`);
  }
  const title = `ceilingbench report — ${subjectLabel(report.subjects)}`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="ceilingbench ${e(report.tool.version)}">
<title>${e(title)}</title>
<style>${PAGE_CSS}</style>
</head>
<body>
<main>
<h1>${e(title)}</h1>
${headerTable(report)}
<p class="note">Charts are static SVG rendered from Vega-Lite specs; each spec and its data are in <code>charts.vl.json</code> beside this page, ready to re-plot.</p>
${absentNotes.length ? `<div class="absent"><h2>Not in this report</h2>\n<ul>\n${absentNotes.join('\n')}\n</ul></div>` : ''}
${body.join('\n')}
</main>
</body>
</html>
`;
}
