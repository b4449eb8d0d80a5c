import type { CollapseFit, RetentionFit } from '../schema/fit.js';
import { type SccStop, sccStopText } from '../schema/scc-stop.js';
import { type RateTest, rateLogLikelihoodRatio, rateTestFailProbability } from '../stats/rate-test.js';
import { boundaries, type DesignPower, fixedTestFailProbability, retentionTestCall } from '../stats/sequential.js';

export type { DesignPower };

/**
 * Pure threshold checks shared by the matchers and the CI gates; every message prints the estimate
 * with its 95% CI so that a red build says how far off it was.
 */
export interface CheckResult {
  pass: boolean;
  estimate: number | null;
  ci95: [number, number] | null;
  message: string;
}

/** What a gate line on the point estimate or the CI bound says of its error rates: none are stated. */
export const NO_ERROR_CONTROL = ' (no error control)';

const f3 = (x: number): string => (Number.isFinite(x) ? x.toFixed(3) : String(x));
const ci = (c: [number, number] | null): string => (c ? ` [${f3(c[0])}, ${f3(c[1])}] (95% CI)` : '');

function insufficient(label: string, reason?: string): CheckResult {
  return {
    pass: false,
    estimate: null,
    ci95: null,
    message: `${label}: insufficient data (${reason ?? 'too many trials missing or set aside'}) — a gate never passes on missing or set-aside data`,
  };
}

export function checkRetentionAtLeast(
  fit: RetentionFit,
  threshold: number,
  evidence: 'point' | 'lower' = 'point',
): CheckResult {
  const label = `${fit.task} p_d`;
  if (fit.status === 'insufficient') return insufficient(label, fit.insufficientReason);
  const value = evidence === 'lower' ? fit.ci95[0] : fit.pd;
  const pass = value >= threshold;
  const what = evidence === 'lower' ? 'CI lower bound' : 'point estimate';
  return {
    pass,
    estimate: fit.pd,
    ci95: fit.ci95,
    message: `${label} = ${f3(fit.pd)}${ci(fit.ci95)}: ${what} ${f3(value)} is ${pass ? 'at least' : 'below'} ${threshold}${NO_ERROR_CONTROL}`,
  };
}

/** A check with stated errors: its false-alarm rate, the margin, and the power the trials achieved there. */
export interface TestedCheck extends CheckResult {
  alpha: number;
  margin: number;
  power: number | null;
}

/**
 * minRetention as a test with stated errors (src/stats/sequential.ts, docs/gates.md#error-controlled-gates): fails
 * iff the likelihood ratio of p_d = threshold − margin against p_d = threshold reaches 1/alpha on the fit's trials,
 * so a model at or above the threshold fails at most alpha of the time; the power is the chance these trials had
 * of failing a model one margin short.
 */
export function checkRetentionTest(
  fit: RetentionFit,
  threshold: number,
  alpha: number,
  margin: number,
  designPower?: DesignPower,
): TestedCheck {
  const label = `${fit.task} p_d`;
  if (fit.status === 'insufficient')
    return { ...insufficient(label, fit.insufficientReason), alpha, margin, power: null };
  const test = { threshold, margin, alpha };
  const { call, llr } = retentionTestCall(fit.counts, test, true, false);
  // a sequential run's power is its design's (the chance the whole procedure fails a model one margin short)
  const power = designPower?.value ?? fixedTestFailProbability(fit.counts, test, threshold - margin);
  const powerOf = designPower ? ` (${designPower.of})` : '';
  const pass = call === 'pass';
  const decision = pass
    ? `no evidence of a shortfall (Λ ${f3(llr)} < ${f3(boundaries(test).fail)})`
    : `a shortfall (Λ ${f3(llr)} ≥ ${f3(boundaries(test).fail)})`;
  return {
    pass,
    estimate: fit.pd,
    ci95: fit.ci95,
    alpha,
    margin,
    power,
    message: `${label} = ${f3(fit.pd)}${ci(fit.ci95)}: likelihood-ratio test of ${threshold} against ${f3(threshold - margin)} finds ${decision} — alpha ${alpha}, power ${f3(power)}${powerOf} at margin ${margin}${power < 0.8 ? ' (under 0.8: a shortfall of the margin may pass; more trials raise it)' : ''}`,
  };
}

/**
 * minHorizon as the same test: H_0.5 = ln 0.5 / ln p_d, so "H_0.5 at least `steps`" is "p_d at least 0.5^(1/steps)",
 * tested with the margin in p_d. The estimate and interval stay the horizon's, as the point gate prints them.
 */
export function checkHorizonTest(fit: RetentionFit, steps: number, alpha: number, margin: number): TestedCheck {
  const p0 = 0.5 ** (1 / steps);
  const tested = checkRetentionTest(fit, p0, alpha, margin);
  const h = fit.horizon['0.5'];
  return {
    ...tested,
    estimate: h?.value ?? null,
    ci95: h && h.ci95[0] !== null && h.ci95[1] !== null ? [h.ci95[0], h.ci95[1]] : null,
    message: `${fit.task} H_0.5 at least ${steps} is p_d at least ${f3(p0)}: ${tested.message}`,
  };
}

