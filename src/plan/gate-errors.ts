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
  falseAlarm: number;
  power: number;
}

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
  seed = 45,
): DesignErrors[] {
  const gridCalls = perCell * depths.length;
  const p1 = test.threshold - test.margin;
  const grid = depths.map((depth) => ({ depth, n: perCell }));
  const design: SequentialDesign = { depths, ...sequential };
  const atThreshold = sequentialCharacteristics(new PyRandom(seed), test.threshold, design, test, SIMULATED_RUNS);
  const atMargin = sequentialCharacteristics(new PyRandom(seed + 1), p1, design, test, SIMULATED_RUNS);
  return [
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
}

/** One indented line per design, as `plan` prints them under the gate's sample-size line. */
export function formatGateErrors(rows: readonly DesignErrors[]): string[] {
  return rows.map(
    (r) =>
      `  ${r.design}: false alarm ${r.falseAlarm.toFixed(3)} at the threshold, power ${r.power.toFixed(3)} a margin short; calls ${Math.round(r.callsAtThreshold)} / ${Math.round(r.callsAtMargin)} expected (at the threshold / a margin short), ${r.maxCalls} at most`,
  );
}
