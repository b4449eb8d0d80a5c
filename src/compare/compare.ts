import type { Baseline } from '../schema/baseline.js';
import { sccStopText } from '../schema/scc-stop.js';
import { fisherExact } from '../stats/index.js';
import { holmAdjust } from './holm.js';
import { retentionDifference } from './retention-difference.js';

/** How large a change must be, beyond statistical support, to count as a regression. */
export interface Tolerances {
  /** Absolute p_d drop. */
  retention: number;
  /** Absolute accuracy drop of a cell. */
  accuracy: number;
  /** Relative counting-capacity drop. */
  countingCapacity: number;
  /** Absolute TFBC-rate rise. */
  tfbcRate: number;
  /** Family-wise significance level. */
  alpha: number;
}

export const DEFAULT_TOLERANCES: Tolerances = {
  retention: 0.01,
  accuracy: 0.05,
  countingCapacity: 0.05,
  tfbcRate: 0.1,
  alpha: 0.05,
};

export interface MetricComparison {
  metric: 'p_d' | 'accuracy' | 'counting_capacity' | 'collapse_threshold' | 'tfbc_rate';
  project: string;
  task: string;
  /** Cell level or variant, where the metric is per cell. */
  where: string;
  baseline: number | null;
  candidate: number | null;
  difference: number | null;
  ci95: [number, number] | null;
  p: number | null;
  regression: boolean;
  reason: string;
}

/** A metric both runs have that cannot be compared: one side measured nothing (see `uncomparable`). */
export interface NotCompared {
  metric: MetricComparison['metric'];
  project: string;
  task: string;
  reason: string;
}

export interface Comparison {
  baseline: string;
  candidate: string;
  tolerances: Tolerances;
  metrics: MetricComparison[];
  regressions: MetricComparison[];
  /** Not compared, so not shown free of regression: the gate fails on them as on a regression. */
  notCompared: NotCompared[];
}

const key = (...parts: Array<string | number>) => parts.join('|');
const answeredAny = (counts: ReadonlyArray<{ n: number }>) => counts.some((c) => c.n > 0);

/**
 * What both runs have but neither test can look at: a fit or a cell with no answered trial on one side (every
 * trial missing data: api, budget), or an SCC ladder stopped before it measured a CC.
 */
function uncomparable(base: Baseline, cand: Baseline): NotCompared[] {
  const side = (baseEmpty: boolean) => (baseEmpty ? `baseline ${base.name}` : `candidate ${cand.name}`);
  const out: NotCompared[] = [];
  for (const b of base.fits) {
    const c = cand.fits.find((f) => key(f.project, f.task, f.variant) === key(b.project, b.task, b.variant));
    if (!c || (answeredAny(b.counts) && answeredAny(c.counts))) continue;
    const reason = `the ${side(!answeredAny(b.counts))} has no answered trial in this fit (all missing data)`;
    out.push({ metric: 'p_d', project: b.project, task: b.task, reason });
  }
  for (const b of base.cells) {
    const c = cand.cells.find(
      (x) => key(x.project, x.task, x.variant, x.level) === key(b.project, b.task, b.variant, b.level),
    );
    if (!c || (b.answered > 0 && c.answered > 0)) continue;
    const reason = `level ${b.level}: the ${side(b.answered === 0)} has no answered trial in this cell (all missing data)`;
    out.push({ metric: 'accuracy', project: b.project, task: b.task, reason });
  }
  for (const b of base.scc) {
    const c = cand.scc.find((x) => key(x.project, x.task) === key(b.project, b.task));
    if (!c || (!b.stopped && !c.stopped)) continue;
    const stop = (c.stopped ?? b.stopped) as NonNullable<typeof b.stopped>;
    const reason = `the ${side(!c.stopped)} measured no CC: ${sccStopText(stop)}`;
    out.push({ metric: 'counting_capacity', project: b.project, task: b.task, reason });
  }
  return out;
}

function compareRetention(base: Baseline, cand: Baseline, tol: Tolerances, seed: number): MetricComparison[] {
  const out: MetricComparison[] = [];
  for (const b of base.fits) {
    const c = cand.fits.find((f) => key(f.project, f.task, f.variant) === key(b.project, b.task, b.variant));
    if (!c || !answeredAny(b.counts) || !answeredAny(c.counts)) continue;
    const { difference, ci95 } = retentionDifference(b.counts, c.counts, { seed });
    const supported = ci95[1] < 0;
    const regression = supported && difference < -tol.retention;
    out.push({
      metric: 'p_d',
      project: b.project,
      task: b.task,
      where: b.variant,
      baseline: b.pd,
      candidate: c.pd,
      difference,
      ci95,
      p: null,
      regression,
      reason: regression
        ? `p_d fell by ${(-difference).toFixed(3)} (95% CI of the change [${ci95[0].toFixed(3)}, ${ci95[1].toFixed(3)}] excludes 0; tolerance ${tol.retention})`
        : supported
          ? `p_d fell by ${(-difference).toFixed(3)}, within tolerance ${tol.retention}`
          : 'no statistically supported drop',
    });
    const tfbcBase = b.tfbcRate;
    const tfbcCand = c.tfbcRate;
    if (tfbcBase !== null && tfbcCand !== null) {
      const p = fisherExact(c.tfbc, c.correct - c.tfbc, b.tfbc, b.correct - b.tfbc).p;
      const rise = tfbcCand - tfbcBase;
      const tfbcRegression = p < tol.alpha && rise > tol.tfbcRate;
      out.push({
        metric: 'tfbc_rate',
        project: b.project,
        task: b.task,
        where: b.variant,
        baseline: tfbcBase,
        candidate: tfbcCand,
        difference: rise,
        ci95: null,
        p,
        regression: tfbcRegression,
        reason: tfbcRegression
          ? `TFBC rate rose by ${rise.toFixed(3)} (Fisher p = ${p.toPrecision(3)})`
          : 'no supported rise',
      });
    }
  }
  return out;
}

