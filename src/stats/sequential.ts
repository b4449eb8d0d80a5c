import type { PyRandom } from '../rng/index.js';
import { sampleBinomial } from './binomial.js';
import type { DepthCount } from './depth-counts.js';
import { normalCdf } from './special.js';

/**
 * A retention gate as a test with stated errors (docs/gates.md#error-controlled-gates): the likelihood ratio of
 * the geometric model P(correct | N) = p^N between the alternative p₁ = threshold − margin (a model that falls
 * short by the margin) and the null p₀ = threshold (a model that just meets it).
 *
 *     Λ = Σ_N [ c_N · N · ln(p₁/p₀) + (n_N − c_N) · ln((1 − p₁^N) / (1 − p₀^N)) ]
 *
 * The gate FAILS when Λ ≥ ln(1/α). Under p₀, e^Λ is a non-negative martingale with mean 1 as trials accrue, in
 * whatever batches, at whatever depths, stopped whenever: by Ville's inequality P(e^Λ ever reaches 1/α) ≤ α. So
 * the false-alarm rate at the threshold is at most α for a fixed grid (Markov's inequality, the one-look case)
 * and for the sequential design with any number of looks — no spending function is needed, because the bound
 * already holds uniformly over time. For a true p above p₀ each trial's E[e^λ] is below 1 (a supermartingale),
 * so the bound holds for every model that meets the threshold. The sequential design also PASSES early when Λ ≤ ln(β/(1 − α)) (Wald's
 * lower boundary, β the planned miss rate): stopping to pass never raises the false-alarm rate. Reaching the
 * maximum undecided passes too (the false-alarm bound stays intact) and says so.
 */

export interface RetentionTest {
  /** p₀: the gate's threshold on p_d. */
  threshold: number;
  /** The smallest shortfall the test must catch: p₁ = threshold − margin. */
  margin: number;
  /** The false-alarm rate: failing a model whose p_d is the threshold. */
  alpha: number;
  /** The planned miss rate at the margin (Wald's lower boundary; default 0.2). */
  beta?: number;
}

export type SequentialCall = 'pass' | 'fail' | 'continue';

/** The power of the design that produced a record, when it is not the one-look test's on its counts. */
export interface DesignPower {
  value: number;
  /** How it was obtained, as the gate line says it: `sequential design, 400 simulated runs`. */
  of: string;
}

/** Throws a RangeError unless 0 < threshold − margin < threshold < 1 and 0 < α, β < 1. */
export function checkRetentionTest(test: RetentionTest): void {
  const { threshold, margin, alpha, beta = 0.2 } = test;
  if (!(threshold > 0 && threshold < 1)) throw new RangeError(`threshold=${threshold} must lie in (0, 1)`);
  if (!(margin > 0 && threshold - margin > 0)) throw new RangeError(`margin=${margin} must lie in (0, ${threshold})`);
  if (!(alpha > 0 && alpha < 1)) throw new RangeError(`alpha=${alpha} must lie in (0, 1)`);
  if (!(beta > 0 && beta < 1)) throw new RangeError(`beta=${beta} must lie in (0, 1)`);
}

/** The log-likelihood-ratio contribution of one correct and of one wrong trial at depth N. */
function perTrial(depth: number, p0: number, p1: number): { right: number; wrong: number } {
  return {
    right: depth * Math.log(p1 / p0),
    wrong: Math.log(-Math.expm1(depth * Math.log(p1))) - Math.log(-Math.expm1(depth * Math.log(p0))),
  };
}

/** Λ: the log likelihood ratio of p₁ against p₀ on the counts (positive: the evidence favours a shortfall). */
export function retentionLogLikelihoodRatio(counts: readonly DepthCount[], p0: number, p1: number): number {
  let total = 0;
  for (const { depth, correct, n } of counts) {
    if (n === 0) continue;
    const { right, wrong } = perTrial(depth, p0, p1);
    total += correct * right + (n - correct) * wrong;
  }
  return total;
}

/** The boundaries in Λ: fail at or above `fail`, pass (early) at or below `pass`. */
export function boundaries(test: RetentionTest): { fail: number; pass: number } {
  const { alpha, beta = 0.2 } = test;
  return { fail: Math.log(1 / alpha), pass: Math.log(beta / (1 - alpha)) };
}

export interface TestCall {
  call: SequentialCall;
  /** Λ on the counts. */
  llr: number;
  /** The call was forced by the maximum (undecided there: passes, as the false-alarm bound requires). */
  atMaximum: boolean;
}

