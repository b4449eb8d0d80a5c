import type { Comparison, SccBoard, SccEntry } from '../../schema/leaderboard.js';
import type { SccHeadline } from '../../schema/report.js';
import { sccStopText } from '../../schema/scc-stop.js';
import type { LabelledSubject } from '../input.js';
import { adjacentRelations, orderByHeadline } from '../rank.js';
import { applyRanks, type BoardDraft, type BoardSettings, pairsToCompare, rankRangeNote, standingOf } from './draft.js';

const bounds = (s: { ccLower: number; ccUpper: number | null }) => `${s.ccLower}–${s.ccUpper ?? '∞'}`;

/** Why a record is listed unranked: skipped at the preflight, or stopped by the spend ledger (no CC measured). */
const unrankedReason = (record: SccHeadline): string | undefined =>
  record.stopped ? sccStopText(record.stopped) : record.skipped ? 'skipped (no tier evaluated)' : undefined;

/** One SCC task's board: subjects by CC; separable when the ladder bounds do not overlap (no p-value). */
export function sccBoard(
  record: SccHeadline,
  members: ReadonlyArray<{ subject: LabelledSubject; record: SccHeadline }>,
  settings?: BoardSettings,
): BoardDraft {
  const sides = members.map(({ subject, record: own }) => ({
    label: subject.label,
    subject,
    record: own,
    ok: own.skipped !== true && own.stopped === undefined,
    key: [own.cc],
  }));
  const ordered = orderByHeadline(sides);
  const ranked = ordered.filter((s) => s.ok);
  const baseline = settings?.baselineOf?.(record.project);
  const comparisons: Comparison[] = pairsToCompare(ranked, (s) => s.label === baseline).map(([a, b]) => {
    const aAbove = b.record.ccUpper !== null && b.record.ccUpper < a.record.ccLower;
    const bAbove = a.record.ccUpper !== null && a.record.ccUpper < b.record.ccLower;
    return {
      a: a.label,
      b: b.label,
      metric: 'cc',
      method: 'ladder-bounds',
      pairing: null,
      status: 'ok',
      difference: a.record.cc - b.record.cc,
      ci95: null,
      p: null,
      pAdjusted: null,
      separable: aAbove || bAbove,
    };
  });
  const byLabel = new Map(sides.map((s) => [s.label, s.record]));
  const entries: SccEntry[] = ordered.map((s) => ({
    ...standingOf(s.subject, s.ok, unrankedReason(s.record)),
    cc: s.record.cc,
    ccLower: s.record.ccLower,
    ccUpper: s.record.ccUpper,
    bounded: s.record.bounded,
  }));
  const board: SccBoard = {
    kind: 'scc',
    project: record.project,
    task: record.task,
    paired: false,
    entries,
    comparisons,
    relations: [],
    cells: [],
    notes: [],
  };
  return {
    board,
    headline: [],
    cellTests: [],
    finish(projectNotes) {
      const labels = applyRanks(entries, comparisons);
      board.relations = adjacentRelations(labels, comparisons, {
        rankedBy: 'CC',
        tested: 'CC',
        bounds: (c) => {
          const a = byLabel.get(c.a) as SccHeadline;
          const b = byLabel.get(c.b) as SccHeadline;
          return `ladder bounds ${bounds(a)} and ${bounds(b)} ${c.separable ? 'do not overlap' : 'overlap'}`;
        },
      });
      board.notes = [
        "Ranked by counting capacity CC (the ladder's highest passing length).",
        'The ladder gives bounds [ccLower, ccUpper], not a p-value: two subjects are separable when their bounds, taken as closed intervals, do not overlap; no Holm adjustment applies. ∞: no tier failed (unbounded).',
        rankRangeNote,
        ...projectNotes,
      ];
    },
  };
}
