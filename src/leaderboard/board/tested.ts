import type { CellResult } from '../../schema/cell.js';
import type { Board, CellRow, Comparison, Relation } from '../../schema/leaderboard.js';
import type { MissingRule } from '../../tasks/outcome.js';
import type { RawComparison } from '../differences.js';
import { adjacentRelations, orderByHeadline, type Rankable, type Standing } from '../rank.js';
import { cellRows } from './cells.js';
import { applyRanks, type BoardDraft, type BoardSettings, pairsToCompare, rankRangeNote, unadjusted } from './draft.js';

/**
 * The skeleton of a board whose subjects are tested pairwise with a p-value (retention, collapse): its sides
 * ordered by headline, every ranked pair tested, the cells side by side, and the notes every such board carries.
 * A board kind declares only what differs (TestedBoardKind).
 */

/** A subject's side of a tested board: its label and seed, its headline, and the cells it ran. */
export type TestedSide = Rankable & { seed: number | null; cells: CellResult[] };

/** The fields the skeleton fills, in board order after the kind's own. */
export interface TestedParts<E> {
  paired: boolean;
  entries: E[];
  comparisons: Comparison[];
  relations: Relation[];
  cells: CellRow[];
  notes: string[];
}

export interface TestedBoardKind<S extends TestedSide, E extends Standing> {
  /** The project the board belongs to (its gated baseline, if any, is compared with every subject). */
  project: string;
  sides: S[];
  rule: MissingRule;
  /** The headline test of two ranked sides, a ranked above b. */
  compare(a: S, b: S): RawComparison;
  entry(side: S): E;
  /** The board: the kind's own fields, then the parts. */
  board(parts: TestedParts<E>): Board;
  /** What ranks the board and what its test compares (adjacentRelations). */
  words: { rankedBy: string; tested: string };
  /** What ranks the board and how it is tested, first among its notes. */
  notes: readonly string[];
}

const holmNote = (project: string, alpha: number) =>
  `p values are two-sided and Holm-adjusted over every tested pair of every board of project '${project}'; separable = adjusted p < α = ${alpha}.`;

const unpairedNotes = (comparisons: readonly Comparison[]): string[] =>
  comparisons.flatMap((c) =>
    c.pairing && !c.pairing.paired ? [`${c.a} vs ${c.b}: unpaired (${c.pairing.reason}); unpaired test used.`] : [],
  );

const missingNote = (rule: MissingRule) =>
  `Missing data (api, budget${rule === 'paper' ? ', and format and truncation under the paper rule' : ''}) drops a pair or a trial; it never counts as a failure.`;

const cellsNote = (project: string) =>
  `Cells: exact McNemar on the discordant pairs (paired) or Fisher exact (unpaired) per cell, for adjacent subjects (and the baseline against each), Holm-adjusted over every cell test of project '${project}'; shown beside the ranking, not used for it.`;

export function testedBoard<S extends TestedSide, E extends Standing>(
  kind: TestedBoardKind<S, E>,
  settings: BoardSettings,
): BoardDraft {
  const { rule } = kind;
  const ordered = orderByHeadline(kind.sides);
  const ranked = ordered.filter((s) => s.ok);
  const baseline = settings.baselineOf?.(kind.project);
  const comparisons = pairsToCompare(ranked, (s) => s.label === baseline).map(([a, b]) =>
    unadjusted(kind.compare(a, b)),
  );
  const entries = ordered.map((s) => kind.entry(s));
  const { rows, tests } = cellRows(
    ordered.map((s) => ({ label: s.label, seed: s.seed, cells: s.cells })),
    rule,
    baseline,
  );
  const board = kind.board({
    paired: comparisons.every((c) => c.pairing?.paired === true),
    entries,
    comparisons,
    relations: [],
    cells: rows,
    notes: [],
  });
  return {
    board,
    headline: comparisons,
    cellTests: tests,
    finish(projectNotes) {
      const labels = applyRanks(entries, comparisons);
      board.relations = adjacentRelations(labels, comparisons, kind.words);
      board.notes = [
        ...kind.notes,
        holmNote(board.project, settings.alpha),
        rankRangeNote,
        missingNote(rule),
        cellsNote(board.project),
        ...unpairedNotes(comparisons),
        ...projectNotes,
      ];
    },
  };
}
