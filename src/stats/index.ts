/**
 * Pure estimators (no I/O): geometric step retention p_d with bootstrap and profile intervals, horizons,
 * alternative decay forms, per-depth binomial intervals, paired tests, k* and TFBC summaries and the collapse
 * threshold λ*. All randomness comes from a seeded PyRandom.
 */

export { binomialCdf, binomialLogPmf, sampleBinomial } from './binomial.js';
export {
  type CollapseThreshold,
  collapseThreshold,
  type LevelAccuracy,
  type LogisticStatus,
  logisticFit,
} from './collapse.js';
export { CountInputError, parseCountInput } from './count-input.js';
export {
  type AcceleratingFit,
  fitAccelerating,
  fitLinear,
  GAMMA_RANGE,
  informationCriteria,
  type LinearFit,
} from './decay-models.js';
export { type DepthCount, normalizeCounts, totalTrials } from './depth-counts.js';
export {
  type DepthSummary,
  estimateRetention,
  firstDepthBelow,
  HORIZON_THRESHOLDS,
  type RetentionEstimate,
} from './estimate.js';
export { clopperPearson, wilson } from './intervals.js';
export { fisherExact, mcnemarExact, mcnemarFromPairs } from './paired.js';
export { median, quantileInvertedCdf, quantileLinear } from './quantile.js';
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
  type RetentionMle,
} from './retention.js';
export {
  boundaries,
  fixedTestFailProbability,
  type OperatingCharacteristics,
  type RetentionTest,
  retentionLogLikelihoodRatio,
  retentionTestCall,
  type SequentialCall,
  type SequentialDesign,
  sequentialCharacteristics,
  simulateSequential,
} from './sequential.js';
export { betaQuantile, erfc, logChoose, logGamma, normalCdf, normalQuantile, regularizedBeta } from './special.js';
export { type KStarSummary, summarizeKStar, tfbcRate } from './trace.js';
