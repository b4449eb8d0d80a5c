import type { Report } from '../../../../src/schema/report.js';
import type { AgentAssayResult, DualTaskResult, MotifAblationResult } from '../../../../src/schema/scc-secondary.js';
import { sccStopText } from '../../../../src/schema/scc-stop.js';
import { fixed, percent } from '../../format.js';
import { escapeHtml as e, htmlTable } from '../escape.js';

/**
 * The SCC secondary assays (paper 003: motif ablation Fig. 2E / Table S11, dual-task interference Fig. 2F,
 * agent operation Tables S9–S10) as an HTML fragment: tables, and one inline-SVG line chart of the smoothed
 * dual-task count error. Returns '' when the report has no such records. Each record's result was validated
 * against its assay's schema when the report was read (src/schema/read-report.ts).
 */
type AssayRecord = Report['sccAssays'][number];

const int = (x: number | null): string => (x === null ? '–' : String(x));
const delimiterLabel = (d: string): string => `<code>"${e(d)}"</code>`;

function motifTables(result: MotifAblationResult): string {
  const rows = result.rows.map((r) => [
    `<code>${e(r.motif)}</code>`,
    e(r.item),
    delimiterLabel(r.delimiter),
    r.stopped ? e(sccStopText(r.stopped)) : r.skipped ? 'skipped (preflight)' : String(r.cc),
    r.stopped ? `≥ ${r.ccLower} (lower bound only)` : `${r.ccLower}–${r.ccUpper ?? '∞'}`,
    r.relativeCc === null ? '–' : `×${fixed(r.relativeCc, 2)}`,
    fixed(r.inputTokensPerItem, 3),
    r.relativeInputTokensPerItem === null ? '–' : `×${fixed(r.relativeInputTokensPerItem, 2)}`,
    String(r.calls),
  ]);
  return (
    `<h3>Motif / delimiter ablation (Table S11, Fig. 2E)</h3>\n` +
    `<p>SCC ladder per motif (max length ${result.maxLength}); relative to <code>${e(result.baselineMotif)}</code>. ` +
    'Input tokens per item: slope of the reported input tokens on the true count (simulated subjects report a ' +
    'chars/4 estimate).</p>\n' +
    htmlTable(
      ['motif', 'item', 'delimiter', 'CC', 'bounds', 'CC vs baseline', 'input tokens / item', 'vs baseline', 'calls'],
      rows,
      'scc-secondary motif',
    ) +
    (result.stopped
      ? `<p>Stopped at <code>${e(result.stopped.motif)}</code>: ${e(sccStopText(result.stopped))}; ` +
        `${result.stopped.notRun.length} motif(s) not run.</p>\n`
      : '')
  );
}

const COLORS = ['#1f77b4', '#d62728', '#ff7f0e', '#2ca02c', '#9467bd', '#8c564b'];

/** Smoothed mean signed count error against the true count, one polyline per condition. */
function dualChart(result: DualTaskResult): string {
  const series = result.conditions.map((c) => ({
    name: c.condition,
    points: c.series.flatMap((p) => (p.smoothedError === null ? [] : [{ x: p.count, y: p.smoothedError }])),
  }));
  const all = series.flatMap((s) => s.points);
  if (all.length === 0) return '';
  const [w, h, left, right, top, bottom] = [560, 220, 48, 150, 12, 32];
  const xs = all.map((p) => p.x);
  const ys = all.map((p) => p.y);
  const [x0, x1] = [Math.min(...xs), Math.max(...xs)];
  const [y0, y1] = [Math.min(0, ...ys), Math.max(0, ...ys)];
  const sx = (x: number) => left + ((x - x0) / Math.max(1, x1 - x0)) * (w - left - right);
  const sy = (y: number) => top + (1 - (y - y0) / Math.max(1e-9, y1 - y0)) * (h - top - bottom);
  const lines = series.map((s, i) => {
    const color = COLORS[i % COLORS.length];
    const pts = s.points.map((p) => `${sx(p.x).toFixed(1)},${sy(p.y).toFixed(1)}`).join(' ');
    const legendY = top + 14 * i + 8;
    return (
      `<polyline fill="none" stroke="${color}" stroke-width="2" points="${pts}"/>` +
      `<line x1="${w - right + 10}" x2="${w - right + 26}" y1="${legendY}" y2="${legendY}" stroke="${color}" stroke-width="2"/>` +
      `<text x="${w - right + 30}" y="${legendY + 4}" font-size="11">${e(s.name)}</text>`
    );
  });
  const axis =
    `<line x1="${left}" x2="${w - right}" y1="${sy(0).toFixed(1)}" y2="${sy(0).toFixed(1)}" stroke="#999"/>` +
    `<line x1="${left}" x2="${left}" y1="${top}" y2="${h - bottom}" stroke="#999"/>` +
    `<text x="${left - 4}" y="${top + 8}" font-size="10" text-anchor="end">${fixed(y1, 1)}</text>` +
    `<text x="${left - 4}" y="${h - bottom}" font-size="10" text-anchor="end">${fixed(y0, 1)}</text>` +
    `<text x="${left}" y="${h - bottom + 14}" font-size="10">${x0}</text>` +
    `<text x="${w - right}" y="${h - bottom + 14}" font-size="10" text-anchor="end">${x1}</text>` +
    `<text x="${(left + w - right) / 2}" y="${h - 4}" font-size="11" text-anchor="middle">true count</text>`;
  return (
    `<figure><svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" role="img" ` +
    `aria-label="smoothed mean count error by condition">${axis}${lines.join('')}</svg>` +
    `<figcaption>Mean signed count error (parsed − true), ${result.window}-point centred moving average.</figcaption></figure>`
  );
}

