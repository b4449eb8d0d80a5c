import type { CellResult } from '../../../../src/schema/cell.js';
import type { BoundedText, TrialExample } from '../../../../src/schema/example.js';
import type { Report } from '../../../../src/schema/report.js';
import {
  cellLabel,
  cellOutcomeLine,
  exampleHeadline,
  hasFailure,
  isFailureKind,
  type TraceRow,
  traceRows,
} from '../../example-view.js';
import { escapeHtml as e } from '../escape.js';

/**
 * The trial explorer: per cell, its example trials — the trace beside the canonical one with the first divergent
 * step and the answer block marked, the final answer, the reasoning collapsed. Model text is untrusted: every
 * string of it is escaped and sits in element content (no attribute, no script, no URL is built from it).
 */

const code = (text: string | null): string => (text === null ? '<i>(none)</i>' : `<code>${e(text)}</code>`);

function traceRow(row: TraceRow): string {
  if (row.kind === 'elided') return `<tr class="elided"><td colspan="3">${e(row.note)}</td></tr>`;
  if (row.kind === 'answer') {
    const mark = row.matches ? 'matches' : 'differs';
    return (
      `<tr class="answer ${mark}" data-answer="${mark}"><th scope="row">answer <span class="tag">${mark === 'matches' ? 'right' : 'wrong'}</span></th>` +
      `<td>${code(row.model)}</td><td>${code(row.canonical)}</td></tr>`
    );
  }
  const tag =
    row.status === 'divergent'
      ? ' <span class="tag">◀ first divergent step</span>'
      : row.status === 'differs'
        ? ' <span class="tag">differs</span>'
        : '';
  const issue = row.issue !== undefined ? `<br><small>${e(row.issue)}</small>` : '';
  return (
    `<tr class="step ${row.status}" data-step="${row.step}"${row.status === 'divergent' ? ' data-divergent="true"' : ''}>` +
    `<th scope="row">${row.step}${tag}</th><td>${code(row.model)}${issue}</td><td>${code(row.canonical)}</td></tr>`
  );
}

function collapsed(what: string, text: BoundedText): string {
  const cut = text.text.length < text.chars ? `, shown cut to ${text.text.length}` : '';
  return `<details class="text"><summary>${e(what)} (${text.chars} chars${cut})</summary><pre>${e(text.text)}</pre></details>`;
}

function exampleHtml(cell: CellResult, example: TrialExample): string {
  const failure = isFailureKind(cell, example.kind);
  const issues = example.issues.length
    ? `<ul class="issues">${example.issues.map((i) => `<li>${e(i)}</li>`).join('')}</ul>`
    : '';
  const trace = example.trace
    ? `<table class="trace"><thead><tr><th>step</th><th>model</th><th>canonical</th></tr></thead><tbody>\n` +
      `${traceRows(example.trace).map(traceRow).join('\n')}\n</tbody></table>`
    : '';
  const answer = example.answer
    ? collapsed('final answer', example.answer)
    : '<p class="note">no response (missing data)</p>';
  const reasoning = example.reasoning ? collapsed('reasoning', example.reasoning) : '';
  return (
    `<article class="example${failure ? ' failure' : ''}" data-kind="${e(example.kind)}">\n` +
    `<h4>${e(exampleHeadline(example))}</h4>\n${issues}\n${trace}\n${answer}\n${reasoning}\n` +
    `<p class="note">prompt sha256 <code>${e(example.promptSha256)}</code>` +
    `${example.cacheKey !== undefined ? ` · response cache key <code>${e(example.cacheKey)}</code>` : ''}</p>\n</article>`
  );
}

/** The explorer's HTML: one collapsible block per cell with examples; the first cell with a failure is open. */
export function renderExamplesSection(report: Report): string {
  const cells = report.cells.filter((c) => (c.examples ?? []).length > 0);
  const firstFailing = cells.find(hasFailure);
  return cells
    .map((cell) => {
      const examples = cell.examples ?? [];
      const open = cell === firstFailing ? ' open' : '';
      return (
        `<details class="cell-examples${hasFailure(cell) ? ' failing' : ''}"${open}>` +
        `<summary><b>${e(cellLabel(cell))}</b> — ${e(cellOutcomeLine(cell))}: ${examples.length} example(s)</summary>\n` +
        `${examples.map((x) => exampleHtml(cell, x)).join('\n')}\n</details>`
      );
    })
    .join('\n');
}
