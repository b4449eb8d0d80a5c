import type { Board, Leaderboard } from '../../../../src/schema/leaderboard.js';
import { fixed, percent } from '../../format.js';
import { boardTitle, cellLabel, cellStandingText, headline, RANKED_BY, rankText } from '../../leaderboard.js';
import { escapeHtml as e, htmlTable } from '../escape.js';

/** One board: the ranked table, the relations between adjacent ranks, the cells side by side, how to read it. */
function boardHtml(project: string, board: Board): string {
  const retention = board.kind === 'retention';
  const head =
    board.kind === 'scc'
      ? ['rank', 'subject', 'CC (ladder bounds)']
      : [
          'rank',
          'subject',
          retention ? 'p_d (95% CI)' : 'λ* · accuracy (95% CI)',
          'TFBC rate',
          'mean k*',
          ...(retention ? ['format', 'truncation'] : []),
        ];
  const rows = board.entries.map((entry) => {
    const base = [e(rankText(entry)), `<code>${e(entry.subject)}</code>`, e(headline(board, entry))];
    if (board.kind === 'scc' || !('tfbcRate' in entry)) return base;
    const rates = 'formatRate' in entry ? [percent(entry.formatRate), percent(entry.truncationRate)] : ([] as string[]);
    return [...base, percent(entry.tfbcRate), fixed(entry.kStarMean, 1), ...rates];
  });
  const relations = board.relations.length
    ? `<ul class="relations">${board.relations.map((r) => `<li>${e(r.text)}</li>`).join('')}</ul>`
    : '';
  const subjects = board.entries.map((x) => x.subject);
  const cells = board.cells.length
    ? `<details><summary>Accuracy per cell, side by side (${board.cells.length} cells; * = some pair separable, McNemar, Holm over the project’s cells)</summary>\n` +
      htmlTable(
        ['cell', ...subjects.map((s) => `<code>${e(s)}</code>`)],
        board.cells.map((row) => [
          e(cellLabel(board.kind, row)) + (row.comparisons.some((c) => c.separable) ? ' *' : ''),
          ...subjects.map((s) => {
            const c = row.subjects.find((x) => x.subject === s);
            return c ? e(cellStandingText(c)) : '–';
          }),
        ]),
      ) +
      '\n</details>'
    : '';
  const notes = board.notes.length
    ? `<details><summary>How to read this board</summary><ul>${board.notes.map((n) => `<li>${e(n)}</li>`).join('')}</ul></details>`
    : '';
  return (
    `<div class="board" data-board="${e(`${project}|${board.kind}|${board.task}`)}">\n` +
    `<h3>${e(boardTitle(project, board))} — ranked by ${e(RANKED_BY[board.kind])}</h3>\n` +
    `${htmlTable(head, rows)}\n${relations}\n${cells}\n${notes}\n</div>`
  );
}

/** The leaderboard's ranked tables, per project and board. */
export function leaderboardTables(leaderboard: Leaderboard): string {
  const intro =
    `<p class="note">Paired tests on shared instances, Holm-adjusted per project at α = ${leaderboard.alpha} ` +
    `(bootstrap B = ${leaderboard.resamples}); a rank range (“1–2”) is what the tests leave open.</p>`;
  return [intro, ...leaderboard.projects.flatMap((p) => p.boards.map((b) => boardHtml(p.project, b)))].join('\n');
}