function compareCells(base: Baseline, cand: Baseline, tol: Tolerances): MetricComparison[] {
  const rows: Array<Omit<MetricComparison, 'regression' | 'reason'>> = [];
  for (const b of base.cells) {
    const c = cand.cells.find(
      (x) => key(x.project, x.task, x.variant, x.level) === key(b.project, b.task, b.variant, b.level),
    );
    if (!c || b.answered === 0 || c.answered === 0) continue;
    const accB = b.successes / b.answered;
    const accC = c.successes / c.answered;
    rows.push({
      metric: 'accuracy',
      project: b.project,
      task: b.task,
      where: `level ${b.level}${b.variant !== 'standard' && b.variant !== 'default' ? ` ${b.variant}` : ''}`,
      baseline: accB,
      candidate: accC,
      difference: accC - accB,
      ci95: null,
      p: fisherExact(c.successes, c.answered - c.successes, b.successes, b.answered - b.successes).p,
    });
  }
  const adjusted = holmAdjust(rows.map((r) => r.p ?? 1));
  return rows.map((row, i) => {
    const regression = adjusted[i] < tol.alpha && (row.difference ?? 0) < -tol.accuracy;
    return {
      ...row,
      p: adjusted[i],
      regression,
      reason: regression
        ? `accuracy fell by ${(-(row.difference ?? 0)).toFixed(3)} (Fisher exact, Holm-adjusted p = ${adjusted[i].toPrecision(3)})`
        : 'no supported drop',
    };
  });
}

function compareCapacity(base: Baseline, cand: Baseline, tol: Tolerances): MetricComparison[] {
  return base.scc.flatMap((b) => {
    const c = cand.scc.find((x) => key(x.project, x.task) === key(b.project, b.task));
    if (!c || b.stopped || c.stopped) return [];
    const disjoint = c.ccUpper !== null && c.ccUpper < b.ccLower;
    const regression = disjoint && c.cc < b.cc * (1 - tol.countingCapacity);
    return [
      {
        metric: 'counting_capacity' as const,
        project: b.project,
        task: b.task,
        where: '',
        baseline: b.cc,
        candidate: c.cc,
        difference: c.cc - b.cc,
        ci95: null,
        p: null,
        regression,
        reason: regression
          ? `CC fell from ${b.cc} (${b.ccLower}–${b.ccUpper ?? '∞'}) to ${c.cc} (${c.ccLower}–${c.ccUpper ?? '∞'}); the ladder bounds do not overlap`
          : disjoint
            ? 'CC fell beyond the ladder bounds but within tolerance'
            : 'ladder bounds overlap',
      },
    ];
  });
}

function compareCollapse(base: Baseline, cand: Baseline): MetricComparison[] {
  return base.collapse.flatMap((b) => {
    const c = cand.collapse.find((x) => key(x.project, x.task) === key(b.project, b.task));
    if (!c || b.levelIndex === null || c.levelIndex === null) return [];
    const separated = b.ci95 && c.ci95 ? c.ci95[1] < b.ci95[0] : false;
    const regression = c.levelIndex < b.levelIndex && separated;
    return [
      {
        metric: 'collapse_threshold' as const,
        project: b.project,
        task: b.task,
        where: '',
        baseline: b.levelIndex,
        candidate: c.levelIndex,
        difference: c.levelIndex - b.levelIndex,
        ci95: null,
        p: null,
        regression,
        reason: regression
          ? `λ* moved earlier, from L${b.levelIndex} to L${c.levelIndex}, with disjoint bootstrap CIs`
          : 'no supported shift earlier',
      },
    ];
  });
}

/**
 * Compares a candidate run with a baseline, metric by metric. A regression is declared only when it is
 * statistically supported (CI of the change excludes 0, Holm-adjusted Fisher p < α, or disjoint
 * ladder bounds) AND larger than the tolerance.
 */
export function compareRuns(
  base: Baseline,
  cand: Baseline,
  options: { tolerances?: Partial<Tolerances>; seed?: number } = {},
): Comparison {
  const tolerances = { ...DEFAULT_TOLERANCES, ...options.tolerances };
  const seed = options.seed ?? 0;
  const metrics = [
    ...compareRetention(base, cand, tolerances, seed),
    ...compareCells(base, cand, tolerances),
    ...compareCapacity(base, cand, tolerances),
    ...compareCollapse(base, cand),
  ];
  return {
    baseline: base.name,
    candidate: cand.name,
    tolerances,
    metrics,
    regressions: metrics.filter((m) => m.regression),
    notCompared: uncomparable(base, cand),
  };
}
