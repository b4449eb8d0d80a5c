import type { CellResult } from '../../src/schema/cell.js';
import type { RetentionFit } from '../../src/schema/fit.js';

/** A hand-built retention fit for tests of checks, gates and projections. */
export function retentionFit(overrides: Partial<RetentionFit> = {}): RetentionFit {
  return {
    kind: 'retention',
    project: 'd2',
    task: 'd2',
    profile: 'official',
    variant: 'standard',
    missing: 'paper',
    status: 'ok',
    counts: [{ depth: 5, correct: 38, n: 40 }],
    pd: 0.951,
    ci95: [0.944, 0.957],
    profileCi95: [0.944, 0.957],
    atLowerBound: false,
    horizon: { '0.5': { value: 13.8, ci95: [12.0, 15.8] }, '0.9': { value: 2.1, ci95: [1.8, 2.4] } },
    firstDepthBelow: { '0.5': 15, '0.9': 5 },
    logLik: -100,
    aic: 202,
    bic: 205,
    alternatives: {},
    kStar: { n: 10, mean: 6.5, median: 6, early: 2, mid: 6, late: 2, histogram: {} },
    correct: 200,
    tfbc: 10,
    tfbcRate: 0.05,
    formatRate: 0,
    truncationRate: 0,
    apiRate: 0,
    nTrials: 400,
    ...overrides,
  };
}

export function cell(overrides: Partial<CellResult> = {}): CellResult {
  return {
    kind: 'cell',
    project: 'd2',
    task: 'd2',
    family: 'ccb',
    levelKind: 'depth',
    level: 5,
    knob: null,
    profile: 'official',
    variant: 'standard',
    seedOffset: 0,
    n: 40,
    outcomes: { correct: 30, reasoning: 8, constraint: 0, format: 1, truncation: 0, api: 1 },
    successes: 30,
    missing: 1,
    accuracy: 30 / 39,
    ci95: [0.6, 0.88],
    status: 'ok',
    kStar: { n: 8, mean: 3, median: 3, early: 5, mid: 3, late: 0, histogram: { '3': 8 } },
    tfbc: 1,
    tokens: { prompt: 100, completion: 200, reasoning: 0 },
    cacheHits: 0,
    calls: 40,
    trials: [],
    ...overrides,
  };
}
