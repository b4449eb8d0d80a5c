import type { CollapseBoard, SccBoard } from '../../../../src/schema/leaderboard.js';
import type { Report } from '../../../../src/schema/report.js';
import type { ChartResult } from '../chart.js';
import { facetedSpec, figure, layerOf, round, verticalInterval } from './scaffold.js';

const LAMBDA = figure('leaderboard-lambda', 'Collapse threshold λ* per puzzle family and subject');
const CC = figure('leaderboard-cc', 'Counting capacity per subject, with the ladder bounds');

const boardsOf = <K extends 'collapse' | 'scc'>(report: Report, kind: K) =>
  (report.leaderboard?.projects ?? []).flatMap((p) => p.boards).filter((b) => b.kind === kind) as Array<
    K extends 'collapse' ? CollapseBoard : SccBoard
  >;

/** The subject axis: in each board's rank order (unranked last), as the leaderboard lists them. */
const subjectAxis = (order: readonly string[]) => ({
  field: 'subject',
  type: 'nominal' as const,
  title: 'Subject (rank order)',
  sort: [...order],
  axis: { labelAngle: -30, labelAlign: 'right' as const, labelLimit: 220 },
});

/**
 * Paper 001's per-model collapse levels: per puzzle family, each subject's λ* (level index) with its bootstrap
 * interval. Drawn only when the report has a leaderboard with puzzle boards (a run with several subjects).
 */
export function leaderboardLambdaChart(report: Report): ChartResult[] {
  const boards = boardsOf(report, 'collapse');
  if (boards.length === 0) return [];
  const rows: Record<string, string | number>[] = [];
  const flat: string[] = [];
  for (const board of boards) {
    for (const e of board.entries) {
      if (e.levelIndex === null) {
        flat.push(`${e.subject} on ${board.task}`);
        continue;
      }
      rows.push({
        layer: 'lambda',
        task: board.task,
        subject: e.subject,
        rank: e.rankLabel ?? '–',
        level: round(e.levelIndex),
        lo: round(e.levelIndexCi95?.[0] ?? e.levelIndex),
        hi: round(e.levelIndexCi95?.[1] ?? e.levelIndex),
      });
    }
  }
  if (rows.length === 0) return [LAMBDA.absent('every subject’s puzzle accuracy curve is flat: λ* is undefined')];
  const x = subjectAxis([...new Set(boards.flatMap((b) => b.entries.map((e) => e.subject)))]);
  const y = { field: 'level', type: 'quantitative' as const, title: 'λ* (level index)', scale: { zero: false } };
  return [
    LAMBDA.drawn(
      'Per puzzle family, each subject’s collapse threshold λ* (the upper level of the steepest accuracy step) ' +
        'with its 95% bootstrap interval; subjects in the board’s rank order (λ*, then pooled accuracy).' +
        (flat.length > 0 ? ` Undefined (flat curve), not drawn: ${flat.join(', ')}.` : ''),
      facetedSpec(
        rows,
        { field: 'task', sort: boards.map((b) => b.task) },
        { width: 60 + 40 * x.sort.length, height: 160 },
        [
          ...layerOf(rows, 'lambda', {
            mark: { type: 'rule', color: '#d62728' },
            encoding: verticalInterval(x, 'lo', 'hi', 'λ* (level index)'),
          }),
          ...layerOf(rows, 'lambda', {
            mark: { type: 'point', filled: true, size: 60, color: '#d62728', opacity: 1 },
            encoding: { x, y },
          }),
        ],
      ),
    ),
  ];
}

/**
 * SCC Table S1 as a figure: per SCC task, each subject's counting capacity CC (marker) and its ladder bounds
 * [ccLower, ccUpper] (bar; an unbounded ladder is drawn up to its lower bound and named in the caption).
 */
export function leaderboardCcChart(report: Report): ChartResult[] {
  const boards = boardsOf(report, 'scc');
  if (boards.length === 0) return [];
  const rows: Record<string, string | number>[] = [];
  const unbounded: string[] = [];
  for (const board of boards) {
    for (const e of board.entries) {
      if (e.ccUpper === null) unbounded.push(`${e.subject} on ${board.task}`);
      rows.push({
        layer: 'cc',
        task: board.task,
        subject: e.subject,
        rank: e.rankLabel ?? '–',
        cc: e.cc,
        lo: e.ccLower,
        hi: e.ccUpper ?? e.ccLower,
      });
    }
  }
  const x = subjectAxis([...new Set(boards.flatMap((b) => b.entries.map((e) => e.subject)))]);
  const scale = { type: 'symlog' as const };
  return [
    CC.drawn(
      'Per SCC task, each subject’s counting capacity CC (marker) and the ladder’s bounds: the largest length ' +
        'passed and the first length failed (bar). Disjoint bars are separable ranks; overlapping bars are not.' +
        (unbounded.length > 0 ? ` Unbounded ladders (no failing length): ${unbounded.join(', ')}.` : ''),
      facetedSpec(
        rows,
        { field: 'task', sort: boards.map((b) => b.task), independent: ['y'] },
        { width: 60 + 40 * x.sort.length, height: 180 },
        [
          ...layerOf(rows, 'cc', {
            mark: { type: 'rule', color: '#4c78a8', strokeWidth: 2 },
            encoding: {
              x,
              y: { field: 'lo', type: 'quantitative', title: 'Counting capacity (symlog)', scale },
              y2: { field: 'hi' },
            },
          }),
          ...layerOf(rows, 'cc', {
            mark: { type: 'point', filled: true, size: 60, color: '#4c78a8', opacity: 1 },
            encoding: { x, y: { field: 'cc', type: 'quantitative', scale } },
          }),
        ],
      ),
    ),
  ];
}
