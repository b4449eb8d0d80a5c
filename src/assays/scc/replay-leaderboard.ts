import { z } from 'zod';
import { buildLeaderboard } from '../../leaderboard/index.js';
import { type SccBoard, sccBoardSchema } from '../../schema/leaderboard.js';
import type { SccHeadline } from '../../schema/report.js';
import { plainTable } from './plain-table.js';
import type { SccReplayRow } from './replay.js';

/**
 * The CC leaderboard of a replayed log file (issue 20, "SCC at scale"): the models ranked by our ladder's CC, as
 * the authors' Table S1 lists them, beside the published CC. The ranking and which ranks the ladder separates
 * are the SCC board of src/leaderboard (rank by CC, ties by name; two models are separable when their ladder
 * bounds are disjoint as closed intervals; a model our replay skipped at the preflight is listed unranked).
 * A model that could not be replayed has no CC of ours: it is listed last, unranked, with its published CC.
 */

export const sccLeaderboardRowSchema = z.object({
  /** "3" or "2–5" (the ranks the ladder bounds leave open); null: unranked (skipped, or not replayed). */
  rank: z.string().nullable(),
  model: z.string(),
  /** Our CC, lower and upper ladder bound (upper null: never failed a tier). Null: not replayed. */
  cc: z.number().int().nonnegative().nullable(),
  ccLower: z.number().int().nonnegative().nullable(),
  ccUpper: z.number().int().positive().nullable(),
  skipped: z.boolean().nullable(),
  publishedCc: z.number().int().nonnegative().nullable(),
  /** Our CC equals the published CC (false when either is missing). */
  equal: z.boolean(),
});
export type SccLeaderboardRow = z.infer<typeof sccLeaderboardRowSchema>;

export const sccReplayLeaderboardSchema = z.object({
  rows: z.array(sccLeaderboardRowSchema),
  /** Models whose CC equals the published one, of all models in the file. */
  equal: z.number().int().nonnegative(),
  models: z.number().int().nonnegative(),
  /** The leaderboard's SCC board of the replayed models (comparisons by ladder bounds, adjacent relations). */
  board: sccBoardSchema.nullable(),
});
export type SccReplayLeaderboard = z.infer<typeof sccReplayLeaderboardSchema>;

/** The CC leaderboard of a replay's rows; `task` names the board (e.g. the log file). */
export function sccReplayLeaderboard(rows: readonly SccReplayRow[], task = 'scc-replay'): SccReplayLeaderboard {
  const replayed = rows.filter((r) => r.error === null && r.cc !== null && r.ccLower !== null);
  const record = (r: SccReplayRow): SccHeadline => ({
    kind: 'scc',
    project: 'scc',
    task,
    cc: r.cc as number,
    ccLower: r.ccLower as number,
    ccUpper: r.ccUpper,
    bounded: r.bounded ?? false,
    skipped: r.skipped ?? false,
  });
  const board =
    replayed.length === 0
      ? null
      : (buildLeaderboard(
          replayed.map((r) => ({
            subject: r.model,
            seed: null,
            cells: [],
            fits: [],
            collapse: [],
            scc: [record(r)],
          })),
        ).projects[0].boards[0] as SccBoard);
  const byModel = new Map(rows.map((r) => [r.model, r]));
  const ranked: SccLeaderboardRow[] = (board?.entries ?? []).map((e) => {
    const r = byModel.get(e.spec) as SccReplayRow;
    const publishedCc = r.published?.cc ?? null;
    return {
      rank: e.rankLabel,
      model: r.model,
      cc: e.cc,
      ccLower: e.ccLower,
      ccUpper: e.ccUpper,
      skipped: r.skipped,
      publishedCc,
      equal: publishedCc !== null && publishedCc === e.cc,
    };
  });
  const notReplayed: SccLeaderboardRow[] = rows
    .filter((r) => !replayed.includes(r))
    .map((r) => ({
      rank: null,
      model: r.model,
      cc: null,
      ccLower: null,
      ccUpper: null,
      skipped: null,
      publishedCc: r.published?.cc ?? null,
      equal: false,
    }));
  const all = [...ranked, ...notReplayed];
  return { rows: all, equal: all.filter((r) => r.equal).length, models: all.length, board };
}

const bounds = (r: SccLeaderboardRow) => (r.ccLower === null ? '—' : `[${r.ccLower}, ${r.ccUpper ?? '∞'}]`);
const show = (x: number | null) => (x === null ? '—' : String(x));
const ccCell = (r: SccLeaderboardRow) => (r.cc === null ? '—' : r.skipped ? `${r.cc} (skipped)` : String(r.cc));

const HEADER = ['rank', 'model', 'CC', 'ladder bounds', 'published CC', 'equal'];
const cellsOf = (r: SccLeaderboardRow) => [
  r.rank ?? '—',
  r.model,
  ccCell(r),
  bounds(r),
  show(r.publishedCc),
  r.equal ? 'yes' : 'NO',
];

/** The leaderboard as a plain-text table (columns padded), then the count of equal CCs. */
export function sccLeaderboardText(lb: SccReplayLeaderboard): string {
  const lines = lb.rows.map(cellsOf);
  return [...plainTable(HEADER, lines), '', `CC equal to the published: ${lb.equal}/${lb.models} models`].join('\n');
}

/** The leaderboard as Markdown: the table, the count, and the board's adjacent relations. */
export function sccLeaderboardMarkdown(lb: SccReplayLeaderboard, title: string): string {
  const cell = (s: string) => s.replace(/\|/g, '\\|');
  const relations = lb.board?.relations ?? [];
  return [
    `# ${title}`,
    '',
    `| ${HEADER.join(' | ')} |`,
    `|${HEADER.map((_, i) => (i === 1 ? ' --- ' : ' ---: ')).join('|')}|`,
    ...lb.rows.map((r) => `| ${cellsOf(r).map(cell).join(' | ')} |`),
    '',
    `CC equal to the published: ${lb.equal}/${lb.models} models. Ranked by our ladder's CC (ties by name); a rank range is what the ladder bounds leave open (two models are told apart only when their bounds are disjoint).`,
    ...(relations.length > 0 ? ['', '## Adjacent ranks', '', ...relations.map((r) => `- ${cell(r.text)}`)] : []),
    '',
  ].join('\n');
}