function dualTables(result: DualTaskResult): string {
  const rows = result.conditions.map((c) => [
    `<code>${e(c.condition)}</code>`,
    `${c.trials}${c.missing ? ` (+${c.missing} missing)` : ''}`,
    percent(c.parseRate),
    percent(c.countAccuracy),
    fixed(c.meanAbsError, 2),
    fixed(c.meanSignedError, 2),
    percent(c.secondaryAccuracy),
    percent(c.taskAccuracy),
    fixed(c.meanMatchedTokens, 0),
  ]);
  const secondaries = result.secondaries.map((s) => `${e(s.id)} at level ${s.level} (${e(s.title)})`).join('; ');
  return (
    `<h3>Dual-task interference (Supplementary Note 7, Fig. 2F)</h3>\n` +
    `<p>Counts ${result.counts[0]}–${result.counts[result.counts.length - 1]} (${result.counts.length} levels), ` +
    `${result.samplesPerCount} trial(s) per count and condition. Secondary tasks: ${secondaries}. Controls: dead code ` +
    'and a second count of <code>b</code>, length-matched to a pooled real item.</p>\n' +
    htmlTable(
      [
        'condition',
        'trials',
        'parse',
        'count exact',
        'MAE',
        'mean signed error',
        'b count exact',
        'task',
        'matched tokens',
      ],
      rows,
      'scc-secondary dual',
    ) +
    dualChart(result)
  );
}

function agentTables(result: AgentAssayResult): string {
  const s9 = result.conditions.map((c) => [
    `<code>${e(c.condition)}</code>`,
    `${c.trials}${c.missing ? ` (+${c.missing} missing)` : ''}`,
    fixed(c.parseRate, 3),
    fixed(c.strictJsonRate, 3),
    fixed(c.countOrCopyRate, 3),
    fixed(c.taskSuccessRate, 3),
  ]);
  const s10 = result.thresholds.map((t) => [
    `<code>${e(t.condition)}</code>`,
    `${t.levels} × ${t.trialsPerLevel}`,
    int(t.lastFullSuccess),
    int(t.firstFailure),
    int(t.firstAllFail),
    t.recoveries.length ? t.recoveries.join(', ') : '–',
    fixed(t.taskSuccessRate, 3),
  ]);
  return (
    `<h3>Agent operation (Supplementary Note 8, Tables S9–S10)</h3>\n` +
    `<p>Seed ${result.seed}, ${result.taskSamples} agent task(s); ladders salted with <code>${e(result.ladderModel)}</code>: ` +
    `agent ${e(result.agentCounts.join(' '))}; copy ${e(result.copyCounts.join(' '))}.</p>\n` +
    htmlTable(
      ['condition', 'trials', 'parse rate', 'strict JSON', 'count/copy', 'agent task'],
      s9,
      'scc-secondary agent-s9',
    ) +
    '\n' +
    htmlTable(
      [
        'condition',
        'levels × trials',
        'last full success',
        'first failure',
        'first all-fail',
        'recoveries',
        'agent task',
      ],
      s10,
      'scc-secondary agent-s10',
    )
  );
}

function renderOne(record: AssayRecord): string {
  if (record.assay === 'motif') return motifTables(record.result);
  if (record.assay === 'dual-task') return dualTables(record.result);
  return agentTables(record.result);
}

export function renderSccSecondarySection(assays: Report['sccAssays']): string {
  if (assays.length === 0) return '';
  const order = { motif: 0, 'dual-task': 1, agent: 2 } as const;
  const sorted = [...assays].sort((a, b) => order[a.assay] - order[b.assay]);
  return `<div class="scc-secondary">\n${sorted.map(renderOne).join('\n')}\n</div>`;
}
