/**
 * Pure estimators (no I/O): geometric step retention p_d with bootstrap and profile intervals, horizons,
 * alternative decay forms, per-depth binomial intervals, paired tests, k* and TFBC summaries and the collapse
 * threshold λ*. All randomness comes from a seeded PyRandom.
 */

export { binomialCdf, binomialLogPmf, sampleBinomial } from './binomial';
export {
  type CollapseThreshold,
  collapseThreshold,
  type LevelAccuracy,
  type LogisticStatus,
  logisticFit,
} from './collapse';
export { CountInputError, parseCountInput } from './count-input';
export { type CcbKind, countsFromOutcomes, type MissingRule, type OutcomeRates, outcomeRates } from './counts';
export {
  type AcceleratingFit,
  fitAccelerating,
  fitLinear,
  GAMMA_RANGE,
  informationCriteria,
  type LinearFit,
} from './decay-models';
export { type DepthCount, normalizeCounts, totalTrials } from './depth-counts';
export {
  type DepthSummary,
  estimateRetention,
  firstDepthBelow,
  HORIZON_THRESHOLDS,
  type RetentionEstimate,
} from './estimate';
export { clopperPearson, wilson } from './intervals';
export { fisherExact, mcnemarExact, mcnemarFromPairs } from './paired';
export { median, quantileInvertedCdf, quantileLinear } from './quantile';
export {
  type BootstrapMethod,
  bootstrapRetentionCI,
  fitRetention,
  fitRetentionReleaseGrid,
  geometricLogLik,
  horizon,
  PD_LOWER,
  PD_UPPER,
  profileLikelihoodCI,
  type RetentionFit,
} from './retention';
export { betaQuantile, erfc, logChoose, logGamma, normalCdf, normalQuantile, regularizedBeta } from './special';
export { type KStarSummary, summarizeKStar, tfbcRate } from './trace';