export function checkHorizonAtLeast(fit: RetentionFit, steps: number, success = 0.5): CheckResult {
  const label = `${fit.task} H_${success}`;
  if (fit.status === 'insufficient') return insufficient(label, fit.insufficientReason);
  const h = fit.horizon[String(success)];
  if (!h) {
    return {
      pass: false,
      estimate: null,
      ci95: null,
      message: `${label}: not computed (available: ${Object.keys(fit.horizon).join(', ')})`,
    };
  }
  const value = h.value ?? Number.POSITIVE_INFINITY;
  const pass = value >= steps;
  const lower = h.ci95[0] ?? Number.POSITIVE_INFINITY;
  const upper = h.ci95[1] ?? Number.POSITIVE_INFINITY;
  return {
    pass,
    estimate: h.value,
    ci95: h.ci95[0] === null || h.ci95[1] === null ? null : [lower, upper],
    message: `${label} = ${f3(value)} steps [${f3(lower)}, ${f3(upper)}] (95% CI) is ${pass ? 'at least' : 'below'} ${steps}${NO_ERROR_CONTROL}`,
  };
}

export function checkTfbcRateAtMost(fit: RetentionFit, maxRate: number): CheckResult {
  const label = `${fit.task} TFBC rate`;
  if (fit.status === 'insufficient') return insufficient(label);
  if (fit.tfbcRate === null) {
    return {
      pass: true,
      estimate: null,
      ci95: null,
      message: `${label}: undefined (no correct answers), so nothing exceeds ${maxRate}`,
    };
  }
  const pass = fit.tfbcRate <= maxRate;
  return {
    pass,
    estimate: fit.tfbcRate,
    ci95: null,
    message: `${label} = ${f3(fit.tfbcRate)} (${fit.tfbc}/${fit.correct} correct answers with a divergent trace) is ${pass ? 'at most' : 'above'} ${maxRate}${NO_ERROR_CONTROL}`,
  };
}

/**
 * maxTfbcRate as a test with stated errors (src/stats/rate-test.ts, docs/gates.md#error-controlled-gates): each
 * correct answer has a divergent trace with probability r; fails iff the likelihood ratio of r = threshold + margin
 * against r = threshold reaches 1/alpha on the fit's counts, so a model at or under the threshold fails at most
 * alpha of the time (with any number of looks); the power is the exact chance these correct answers had of failing a
 * model one margin over.
 */
export function checkTfbcRateTest(fit: RetentionFit, maxRate: number, alpha: number, margin: number): TestedCheck {
  const label = `${fit.task} TFBC rate`;
  if (fit.status === 'insufficient') return { ...insufficient(label), alpha, margin, power: null };
  const test: RateTest = { threshold: maxRate, margin, alpha };
  const llr = rateLogLikelihoodRatio(fit.tfbc, fit.correct, test);
  const critical = Math.log(1 / alpha);
  const pass = llr < critical;
  const power = rateTestFailProbability(fit.correct, test, maxRate + margin);
  const rate = fit.tfbcRate === null ? 'undefined (no correct answers)' : f3(fit.tfbcRate);
  const decision = pass
    ? `no evidence of an excess (Λ ${f3(llr)} < ${f3(critical)})`
    : `an excess (Λ ${f3(llr)} ≥ ${f3(critical)})`;
  return {
    pass,
    estimate: fit.tfbcRate,
    ci95: null,
    alpha,
    margin,
    power,
    message: `${label} = ${rate} (${fit.tfbc}/${fit.correct} correct answers with a divergent trace): likelihood-ratio test of ${maxRate} against ${f3(maxRate + margin)} finds ${decision} — alpha ${alpha}, power ${f3(power)} at margin ${margin}${power < 0.8 ? ' (under 0.8: an excess of the margin may pass; more correct answers raise it)' : ''}`,
  };
}

export function checkCollapseNoEarlierThan(fit: CollapseFit, level: number): CheckResult {
  const label = `${fit.task} λ*`;
  if (fit.status === 'insufficient') return insufficient(label);
  const t = fit.collapseThreshold;
  if (t.levelIndex === null) {
    const accuracies = fit.levels.map((l) => l.accuracy ?? 0);
    const holds = accuracies.every((a) => a >= 0.5);
    return {
      pass: holds,
      estimate: null,
      ci95: null,
      message: `${label} undefined (flat accuracy curve, ${holds ? 'no collapse in range' : 'failing at every level'}): ${holds ? 'passes' : 'fails'} "no earlier than L${level}"${NO_ERROR_CONTROL}`,
    };
  }
  const pass = t.levelIndex >= level;
  return {
    pass,
    estimate: t.levelIndex,
    ci95: t.ci95,
    message: `${label} = L${t.levelIndex}${ci(t.ci95)} is ${pass ? 'not earlier than' : 'earlier than'} L${level}${NO_ERROR_CONTROL}`,
  };
}

export interface CountingCapacity {
  cc: number;
  ccLower: number;
  /** null when the ladder never failed a tier (unbounded above). */
  ccUpper: number | null;
  bounded: boolean;
  skipped?: boolean;
  /** The spend ledger stopped the ladder: no CC was measured (cc is a lower bound only). */
  stopped?: Pick<SccStop, 'reason' | 'tiers'>;
}

export function checkCountingCapacityAtLeast(result: CountingCapacity, n: number): CheckResult {
  // missing data: the gate is not evaluated, which fails it as every unevaluated hard gate does
  if (result.stopped)
    return {
      pass: false,
      estimate: null,
      ci95: null,
      message: `not evaluated — counting capacity ${sccStopText(result.stopped)}; a gate never passes on data it did not check`,
    };
  const pass = !result.skipped && result.cc >= n;
  return {
    pass,
    estimate: result.cc,
    ci95: null,
    message: result.skipped
      ? `counting capacity: skipped (the preflight produced no parseable integer), below ${n}`
      : `counting capacity = ${result.cc} (ladder bounds ${result.ccLower}–${result.ccUpper ?? '∞'}${result.bounded ? '' : ', unbounded above'}) is ${pass ? 'at least' : 'below'} ${n}${NO_ERROR_CONTROL}`,
  };
}
