import {
  type AcceleratingFit,
  fitAccelerating,
  fitLinear,
  informationCriteria,
  type LinearFit,
} from './decay-models.js';
import { type DepthCount, normalizeCounts, totalTrials } from './depth-counts.js';
import { clopperPearson } from './intervals.js';
import { type BootstrapMethod, bootstrapRetentionCI, fitRetention, horizon, profileLikelihoodCI } from './retention.js';

/** Success thresholds s reported for the horizon H_s and the observed crossing depth. */
export const HORIZON_THRESHOLDS = ['0.5', '0.9'] as const;

export interface DepthSummary extends DepthCount {
  accuracy: number;
  /** Exact Clopper–Pearson 95% interval for the accuracy at this depth. */
  ci95: [number, number];
}

export interface RetentionEstimate {
  pd: number;
  /** Seeded parametric-bootstrap interval (method in ciMethod; BCa unless asked otherwise). */
  ci95: [number, number];
  ciMethod: BootstrapMethod;
  /** Bootstrap settings, so the interval can be reproduced. */
  seed: number;
  resamples: number;
  /** Profile-likelihood interval, a cheap cross-check of ci95. */
  profileCi95: [number, number];
  atLowerBound: boolean;
  /** H_s = ln s / ln p_d; its interval maps ci95 through the (increasing) horizon function. Infinity if p_d = 1. */
  horizon: Record<string, { value: number; ci95: [number, number] }>;
  /** The smallest depth whose observed accuracy is below s (null: never below s). */
  firstDepthBelow: Record<string, number | null>;
  logLik: number;
  aic: number;
  bic: number;
  /** Trials over the depths used (BIC's n). */
  nTrials: number;
  depths: DepthSummary[];
  /**
   * Alternative decay forms on the same counts, each with its own log-likelihood, AIC and BIC (all full
   * binomial log-likelihoods, so the three are comparable); `preferredByAic` / `preferredByBic` name the
   * lowest criterion among geometric, accelerating and linear. Note the geometric fit is constrained to
   * p_d ∈ [0.5, 1] as in the paper, the alternatives are not.
   */
  alternatives: {
    accelerating: AcceleratingFit;
    linear: LinearFit;
    preferredByAic: 'geometric' | 'accelerating' | 'linear';
    preferredByBic: 'geometric' | 'accelerating' | 'linear';
  };
}

/** The depth at which observed accuracy first drops below each threshold (depths ascending, n > 0 only). */
export function firstDepthBelow(counts: DepthCount[], thresholds: readonly number[]): Record<string, number | null> {
  const data = normalizeCounts(counts);
  const result: Record<string, number | null> = {};
  for (const s of thresholds) {
    result[String(s)] = data.find((c) => c.correct / c.n < s)?.depth ?? null;
  }
  return result;
}

function preferred(criteria: Record<'geometric' | 'accelerating' | 'linear', number>) {
  const order = ['geometric', 'accelerating', 'linear'] as const; // ties favour the simpler, earlier model
  return order.reduce((best, model) => (criteria[model] < criteria[best] ? model : best), order[0]);
}

/** Everything the reports print for one CCB cell: p_d with both intervals, horizons, per-depth CIs, alternatives. */
export function estimateRetention(
  counts: DepthCount[],
  opts: { seed: number; resamples?: number; method?: BootstrapMethod },
): RetentionEstimate {
  const data = normalizeCounts(counts);
  const fit = fitRetention(data);
  const resamples = opts.resamples ?? 2000;
  const ciMethod = opts.method ?? 'bca';
  const ci95 = bootstrapRetentionCI(data, { seed: opts.seed, resamples, method: ciMethod });
  const nTrials = totalTrials(data);
  const { aic, bic } = informationCriteria(fit.logLik, 1, nTrials);
  const horizons: RetentionEstimate['horizon'] = {};
  for (const key of HORIZON_THRESHOLDS) {
    const s = Number(key);
    horizons[key] = { value: horizon(fit.pd, s), ci95: [horizon(ci95[0], s), horizon(ci95[1], s)] };
  }
  const accelerating = fitAccelerating(data);
  const linear = fitLinear(data);
  return {
    pd: fit.pd,
    ci95,
    ciMethod,
    seed: opts.seed,
    resamples,
    profileCi95: profileLikelihoodCI(data),
    atLowerBound: fit.atLowerBound,
    horizon: horizons,
    firstDepthBelow: firstDepthBelow(data, HORIZON_THRESHOLDS.map(Number)),
    logLik: fit.logLik,
    aic,
    bic,
    nTrials,
    depths: data.map((c) => ({ ...c, accuracy: c.correct / c.n, ci95: clopperPearson(c.correct, c.n) })),
    alternatives: {
      accelerating,
      linear,
      preferredByAic: preferred({ geometric: aic, accelerating: accelerating.aic, linear: linear.aic }),
      preferredByBic: preferred({ geometric: bic, accelerating: accelerating.bic, linear: linear.bic }),
    },
  };
}
