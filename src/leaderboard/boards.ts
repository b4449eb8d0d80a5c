import type { CellResult } from '../schema/cell.js';
import type { CollapseFit, RetentionFit } from '../schema/fit.js';
import type {
  Board,
  CellRow,
  CollapseBoard,
  CollapseEntry,
  Comparison,
  RetentionBoard,
  RetentionEntry,
  SccBoard,
  SccEntry,
} from '../schema/leaderboard.js';
import type { SccRecord } from '../schema/report.js';
import { clopperPearson } from '../stats/index.js';
import type { MissingRule } from '../tasks/outcome.js';
import {
  type AccuracySide,
  type ComparisonSettings,
  compareAccuracy,
  compareRetention,
  type RawComparison,
  type RetentionSide,
} from './differences.js';
import { countedTally, type LabelledSubject, type LevelTrials, levelsOf, sweepKey } from './input.js';
import { adjacentRelations, orderByHeadline, type Rankable, rankStandings, type Standing } from './rank.js';

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

const unadjusted = (c: RawComparison): Comparison => ({ ...c, pAdjusted: null, separable: false });

/** Every pair (i < j) of the ranked labels, a ranked above b. */
function pairsInOrder<T>(ranked: readonly T[]): Array<[T, T]> {
  const out: Array<[T, T]> = [];
  for (let i = 0; i < ranked.length; i++) for (let j = i + 1; j < ranked.length; j++) out.push([ranked[i], ranked[j]]);
  return out;
}

