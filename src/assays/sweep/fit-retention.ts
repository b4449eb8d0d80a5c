import type { CellResult } from '../../schema/cell.js';
import type { RetentionFit } from '../../schema/fit.js';
import { type DepthCount, estimateRetention, summarizeKStar, tfbcRate } from '../../stats/index.js';
import { setAsideSummary } from './set-aside.js';
import { kStarPopulation } from './summarize-cell.js';

export type MissingRule = 'paper' | 'release';

/**
 * Per-depth (correct, n) under a missing-data rule (paper 000 §3 vs. the release, docs/spec/ccb.md §6.2):
 * 'paper' counts only Correct, Reasoning and Constraint; 'release' counts every trial but API.
 */
export function depthCounts(cells: readonly CellResult[], missing: MissingRule): DepthCount[] {
  return cells.map((cell) => {
    const o = cell.outcomes;
    const counted =
      missing === 'paper' ? (o.correct ?? 0) + (o.reasoning ?? 0) + (o.constraint ?? 0) : cell.n - (o.api ?? 0);
    return { depth: cell.level, correct: o.correct ?? 0, n: counted };
  });
}

const rate = (count: number, total: number): number | null => (total > 0 ? count / total : null);

/** JSON has no Infinity: an unbounded horizon (p_d = 1) is recorded as null. */
const finiteOrNull = (x: number): number | null => (Number.isFinite(x) ? x : null);

function horizonRecord(horizon: Record<string, { value: number; ci95: [number, number] }>): RetentionFit['horizon'] {
  return Object.fromEntries(
    Object.entries(horizon).map(([s, h]) => [
      s,
      { value: finiteOrNull(h.value), ci95: [finiteOrNull(h.ci95[0]), finiteOrNull(h.ci95[1])] },
    ]),
  );
}

/** The geometric-decay fit of one CCB sweep, with k*, TFBC and the rates that the missing rule hides. */
export function fitRetentionSweep(
  cells: readonly CellResult[],
  options: { project: string; missing: MissingRule; seed: number },
): RetentionFit {
  const counts = depthCounts(cells, options.missing);
  const estimate = estimateRetention(counts, { seed: options.seed });
  const sum = (kind: string) => cells.reduce((acc, c) => acc + (c.outcomes[kind] ?? 0), 0);
  const total = cells.reduce((acc, c) => acc + c.n, 0);
  const api = sum('api');
  const answered = total - api;
  const correct = sum('correct');
  const tfbc = cells.reduce((acc, c) => acc + c.tfbc, 0);
  const first = cells[0];
  const setAside = setAsideSummary(cells);
  return {
    kind: 'retention',
    project: options.project,
    task: first.task,
    profile: first.profile,
    variant: first.variant,
    missing: options.missing,
    status: cells.some((c) => c.status === 'insufficient') ? 'insufficient' : 'ok',
    counts,
    pd: estimate.pd,
    ci95: estimate.ci95,
    profileCi95: estimate.profileCi95,
    atLowerBound: estimate.atLowerBound,
    horizon: horizonRecord(estimate.horizon),
    firstDepthBelow: estimate.firstDepthBelow,
    logLik: estimate.logLik,
    aic: estimate.aic,
    bic: estimate.bic,
    alternatives: estimate.alternatives as Record<string, unknown>,
    kStar: summarizeKStar(cells.flatMap((c) => kStarPopulation(c.trials))),
    correct,
    tfbc,
    tfbcRate: tfbcRate(tfbc, correct),
    formatRate: rate(sum('format'), answered),
    truncationRate: rate(sum('truncation'), answered),
    apiRate: rate(api, total),
    ...(setAside ? { setAside } : {}),
    nTrials: total,
  };
}
