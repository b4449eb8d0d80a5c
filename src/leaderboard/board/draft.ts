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
  /** The label of a project's gated baseline (its notWorseThan subject), compared with every other subject. */
  baselineOf?: (project: string) => string | undefined;
}

export const unadjusted = (c: RawComparison): Comparison => ({ ...c, pAdjusted: null, separable: false });

/**
 * The pairs a board tests, a ranked above b: adjacent ranks, and the gated baseline (when `isBaseline` names one)
 * against every other subject — n − 1 to 2n − 3 pairs, never all n(n − 1)/2, so a board's tests, its bootstrap
 * time and its size in the report grow linearly with the subjects.
 */
export function pairsToCompare<T>(ranked: readonly T[], isBaseline: (item: T) => boolean = () => false): Array<[T, T]> {
  const out: Array<[T, T]> = [];
  const base = ranked.findIndex(isBaseline);
  for (let i = 0; i + 1 < ranked.length; i++) out.push([ranked[i], ranked[i + 1]]);
  if (base < 0) return out;
  for (let j = 0; j < ranked.length; j++) {
    if (Math.abs(j - base) <= 1) continue; // adjacent: already a pair
    out.push(j < base ? [ranked[j], ranked[base]] : [ranked[base], ranked[j]]);
  }
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
  'Tests: adjacent ranks, and the gated baseline (if any) against every subject. Rank range: from 1 + the number of subjects shown better to n − the number shown worse, where a subject is shown better than all below a separable adjacent step it sits above (the steps chain), or by a direct test.';
