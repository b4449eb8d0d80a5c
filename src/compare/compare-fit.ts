import type { Baseline } from '../schema/baseline.js';
import { fisherExact, fitRetention } from '../stats/index.js';
import { retentionDifference } from '../stats/retention-difference.js';
import { formatLevels, levelsOf, restrictCounts, sameLevels, within, without } from './levels.js';
import {
  absence,
  counterpart,
  type Fit,
  fitInsufficiency,
  fitRef,
  notCompared,
  refFields,
  sideName,
} from './records.js';
import type { MetricComparison, NotCompared, Tolerances } from './schema.js';

export interface Outcome {
  metrics: MetricComparison[];
  notCompared: NotCompared[];
}

export interface FitContext {
  base: Baseline;
  cand: Baseline;
  tolerances: Tolerances;
  seed: number;
  resamples?: number;
  maxMissingFraction: number;
}

const only = (entry: NotCompared): Outcome => ({ metrics: [], notCompared: [entry] });

/** Why the pair cannot be compared at all (undefined when it can). */
function unfit(b: Fit, c: Fit, ctx: FitContext): NotCompared | undefined {
  const ref = fitRef(b);
  const [bLevels, cLevels] = [levelsOf(b.counts), levelsOf(c.counts)];
  if (bLevels.length === 0 || cLevels.length === 0) {
    const side = bLevels.length === 0 ? sideName(ctx.base, 'baseline') : sideName(ctx.cand, 'candidate');
    const reason = `the ${side} has no answered trial in this fit (all missing data)`;
    return notCompared(ref, 'no-answered-trials', reason, bLevels);
  }
  for (const [run, fit, role] of [
    [ctx.base, b, 'baseline'],
    [ctx.cand, c, 'candidate'],
  ] as const) {
    const why = fitInsufficiency(run, fit, ctx.maxMissingFraction);
    if (why) return notCompared(ref, 'insufficient', `the ${sideName(run, role)} fit is insufficient: ${why}`, bLevels);
  }
  if (b.missing !== c.missing) {
    return notCompared(
      ref,
      'other-rule',
      `p_d counts other trials on each side: missing-data rule '${b.missing}' in the baseline, '${c.missing}' in the candidate`,
      bLevels,
    );
  }
  const common = within(bLevels, cLevels);
  if (common.length === 0) {
    const universe = [...bLevels, ...cLevels];
    return notCompared(
      ref,
      'other-levels',
      `no level in common: the baseline has ${formatLevels(bLevels, universe)}, the candidate ${formatLevels(cLevels, universe)}`,
      bLevels,
    );
  }
  return undefined;
}

function retentionVerdict(difference: number, ci95: [number, number], tol: Tolerances) {
  const supported = ci95[1] < 0;
  const regression = supported && difference < -tol.retention;
  const reason = regression
    ? `p_d fell by ${(-difference).toFixed(3)} (95% CI of the change [${ci95[0].toFixed(3)}, ${ci95[1].toFixed(3)}] excludes 0; tolerance ${tol.retention})`
    : supported
      ? `p_d fell by ${(-difference).toFixed(3)}, within tolerance ${tol.retention}`
      : 'no statistically supported drop';
  return { regression, reason };
}

function tfbcRow(b: Fit, c: Fit, tol: Tolerances): MetricComparison | undefined {
  if (b.tfbcRate === null || c.tfbcRate === null) return undefined;
  const p = fisherExact(c.tfbc, c.correct - c.tfbc, b.tfbc, b.correct - b.tfbc).p;
  const rise = c.tfbcRate - b.tfbcRate;
  const regression = p < tol.alpha && rise > tol.tfbcRate;
  return {
    ...refFields({ ...fitRef(b), metric: 'tfbc_rate' }),
    baseline: b.tfbcRate,
    candidate: c.tfbcRate,
    difference: rise,
    ci95: null,
    p,
    regression,
    reason: regression ? `TFBC rate rose by ${rise.toFixed(3)} (Fisher p = ${p.toPrecision(3)})` : 'no supported rise',
  };
}

