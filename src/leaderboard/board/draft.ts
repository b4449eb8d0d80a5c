import type { Board, Comparison } from '../../schema/leaderboard.js';
import type { ComparisonSettings, RawComparison } from '../differences.js';
import type { LabelledSubject } from '../input.js';
import { rankStandings, type Standing } from '../rank.js';

/** A board before the project's Holm adjustment: its comparisons are final objects whose p is adjusted in place. */
export interface BoardDraft {
  board: Board;
  /** The headline tests that join the project's Holm family. */
  headline: Comparison[];
  /** The per-cell tests that join the project's cell family. */
  cellTests: Comparison[];
  /** Ranks, rank ranges and relations, once the tests are adjusted; `notes` are the project's, appended. */
  finish(notes: readonly string[]): void;
}

export interface BoardSettings extends ComparisonSettings {
  alpha: number;
}

export const unadjusted = (c: RawComparison): Comparison => ({ ...c, pAdjusted: null, separable: false });

/** Every pair (i < j) of the ranked labels, a ranked above b. */
export function pairsInOrder<T>(ranked: readonly T[]): Array<[T, T]> {
  const out: Array<[T, T]> = [];
  for (let i = 0; i < ranked.length; i++) for (let j = i + 1; j < ranked.length; j++) out.push([ranked[i], ranked[j]]);
  return out;
}

export const standingOf = (s: LabelledSubject, ok: boolean, reason: string | undefined): Standing => ({
  subject: s.label,
  spec: s.subject,
  seed: s.seed,
  status: ok ? 'ok' : 'insufficient',
  ...(reason !== undefined ? { insufficientReason: reason } : {}),
  rank: null,
  rankRange: null,
  rankLabel: null,
});

/** Fills each entry's rank fields from the adjusted comparisons of the ranked (ok) entries. */
export function applyRanks(entries: Standing[], comparisons: readonly Comparison[]): string[] {
  const ranked = entries.filter((e) => e.status === 'ok').map((e) => e.subject);
  const ranks = rankStandings(ranked, comparisons);
  for (const e of entries) Object.assign(e, ranks.get(e.subject) ?? {});
  return ranked;
}

export const rankRangeNote =
  'Rank range: from 1 + the number of subjects the tests show better to n − the number they show worse.';