const standingOf = (s: LabelledSubject, ok: boolean, reason: string | undefined): Standing => ({
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
function applyRanks(entries: Standing[], comparisons: readonly Comparison[]): string[] {
  const ranked = entries.filter((e) => e.status === 'ok').map((e) => e.subject);
  const ranks = rankStandings(ranked, comparisons);
  for (const e of entries) Object.assign(e, ranks.get(e.subject) ?? {});
  return ranked;
}

/** The kStar mean over cells, weighted by each cell's k* population. */
function kStarMean(cells: readonly CellResult[]): number | null {
  let weight = 0;
  let sum = 0;
  for (const c of cells) {
    if (c.kStar.mean === null || c.kStar.n === 0) continue;
    weight += c.kStar.n;
    sum += c.kStar.mean * c.kStar.n;
  }
  return weight > 0 ? sum / weight : null;
}

/** Cells side by side: a row per (sweep, level) any member ran, with pairwise tests in board order. */
function cellRows(
  members: ReadonlyArray<{ label: string; seed: number | null; cells: CellResult[] }>,
  rule: MissingRule,
): { rows: CellRow[]; tests: Comparison[] } {
  const keys: string[] = [];
  const sample = new Map<string, CellResult>();
  for (const m of members) {
    for (const c of m.cells) {
      const key = `${sweepKey(c)}\u0000${c.level}`;
      if (!sample.has(key)) {
        sample.set(key, c);
        keys.push(key);
      }
    }
  }
  keys.sort((x, y) => {
    const a = sample.get(x) as CellResult;
    const b = sample.get(y) as CellResult;
    return sweepKey(a) < sweepKey(b) ? -1 : sweepKey(a) > sweepKey(b) ? 1 : a.level - b.level;
  });
  const tests: Comparison[] = [];
  const rows = keys.map((key): CellRow => {
    const first = sample.get(key) as CellResult;
    const sides = members.flatMap((m) => {
      const levels = levelsOf(m.cells, sweepKey(first)).filter((l) => l.level === first.level);
      return levels.length === 1 ? [{ member: m, level: levels[0] }] : [];
    });
    const subjects = sides.map(({ member, level }) => {
      const { successes, counted } = countedTally(level.cells, rule);
      const n = level.cells.reduce((s, c) => s + c.n, 0);
      return {
        subject: member.label,
        n,
        counted,
        successes,
        accuracy: counted > 0 ? successes / counted : null,
        ci95: counted > 0 ? clopperPearson(successes, counted) : null,
      };
    });
    const comparisons = pairsInOrder(sides).map(([x, y]) =>
      unadjusted(
        compareAccuracy(
          { label: x.member.label, seed: x.member.seed, levels: [x.level] },
          { label: y.member.label, seed: y.member.seed, levels: [y.level] },
          rule,
        ),
      ),
    );
    tests.push(...comparisons);
    return {
      task: first.task,
      variant: first.variant,
      profile: first.profile,
      level: first.level,
      subjects,
      comparisons,
    };
  });
  return { rows, tests };
}

const holmNote = (project: string, alpha: number) =>
  `p values are two-sided and Holm-adjusted over every subject pair of every board of project '${project}'; separable = adjusted p < α = ${alpha}.`;

const rankRangeNote =
  'Rank range: from 1 + the number of subjects the tests show better to n − the number they show worse.';

const unpairedNotes = (comparisons: readonly Comparison[]): string[] =>
  comparisons.flatMap((c) =>
    c.pairing && !c.pairing.paired ? [`${c.a} vs ${c.b}: unpaired (${c.pairing.reason}); unpaired test used.`] : [],
  );

const missingNote = (rule: MissingRule) =>
  `Missing data (api, budget${rule === 'paper' ? ', and format and truncation under the paper rule' : ''}) drops a pair or a trial; it never counts as a failure.`;

const cellsNote = (project: string) =>
  `Cells: exact McNemar on the discordant pairs (paired) or Fisher exact (unpaired) per cell, Holm-adjusted over every cell test of project '${project}'; shown beside the ranking, not used for it.`;

export interface BoardSettings extends ComparisonSettings {
  alpha: number;
}

/** One CCB sweep's board: subjects by p_d, Δp_d by paired (or parametric) bootstrap. */
export function retentionBoard(
  fit: RetentionFit,
  members: ReadonlyArray<{ subject: LabelledSubject; fit: RetentionFit }>,
  settings: BoardSettings,
): BoardDraft {
  const rule = fit.missing;
  const sides = members.map(({ subject, fit: own }) => {
    const cells = subject.cells.filter(
      (c) => c.project === own.project && c.task === own.task && c.variant === own.variant && c.profile === own.profile,
    );
    const levels: LevelTrials[] = cells.length > 0 ? levelsOf(cells, sweepKey(cells[0])) : [];
    const side: RetentionSide & Rankable & { subject: LabelledSubject; cells: CellResult[] } = {
      label: subject.label,
      seed: subject.seed,
      fit: own,
      levels,
      subject,
      cells,
      ok: own.status === 'ok',
      key: [own.pd],
    };
    return side;
  });
  const ordered = orderByHeadline(sides);
  const ranked = ordered.filter((s) => s.ok);
  const comparisons = pairsInOrder(ranked).map(([a, b]) => unadjusted(compareRetention(a, b, rule, settings)));
  const entries: RetentionEntry[] = ordered.map((s) => ({
    ...standingOf(s.subject, s.ok, s.fit.insufficientReason ?? (s.ok ? undefined : 'fit insufficient')),
    pd: s.fit.pd,
    ci95: s.fit.ci95,
    atLowerBound: s.fit.atLowerBound,
    nTrials: s.fit.nTrials,
    tfbcRate: s.fit.tfbcRate,
    kStarMean: s.fit.kStar.mean,
    formatRate: s.fit.formatRate,
    truncationRate: s.fit.truncationRate,
    apiRate: s.fit.apiRate,
    budgetRate: s.fit.budgetRate ?? null,
  }));
  const { rows, tests } = cellRows(
    ordered.map((s) => ({ label: s.label, seed: s.seed, cells: s.cells })),
    rule,
  );
  const board: RetentionBoard = {
    kind: 'retention',
    project: fit.project,
    task: fit.task,
    variant: fit.variant,
    profile: fit.profile,
    missing: rule,
    paired: comparisons.every((c) => c.pairing?.paired === true),
    entries,
    comparisons,
    relations: [],
    cells: rows,
    notes: [],
  };
  return {
    board,
    headline: comparisons,
    cellTests: tests,
    finish(projectNotes) {
      const labels = applyRanks(entries, comparisons);
      board.relations = adjacentRelations(labels, comparisons, { rankedBy: 'p_d', tested: 'p_d' });
      board.notes = [
        `Ranked by p_d (maximum likelihood of P(correct | N) = p_d^N, missing rule '${rule}'); each 95% CI is the subject's own fit.`,
        `Δp_d: paired bootstrap (instance pairs resampled within each depth, jointly for both subjects, both p_d refitted; B = ${settings.resamples}) when both answered the same instances; otherwise a parametric bootstrap of each fit (unpaired). Paired Δ is refitted on the pairs both subjects count.`,
        holmNote(fit.project, settings.alpha),
        rankRangeNote,
        missingNote(rule),
        cellsNote(fit.project),
        ...unpairedNotes(comparisons),
        ...projectNotes,
      ];
    },
  };
}

/** The subject's cells of a puzzle sweep: the sweep whose levels are the fit's (the first one otherwise). */
function collapseCells(subject: LabelledSubject, fit: CollapseFit): CellResult[] {
  const cells = subject.cells.filter((c) => c.project === fit.project && c.task === fit.task);
  const keys = [...new Set(cells.map(sweepKey))];
  const fitLevels = fit.levels.map((l) => l.level).join(',');
  const key =
    keys.find(
      (k) =>
        cells
          .filter((c) => sweepKey(c) === k)
          .map((c) => c.level)
          .sort((a, b) => a - b)
          .join(',') === fitLevels,
    ) ?? keys[0];
  return cells.filter((c) => sweepKey(c) === key);
}

/** One puzzle's board: subjects by λ* then pooled accuracy; separability by McNemar on all paired trials. */
export function collapseBoard(
  fit: CollapseFit,
  members: ReadonlyArray<{ subject: LabelledSubject; fit: CollapseFit }>,
  settings: BoardSettings,
): BoardDraft {
  const rule: MissingRule = 'paper';
  const sides = members.map(({ subject, fit: own }) => {
    const cells = collapseCells(subject, own);
    const correct = own.levels.reduce((s, l) => s + l.correct, 0);
    const n = own.levels.reduce((s, l) => s + l.n, 0);
    const accuracy = n > 0 ? correct / n : null;
    const levelIndex = own.collapseThreshold.levelIndex;
    const side: AccuracySide & Rankable & { subject: LabelledSubject; cells: CellResult[]; fit: CollapseFit } = {
      label: subject.label,
      seed: subject.seed,
      levels: cells.length > 0 ? levelsOf(cells, sweepKey(cells[0])) : [],
      tally: { successes: correct, counted: n },
      subject,
      cells,
      fit: own,
      ok: own.status === 'ok' && n > 0,
      key: [levelIndex, accuracy],
    };
    return side;
  });
  const ordered = orderByHeadline(sides);
  const ranked = ordered.filter((s) => s.ok);
  const comparisons = pairsInOrder(ranked).map(([a, b]) => unadjusted(compareAccuracy(a, b, rule)));
  const entries: CollapseEntry[] = ordered.map((s) => {
    const { successes, counted } = s.tally ?? { successes: 0, counted: 0 };
    const successesInCells = s.cells.reduce((acc, c) => acc + c.successes, 0);
    const tfbc = s.cells.reduce((acc, c) => acc + c.tfbc, 0);
    return {
      ...standingOf(
        s.subject,
        s.ok,
        s.ok ? undefined : counted === 0 ? 'no counted trial' : 'too many missing trials in a level',
      ),
      levelIndex: s.fit.collapseThreshold.levelIndex,
      knob: s.fit.collapseThreshold.knob,
      levelIndexCi95: s.fit.collapseThreshold.ci95,
      accuracy: counted > 0 ? successes / counted : null,
      accuracyCi95: counted > 0 ? clopperPearson(successes, counted) : null,
      correct: successes,
      n: counted,
      tfbcRate: successesInCells > 0 ? tfbc / successesInCells : null,
      kStarMean: kStarMean(s.cells),
    };
  });
  const { rows, tests } = cellRows(
    ordered.map((s) => ({ label: s.label, seed: s.seed, cells: s.cells })),
    rule,
  );
  const board: CollapseBoard = {
    kind: 'collapse',
    project: fit.project,
    task: fit.task,
    paired: comparisons.every((c) => c.pairing?.paired === true),
    entries,
    comparisons,
    relations: [],
    cells: rows,
    notes: [],
  };
  return {
    board,
    headline: comparisons,
    cellTests: tests,
    finish(projectNotes) {
      const labels = applyRanks(entries, comparisons);
      board.relations = adjacentRelations(labels, comparisons, { rankedBy: 'λ*', tested: 'accuracy' });
      board.notes = [
        'Ranked by λ* (level index of the steepest accuracy drop; higher = later collapse), then by accuracy pooled over the levels; a flat curve (λ* undefined) ranks below every λ*.',
        "Separability is tested on accuracy, not on λ*: exact McNemar on the discordant pairs of all paired trials of the puzzle's levels pooled (Fisher exact on the pooled counts when unpaired). '<' marks a pair ranked one way by λ* and separated the other way by accuracy.",
        holmNote(fit.project, settings.alpha),
        rankRangeNote,
        missingNote(rule),
        cellsNote(fit.project),
        ...unpairedNotes(comparisons),
        ...projectNotes,
      ];
    },
  };
}

const bounds = (s: { ccLower: number; ccUpper: number | null }) => `${s.ccLower}–${s.ccUpper ?? '∞'}`;

/** One SCC task's board: subjects by CC; separable when the ladder bounds do not overlap (no p-value). */
export function sccBoard(
  record: SccRecord,
  members: ReadonlyArray<{ subject: LabelledSubject; record: SccRecord }>,
): BoardDraft {
  const sides = members.map(({ subject, record: own }) => ({
    label: subject.label,
    subject,
    record: own,
    ok: own.skipped !== true,
    key: [own.cc],
  }));
  const ordered = orderByHeadline(sides);
  const ranked = ordered.filter((s) => s.ok);
  const comparisons: Comparison[] = pairsInOrder(ranked).map(([a, b]) => {
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
    ...standingOf(s.subject, s.ok, s.ok ? undefined : 'skipped (no tier evaluated)'),
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
          const a = byLabel.get(c.a) as SccRecord;
          const b = byLabel.get(c.b) as SccRecord;
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
