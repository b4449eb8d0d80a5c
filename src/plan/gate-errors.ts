import { SEQUENTIAL_DEFAULTS } from '../config/design.js';
import { PyRandom } from '../rng/index.js';
import { retentionInformation } from '../stats/sample-size.js';
import {
  fixedTestFailProbability,
  type RetentionTest,
  type SequentialDesign,
  sequentialCharacteristics,
} from '../stats/sequential.js';
import { normalCdf } from '../stats/special.js';

/**
 * `plan`'s error rates of a retention gate per design (docs/gates.md#error-controlled-gates): the false-alarm
 * rate (failing a model at the threshold), the power (failing one a margin short) and the calls, for the grid
 * with the point gate, the grid with the likelihood-ratio test, and the sequential design. The point gate's
 * figures are the normal approximation of the MLE (sd 1/√(n·I(p))); the grid test's the normal approximation of
 * its log likelihood ratio; the sequential design's a seeded simulation of the test itself (SIMULATED_RUNS runs).
 */

export const SIMULATED_RUNS = 400;

/** The sequential design's defaults (src/config/design.ts): 2 trials per depth a look, at most 4× the grid. */
export const SEQUENTIAL_BATCH = SEQUENTIAL_DEFAULTS.batch;
export const SEQUENTIAL_MAX_FACTOR = SEQUENTIAL_DEFAULTS.maxFactor;

export interface DesignErrors {
  design: string;
  /** Expected calls at the threshold and a margin short; the most a run can ask. */
  callsAtThreshold: number;
  callsAtMargin: number;
  maxCalls: number;
  /** The same in tokens (prompt + output): expected per call × calls; at most, the most per call × the most calls. */
  tokens: { atThreshold: number; atMargin: number; max: number } | null;
  falseAlarm: number;
  power: number;
}

/**
 * Tokens (prompt + output) of one call, averaged over the depths with equal weight — every design here asks the same
 * number at each depth, so calls × this is its tokens: `expected` by the family's length model, `high` with every
 * answer running to its output budget (the plan's own per-cell estimates, src/plan/amount.ts).
 */
export interface TokensPerCall {
  expected: number;
  high: number;
}

const withTokens = (row: Omit<DesignErrors, 'tokens'>, perCall: TokensPerCall | null): DesignErrors => ({
  ...row,
  tokens:
    perCall === null
      ? null
      : {
          atThreshold: row.callsAtThreshold * perCall.expected,
          atMargin: row.callsAtMargin * perCall.expected,
          max: row.maxCalls * perCall.high,
        },
});

/** The point gate on a grid of `perCell` trials at `depths`: P(MLE < threshold) at true p, approximately. */
function pointFailProbability(depths: readonly number[], perCell: number, threshold: number, p: number): number {
  const sd = 1 / Math.sqrt(perCell * retentionInformation(p, depths));
  return normalCdf((threshold - p) / sd);
}

/** The error rates and calls of each design for a minRetention gate; the sequential design asks `batch` per look. */
export function retentionGateErrors(
  depths: readonly number[],
  perCell: number,
  test: RetentionTest,
  sequential: Omit<SequentialDesign, 'depths'>,
  tokensPerCall: TokensPerCall | null = null,
  seed = 45,
): DesignErrors[] {
  const gridCalls = perCell * depths.length;
  const p1 = test.threshold - test.margin;
  const grid = depths.map((depth) => ({ depth, n: perCell }));
  const design: SequentialDesign = { depths, ...sequential };
  const atThreshold = sequentialCharacteristics(new PyRandom(seed), test.threshold, design, test, SIMULATED_RUNS);
  const atMargin = sequentialCharacteristics(new PyRandom(seed + 1), p1, design, test, SIMULATED_RUNS);
  const rows: Array<Omit<DesignErrors, 'tokens'>> = [
    {
      design: 'grid + point (no error control)',
      callsAtThreshold: gridCalls,
      callsAtMargin: gridCalls,
      maxCalls: gridCalls,
      falseAlarm: pointFailProbability(depths, perCell, test.threshold, test.threshold),
      power: pointFailProbability(depths, perCell, test.threshold, p1),
    },
    {
      design: `grid + test (alpha ${test.alpha})`,
      callsAtThreshold: gridCalls,
      callsAtMargin: gridCalls,
      maxCalls: gridCalls,
      falseAlarm: fixedTestFailProbability(grid, test, test.threshold),
      power: fixedTestFailProbability(grid, test, p1),
    },
    {
      design: `sequential (alpha ${test.alpha}, ${sequential.batch} per depth a look, at most ${sequential.maxPerCell})`,
      callsAtThreshold: atThreshold.meanCalls,
      callsAtMargin: atMargin.meanCalls,
      maxCalls: atThreshold.maxCalls,
      falseAlarm: atThreshold.failRate,
      power: atMargin.failRate,
    },
  ];
  return rows.map((row) => withTokens(row, tokensPerCall));
}

/** 12_345_678 → `12.3M`; under 10,000 as is. */
export function tokenCount(x: number): string {
  if (x >= 1e6) return `${(x / 1e6).toFixed(1)}M`;
  if (x >= 1e4) return `${(x / 1e3).toFixed(0)}k`;
  return String(Math.round(x));
}

/** One indented line per design, as `plan` prints them under the gate's sample-size line. */
export function formatGateErrors(rows: readonly DesignErrors[]): string[] {
  return rows.map(
    (r) =>
      `  ${r.design}: false alarm ${r.falseAlarm.toFixed(3)} at the threshold, power ${r.power.toFixed(3)} a margin short; calls ${Math.round(r.callsAtThreshold)} / ${Math.round(r.callsAtMargin)} expected (at the threshold / a margin short), ${r.maxCalls} at most${
        r.tokens === null
          ? '; tokens: no estimate (every planned trial is cached)'
          : `; tokens ${tokenCount(r.tokens.atThreshold)} / ${tokenCount(r.tokens.atMargin)} expected, ${tokenCount(r.tokens.max)} at most`
      }`,
  );
}
