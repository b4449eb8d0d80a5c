import type { SccResult, SccTier, SccTrial } from '../../src/schema/scc.js';
import { DEFAULT_SCC_CONFIG } from '../../src/schema/scc-config.js';
import type { DualTaskResult, DualTrial, MotifAblationResult, MotifRow } from '../../src/schema/scc-secondary.js';

/**
 * Hand-built assay results that match their schemas (src/schema/assay-results.ts), for tests of the projections:
 * each field a test does not set has a plain value. A field the schema marks optional (`usage` of a record
 * written before it was kept) is absent unless set.
 */

export const sccTrial = (overrides: Partial<SccTrial> = {}): SccTrial => ({
  trialIndex: 0,
  target: 32,
  parsed: 32,
  relativeError: 0,
  exact: true,
  format: 'single-integer',
  tokens: 1,
  inputTokens: 1,
  status: 'completed',
  detail: null,
  retryCount: 0,
  requestedMaxOutputTokens: 4096,
  finalMaxOutputTokens: 4096,
  text: '32',
  ...overrides,
});

export const sccTier = (overrides: Partial<SccTier> = {}): SccTier => ({
  evaluationIndex: 0,
  phase: 'expansion',
  center: 32,
  sampleLow: 26,
  sampleHigh: 38,
  targets: [],
  passed: true,
  parseRate: 1,
  mape: 0,
  issued: 0,
  aborted: 0,
  decidedEarly: false,
  abortRuleStopped: false,
  trials: [],
  ...overrides,
});

export const sccResult = (overrides: Partial<SccResult> = {}): SccResult => ({
  task: 'count',
  seed: 7,
  config: DEFAULT_SCC_CONFIG,
  schedule: 'pool',
  drawMode: 'upfront',
  earlyDecision: true,
  launchOrder: 'largest-first',
  preflightPolicy: 'if-first-tier-fails',
  skipped: false,
  skipReason: null,
  cc: 1,
  ccLower: 1,
  ccUpper: 2,
  bounded: true,
  errorBar: { lower: 1, upper: 2 },
  tiers: [],
  calls: 0,
  callsSaved: 0,
  tokensSaved: 0,
  tokensSpent: 0,
  learnedMaxOutputTokens: 4096,
  attractors: [],
  tokensPerCountAtCc: {
    center: null,
    trials: 0,
    meanOutputTokens: null,
    meanTotalTokens: null,
    outputTokensPerCount: null,
    totalTokensPerCount: null,
    authorsCsvAvgOutputTokens: null,
  },
  formatAudit: [],
  ...overrides,
});

export const dualTrial = (overrides: Partial<DualTrial> = {}): DualTrial => ({
  condition: 'plain_count',
  count: 32,
  sample: 0,
  itemId: null,
  matchedTokens: null,
  secondaryCount: null,
  answered: true,
  parseable: true,
  strictJson: true,
  parsedCount: 32,
  countError: 0,
  countCorrect: true,
  parsedSecondaryCount: null,
  secondaryCorrect: null,
  taskCorrect: null,
  inputTokens: 1,
  outputTokens: 1,
  text: '{"count": 32}',
  ...overrides,
});

export const dualTaskResult = (overrides: Partial<DualTaskResult> = {}): DualTaskResult => ({
  seed: 23,
  counts: [32],
  samplesPerCount: 1,
  window: 3,
  secondaries: [],
  conditions: [],
  trials: [],
  ...overrides,
});

export const motifRow = (overrides: Partial<MotifRow> = {}): MotifRow => ({
  motif: 'baseline-a-comma',
  item: 'a',
  delimiter: ', ',
  seed: 7,
  skipped: false,
  cc: 1,
  ccLower: 1,
  ccUpper: 2,
  bounded: true,
  errorBar: { lower: 1, upper: 2 },
  relativeCc: 1,
  inputTokensPerItem: null,
  relativeInputTokensPerItem: null,
  path: [],
  calls: 0,
  ...overrides,
});

export const motifResult = (overrides: Partial<MotifAblationResult> = {}): MotifAblationResult => ({
  baselineMotif: 'baseline-a-comma',
  maxLength: 20000,
  rows: [],
  ...overrides,
});