/**
 * The test's call on the counts so far. `final`: no more trials will come (a fixed grid, or the maximum) — an
 * undecided test then passes, and `atMaximum` says it was not decided. `early` (default true) allows the early
 * pass at Wald's lower boundary; a one-look grid test has none (it passes whenever it does not fail).
 */
export function retentionTestCall(
  counts: readonly DepthCount[],
  test: RetentionTest,
  final: boolean,
  early = true,
): TestCall {
  checkRetentionTest(test);
  const llr = retentionLogLikelihoodRatio(counts, test.threshold, test.threshold - test.margin);
  const b = boundaries(test);
  if (llr >= b.fail) return { call: 'fail', llr, atMaximum: false };
  if (early && llr <= b.pass) return { call: 'pass', llr, atMaximum: false };
  if (final) return { call: 'pass', llr, atMaximum: true };
  return { call: 'continue', llr, atMaximum: false };
}

/**
 * The power of the one-look test (fail iff Λ ≥ ln 1/α) on a grid of `trials` per depth when the true p_d is
 * `p`: the normal approximation to the sum of independent per-trial terms, P(Λ ≥ ln 1/α). About, never exact.
 */
export function fixedTestFailProbability(
  trials: ReadonlyArray<{ depth: number; n: number }>,
  test: RetentionTest,
  p: number,
): number {
  checkRetentionTest(test);
  const p0 = test.threshold;
  const p1 = p0 - test.margin;
  let mean = 0;
  let variance = 0;
  for (const { depth, n } of trials) {
    if (n === 0) continue;
    const q = p ** depth;
    const { right, wrong } = perTrial(depth, p0, p1);
    mean += n * (q * right + (1 - q) * wrong);
    variance += n * q * (1 - q) * (right - wrong) ** 2;
  }
  const critical = boundaries(test).fail;
  if (variance === 0) return mean >= critical ? 1 : 0;
  return normalCdf((mean - critical) / Math.sqrt(variance));
}

/** A sequential design: `batch` trials per depth per look, at most `maxPerCell` trials per depth. */
export interface SequentialDesign {
  depths: readonly number[];
  batch: number;
  maxPerCell: number;
}

export interface SequentialRun {
  call: 'pass' | 'fail';
  /** Trials asked in all (calls). */
  calls: number;
  looks: number;
  atMaximum: boolean;
}

/**
 * Runs the sequential test once on trials drawn from a model with true p_d `p` (each trial at depth N correct
 * with probability p^N): after each batch the test decides pass / fail / continue, at the latest at the maximum.
 */
export function simulateSequential(
  rng: PyRandom,
  p: number,
  design: SequentialDesign,
  test: RetentionTest,
): SequentialRun {
  const counts: DepthCount[] = design.depths.map((depth) => ({ depth, correct: 0, n: 0 }));
  let perCell = 0;
  let looks = 0;
  for (;;) {
    const size = Math.min(design.batch, design.maxPerCell - perCell);
    for (const c of counts) {
      c.correct += sampleBinomial(rng, size, p ** c.depth);
      c.n += size;
    }
    perCell += size;
    looks++;
    const { call, atMaximum } = retentionTestCall(counts, test, perCell >= design.maxPerCell);
    if (call !== 'continue') return { call, calls: perCell * design.depths.length, looks, atMaximum };
  }
}

export interface OperatingCharacteristics {
  /** Share of runs that failed the gate. */
  failRate: number;
  /** Its Monte-Carlo standard error. */
  standardError: number;
  meanCalls: number;
  maxCalls: number;
  /** Share of runs that reached the maximum undecided. */
  undecidedRate: number;
  runs: number;
}

/** The fail rate and calls of the sequential design at true p_d `p`, over `runs` seeded simulated runs. */
export function sequentialCharacteristics(
  rng: PyRandom,
  p: number,
  design: SequentialDesign,
  test: RetentionTest,
  runs: number,
): OperatingCharacteristics {
  let fails = 0;
  let calls = 0;
  let undecided = 0;
  for (let i = 0; i < runs; i++) {
    const run = simulateSequential(rng, p, design, test);
    if (run.call === 'fail') fails++;
    if (run.atMaximum) undecided++;
    calls += run.calls;
  }
  const failRate = fails / runs;
  return {
    failRate,
    standardError: Math.sqrt((failRate * (1 - failRate)) / runs),
    meanCalls: calls / runs,
    maxCalls: design.maxPerCell * design.depths.length,
    undecidedRate: undecided / runs,
    runs,
  };
}