/**
 * TFBC counts are totals over a fit's levels, not kept per level: compared only when both fits ran the same
 * levels. A baseline rate the candidate cannot match is listed, never dropped.
 */
function compareTfbc(b: Fit, c: Fit, same: boolean, ctx: FitContext): Outcome {
  if (b.tfbcRate === null) return { metrics: [], notCompared: [] };
  const ref = { ...fitRef(b), metric: 'tfbc_rate' as const };
  if (!same) {
    const universe = [...levelsOf(b.counts), ...levelsOf(c.counts)];
    return only(
      notCompared(
        ref,
        'other-levels',
        `the TFBC counts are totals over each fit's levels (baseline ${formatLevels(levelsOf(b.counts), universe)}, candidate ${formatLevels(levelsOf(c.counts), universe)}), not kept per level`,
      ),
    );
  }
  const row = tfbcRow(b, c, ctx.tolerances);
  if (row) return { metrics: [row], notCompared: [] };
  return only(
    notCompared(
      ref,
      'no-estimate',
      `the ${sideName(ctx.cand, 'candidate')} has no correct answer in this fit: no TFBC rate`,
    ),
  );
}

/**
 * One baseline fit against its counterpart. p_d is compared over the same levels only: when the level sets differ
 * both sides are refit (the harness's MLE) on the common levels, and the baseline levels the candidate lacks are
 * listed as not compared.
 */
export function compareFit(b: Fit, ctx: FitContext): Outcome {
  const c = counterpart.fit(ctx.cand, b);
  if (!c) return only(notCompared(fitRef(b), 'absent', absence(ctx.cand, fitRef(b)), levelsOf(b.counts)));
  const refused = unfit(b, c, ctx);
  if (refused) return only(refused);
  const [bLevels, cLevels] = [levelsOf(b.counts), levelsOf(c.counts)];
  const universe = [...bLevels, ...cLevels];
  const common = within(bLevels, cLevels);
  const lacking = without(bLevels, cLevels);
  const extra = without(cLevels, bLevels);
  const same = sameLevels(bLevels, cLevels);
  const bCounts = same ? b.counts : restrictCounts(b.counts, common);
  const cCounts = same ? c.counts : restrictCounts(c.counts, common);
  const { difference, ci95 } = retentionDifference(bCounts, cCounts, { seed: ctx.seed, resamples: ctx.resamples });
  const verdict = retentionVerdict(difference, ci95, ctx.tolerances);
  const refit = [
    `refit on the common levels ${formatLevels(common, universe)}`,
    ...(lacking.length > 0 ? [`the candidate has no ${formatLevels(lacking, universe)}`] : []),
    ...(extra.length > 0 ? [`the candidate's ${formatLevels(extra, universe)} are new (not gated)`] : []),
  ].join('; ');
  const row: MetricComparison = {
    ...refFields(fitRef(b)),
    baseline: same ? b.pd : fitRetention(bCounts).pd,
    candidate: same ? c.pd : fitRetention(cCounts).pd,
    difference,
    ci95,
    p: null,
    regression: verdict.regression,
    reason: same ? verdict.reason : `${refit}: ${verdict.reason}`,
    levels: common,
  };
  // a level the candidate ran but counted no trial of (all missing data, or set aside by the 'paper' rule)
  const ranAny = c.counts.some((x) => lacking.includes(x.depth));
  const missingLevels =
    lacking.length === 0
      ? []
      : [
          notCompared(
            fitRef(b),
            'other-levels',
            `levels ${formatLevels(lacking, universe)}: the ${sideName(ctx.cand, 'candidate')} ${ranAny ? 'counted no trial at these levels' : 'has no such level'} (p_d was refit on the common levels ${formatLevels(common, universe)})`,
            lacking,
          ),
        ];
  const tfbc = compareTfbc(b, c, same, ctx);
  return { metrics: [row, ...tfbc.metrics], notCompared: [...missingLevels, ...tfbc.notCompared] };
}
