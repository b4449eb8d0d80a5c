import type { Baseline } from '../schema/baseline.js';
import { sccStopText } from '../schema/scc-stop.js';
import { holmAdjust } from '../stats/holm.js';
import { fisherExact } from '../stats/index.js';
import { provenanceOfBaseline } from './baseline.js';
import { compareFit, type FitContext, type Outcome } from './compare-fit.js';
import { formatLevels } from './levels.js';
import { offlineWarning, provenanceDifferences } from './provenance.js';
import {
  absence,
  type Cell,
  type Collapse,
  cellInsufficiency,
  cellRef,
  collapseCells,
  collapseInsufficiency,
  collapseRef,
  counterpart,
  newInCandidate,
  notCompared,
  refFields,
  resolveScope,
  type Scc,
  sccRef,
  sideName,
} from './records.js';
import type { Comparison, MetricComparison, NotCompared, Tolerances } from './schema.js';
import { comparisonVerdict, type StoredVerdict } from './verdict.js';

export const DEFAULT_TOLERANCES: Tolerances = {
  retention: 0.01,
  accuracy: 0.05,
  countingCapacity: 0.05,
  tfbcRate: 0.1,
  alpha: 0.05,
};

/** The harness's default: a cell with more than this share of its trials missing data is insufficient. */
export const DEFAULT_MAX_MISSING_FRACTION = 0.2;

const none: Outcome = { metrics: [], notCompared: [] };
const merge = (outcomes: Outcome[]): Outcome => ({
  metrics: outcomes.flatMap((o) => o.metrics),
  notCompared: outcomes.flatMap((o) => o.notCompared),
});

type CellRow = Omit<MetricComparison, 'regression' | 'reason'>;

/** One baseline cell: a row for the Holm family, or why it is not compared. */
function cellRow(b: Cell, ctx: FitContext): CellRow | NotCompared {
  const ref = cellRef(b);
  const c = counterpart.cell(ctx.cand, b);
  if (!c) return notCompared(ref, 'absent', absence(ctx.cand, ref));
  if (b.answered === 0 || c.answered === 0) {
    const side = b.answered === 0 ? sideName(ctx.base, 'baseline') : sideName(ctx.cand, 'candidate');
    const reason = `level ${b.level}: the ${side} has no answered trial in this cell (all missing data)`;
    return notCompared(ref, 'no-answered-trials', reason);
  }
  for (const [run, cell, role] of [
    [ctx.base, b, 'baseline'],
    [ctx.cand, c, 'candidate'],
  ] as const) {
    const why = cellInsufficiency(cell, ctx.maxMissingFraction);
    if (why)
      return notCompared(ref, 'insufficient', `level ${b.level}: the ${sideName(run, role)} is insufficient: ${why}`);
  }
  const accB = b.successes / b.answered;
  const accC = c.successes / c.answered;
  return {
    ...refFields(ref),
    baseline: accB,
    candidate: accC,
    difference: accC - accB,
    ci95: null,
    p: fisherExact(c.successes, c.answered - c.successes, b.successes, b.answered - b.successes).p,
  };
}

function compareCells(cells: readonly Cell[], ctx: FitContext): Outcome {
  const results = cells.map((b) => cellRow(b, ctx));
  const rows = results.filter((r): r is CellRow => !('kind' in r));
  const adjusted = holmAdjust(rows.map((r) => r.p ?? 1));
  const metrics = rows.map((row, i) => {
    const regression = adjusted[i] < ctx.tolerances.alpha && (row.difference ?? 0) < -ctx.tolerances.accuracy;
    return {
      ...row,
      p: adjusted[i],
      regression,
      reason: regression
        ? `accuracy fell by ${(-(row.difference ?? 0)).toFixed(3)} (Fisher exact, Holm-adjusted p = ${adjusted[i].toPrecision(3)})`
        : 'no supported drop',
    };
  });
  return { metrics, notCompared: results.filter((r): r is NotCompared => 'kind' in r) };
}

function compareCapacity(b: Scc, ctx: FitContext): Outcome {
  const ref = sccRef(b);
  const c = counterpart.scc(ctx.cand, b);
  if (!c) return { metrics: [], notCompared: [notCompared(ref, 'absent', absence(ctx.cand, ref))] };
  const stop = c.stopped ?? b.stopped;
  if (stop) {
    const side = c.stopped ? sideName(ctx.cand, 'candidate') : sideName(ctx.base, 'baseline');
    return {
      metrics: [],
      notCompared: [notCompared(ref, 'stopped', `the ${side} measured no CC: ${sccStopText(stop)}`)],
    };
  }
  const tol = ctx.tolerances;
  const disjoint = c.ccUpper !== null && c.ccUpper < b.ccLower;
  const regression = disjoint && c.cc < b.cc * (1 - tol.countingCapacity);
  const row: MetricComparison = {
    ...refFields(ref),
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
  };
  return { metrics: [row], notCompared: [] };
}

/** The levels a collapse fit was computed over: its cells with an answered trial. */
const collapseLevels = (run: Baseline, c: Collapse) =>
  [
    ...new Set(
      collapseCells(run, c)
        .filter((x) => x.answered > 0)
        .map((x) => x.level),
    ),
  ].sort((x, y) => x - y);

