import type { Board, CollapseEntry, RetentionEntry, SccEntry } from '../../src/schema/leaderboard.js';
import { fixed, interval, percent } from './format.js';

/** A board's name in every projection: `d2 · d2 (standard, paper rule)`, `puzzles · hanoi`, `scc · count`. */
export function boardTitle(project: string, board: Board): string {
  const where = board.kind === 'retention' ? ` (${board.variant}, ${board.missing} rule)` : '';
  return `${project} · ${board.task}${where}`;
}

/** What a board ranks by, as a reader reads it. */
export const RANKED_BY: Record<Board['kind'], string> = {
  retention: 'p_d (step retention of the geometric fit)',
  collapse: 'λ* (collapse level index), then pooled accuracy',
  scc: 'counting capacity CC (ladder bounds)',
};

/** The headline value of a standing with its interval: `0.951 [0.944, 0.957]`, `L4 · 62.5% [..]`, `CC 32 (16–64)`. */
export function headline(board: Board, entry: RetentionEntry | CollapseEntry | SccEntry): string {
  // an insufficient record has no estimate: what its counted trials alone would give is never shown as one
  if (board.kind !== 'scc' && entry.status === 'insufficient') return 'insufficient';
  if (board.kind === 'retention') {
    const e = entry as RetentionEntry;
    return `${fixed(e.pd)}${e.atLowerBound ? '†' : ''} ${interval(e.ci95)}`;
  }
  if (board.kind === 'collapse') {
    const e = entry as CollapseEntry;
    const lambda = e.levelIndex === null ? 'λ* undefined (flat)' : `λ* = L${Number(e.levelIndex.toFixed(2))}`;
    return `${lambda} · accuracy ${percent(e.accuracy)} ${interval(e.accuracyCi95)}`;
  }
  const e = entry as SccEntry;
  return `CC ${e.cc} (bounds ${e.ccLower}–${e.ccUpper ?? '∞'}${e.bounded ? '' : ', unbounded'})`;
}

/** The rank shown: its label ("2", "1–3"), or "–" for an unranked (insufficient) record. */
export const rankText = (entry: { rankLabel: string | null; status: string }): string =>
  entry.rankLabel ?? (entry.status === 'insufficient' ? 'insufficient' : '–');

/** A cell's name in the side-by-side tables: `N=15`, `L3`, `N=15 · cot`. */
export function cellLabel(kind: Board['kind'], row: { level: number; variant: string }): string {
  const axis = kind === 'retention' ? `N=${row.level}` : kind === 'collapse' ? `L${row.level}` : `len=${row.level}`;
  return row.variant !== 'standard' && row.variant !== 'default' && kind !== 'retention'
    ? `${axis} · ${row.variant}`
    : axis;
}

/**
 * One subject's accuracy in a cell of a board, with its set-aside share beside it when the board's rule left trials
 * out: `0% (0/2) · 80% set aside`.
 */
export function cellStandingText(c: {
  accuracy: number | null;
  successes: number;
  counted: number;
  n: number;
}): string {
  const aside = c.n > c.counted ? ` · ${percent((c.n - c.counted) / c.n, 0)} set aside` : '';
  return `${percent(c.accuracy, 0)} (${c.successes}/${c.counted})${aside}`;
}