function collapseRefusal(b: Collapse, c: Collapse, ctx: FitContext): NotCompared | undefined {
  const ref = collapseRef(b);
  for (const [run, fit, role] of [
    [ctx.base, b, 'baseline'],
    [ctx.cand, c, 'candidate'],
  ] as const) {
    const why = collapseInsufficiency(run, fit, ctx.maxMissingFraction);
    if (why) return notCompared(ref, 'insufficient', `the ${sideName(run, role)} collapse fit is insufficient: ${why}`);
  }
  const [bLevels, cLevels] = [collapseLevels(ctx.base, b), collapseLevels(ctx.cand, c)];
  const differ = bLevels.length > 0 && cLevels.length > 0 && bLevels.join() !== cLevels.join();
  if (differ) {
    const universe = [...bLevels, ...cLevels];
    const reason = `λ* is an argmax over each run's levels, and they differ: baseline ${formatLevels(bLevels, universe)}, candidate ${formatLevels(cLevels, universe)}`;
    return notCompared(ref, 'other-levels', reason);
  }
  if ((b.levelIndex === null) !== (c.levelIndex === null)) {
    const side = b.levelIndex === null ? sideName(ctx.base, 'baseline') : sideName(ctx.cand, 'candidate');
    return notCompared(ref, 'no-estimate', `the ${side} has no λ*: its accuracy does not change over its levels`);
  }
  return undefined;
}

function compareCollapse(b: Collapse, ctx: FitContext): Outcome {
  const ref = collapseRef(b);
  const c = counterpart.collapse(ctx.cand, b);
  if (!c) return { metrics: [], notCompared: [notCompared(ref, 'absent', absence(ctx.cand, ref))] };
  const refused = collapseRefusal(b, c, ctx);
  if (refused) return { metrics: [], notCompared: [refused] };
  const row = { ...refFields(ref), ci95: null, p: null };
  if (b.levelIndex === null || c.levelIndex === null) {
    const reason = 'no λ* on either side: accuracy does not change over the levels';
    return {
      ...none,
      metrics: [{ ...row, baseline: null, candidate: null, difference: null, regression: false, reason }],
    };
  }
  const separated = b.ci95 && c.ci95 ? c.ci95[1] < b.ci95[0] : false;
  const regression = c.levelIndex < b.levelIndex && separated;
  const metric: MetricComparison = {
    ...row,
    baseline: b.levelIndex,
    candidate: c.levelIndex,
    difference: c.levelIndex - b.levelIndex,
    regression,
    reason: regression
      ? `λ* moved earlier, from L${b.levelIndex} to L${c.levelIndex}, with disjoint bootstrap CIs`
      : 'no supported shift earlier',
  };
  return { metrics: [metric], notCompared: [] };
}

/**
 * Compares a candidate run with a baseline, record by record: every fit, cell, SCC ladder and collapse fit of the
 * baseline in scope is compared or listed in `notCompared` with why (absent, other levels, insufficient, stopped,
 * no answered trial, no estimate); the gate passes only when that list and the regressions are both empty, and
 * no hard gate of the candidate's own (a ceilingbench.json's, in scope) failed or went unchecked. A
 * regression is declared only when it is statistically supported (CI of the change excludes 0, Holm-adjusted
 * Fisher p < α, or disjoint ladder bounds) AND larger than the tolerance. `only` narrows the scope to some
 * projects; a name neither run has, or an empty scope, throws a UsageError.
 */
export function compareRuns(
  base: Baseline,
  cand: Baseline,
  options: {
    tolerances?: Partial<Tolerances>;
    seed?: number;
    resamples?: number;
    maxMissingFraction?: number;
    only?: readonly string[];
    /** The candidate's own gates and manifest, when it is a ceilingbench.json (loadRun): they join the verdict. */
    candidateVerdict?: StoredVerdict;
  } = {},
): Comparison {
  const tolerances = { ...DEFAULT_TOLERANCES, ...options.tolerances };
  const scope = resolveScope(base, cand, options.only);
  const ctx: FitContext = {
    base,
    cand,
    tolerances,
    seed: options.seed ?? 0,
    resamples: options.resamples,
    maxMissingFraction: options.maxMissingFraction ?? DEFAULT_MAX_MISSING_FRACTION,
  };
  const inScope = <T extends { project: string }>(records: readonly T[]) =>
    records.filter((r) => scope.inScope(r.project));
  const fits = merge(inScope(base.fits).map((b) => compareFit(b, ctx)));
  const cells = compareCells(inScope(base.cells), ctx);
  const scc = merge(inScope(base.scc).map((b) => compareCapacity(b, ctx)));
  const collapse = merge(inScope(base.collapse).map((b) => compareCollapse(b, ctx)));
  const { metrics, notCompared: skipped } = merge([fits, cells, scc, collapse]);
  const regressions = metrics.filter((m) => m.regression);
  const sides = { baseline: provenanceOfBaseline(base), candidate: provenanceOfBaseline(cand) };
  const verdict = comparisonVerdict(metrics, skipped, options.candidateVerdict, scope.inScope);
  return {
    baseline: base.name,
    candidate: cand.name,
    provenance: {
      ...sides,
      differences: provenanceDifferences(sides.baseline, sides.candidate),
      warning: offlineWarning(sides.baseline, sides.candidate),
    },
    tolerances,
    scope: { only: scope.only, projects: scope.projects, excluded: scope.excluded },
    metrics,
    regressions,
    notCompared: skipped,
    newInCandidate: newInCandidate(base, cand, scope.inScope),
    candidateGates: verdict.candidate,
    passed: verdict.passed,
  };
}
