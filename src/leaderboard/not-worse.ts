import type { RetentionFit } from '../schema/fit.js';
import { DEFAULT_GATE_MARGIN } from '../schema/gate.js';
import type { NotWorseResult } from '../schema/leaderboard.js';
import { normalQuantile } from '../stats/index.js';
import { boundTestPower } from '../stats/rate-test.js';
import { type RetentionSide, retentionDraws } from './differences.js';
import { type LabelledSubject, type LeaderboardSubject, labelSubjects, levelsOf, sweepKey } from './input.js';
import { pairCounts } from './pairing.js';
import { settingsOf } from './settings.js';

/** A difference to four decimals with a true minus sign. */
const signed = (x: number): string => (x < 0 ? `−${(-x).toFixed(4)}` : x.toFixed(4));

export interface NotWorseOptions {
  /** The CCB project (record.project) whose p_d is compared. */
  project: string;
  /** Narrow to one sweep when the project holds several (task, variant). */
  task?: string;
  variant?: string;
  resamples?: number;
  seed?: number;
}

function retentionSide(subject: LabelledSubject, fit: RetentionFit): RetentionSide {
  const cells = subject.cells.filter(
    (c) => c.project === fit.project && c.task === fit.task && c.variant === fit.variant && c.profile === fit.profile,
  );
  return {
    label: subject.label,
    seed: subject.seed,
    fit,
    levels: cells.length > 0 ? levelsOf(cells, sweepKey(cells[0])) : [],
  };
}

/**
 * Non-inferiority of `candidate` against `baseline` on a CCB project, for a gate. With Δ = p_d(candidate) −
 * p_d(baseline) and U the one-sided (1 − α) upper confidence bound of Δ — Δ̂ + z₁₋α · se, se the standard deviation
 * of the B bootstrap differences, paired when the trials pair (instance pairs resampled within each depth), else the
 * parametric bootstrap of each fit (`notWorseDecision`) — the verdict is:
 * - 'fail' iff U < −margin: the data show, one-sided at level α, that the candidate is worse by more than margin;
 * - 'insufficient' when there is nothing to test: a fit absent, ambiguous or of status 'insufficient', or no
 *   instance pair both subjects count. It never passes;
 * - 'pass' otherwise (the burden of proof is on "worse": a wide interval that reaches above −margin passes, and
 *   `upper` says how far the data reach).
 * The bootstrap stream is the leaderboard's for the same pair and seed, so the gate and the board agree.
 *
 * As a test (docs/gates.md#notworsethan-as-a-test): a candidate exactly `margin` worse fails it about α of the time
 * (the bound's one-sided coverage; less for a better candidate), and `power` states how often it fails one a further
 * `shortfall` worse — Φ(shortfall/se − z₁₋α), se the standard deviation of the bootstrap draws.
 */
export function notWorseThan(
  candidate: LeaderboardSubject,
  baseline: LeaderboardSubject,
  margin: number,
  alpha = 0.05,
  options: NotWorseOptions,
): NotWorseResult {
  if (!(margin >= 0) || !Number.isFinite(margin)) throw new RangeError(`margin=${margin} must be a finite number ≥ 0`);
  const settings = settingsOf({ alpha, resamples: options.resamples, seed: options.seed });
  const [cand, base] = labelSubjects([candidate, baseline]);
  const result = (fields: Partial<NotWorseResult> & Pick<NotWorseResult, 'verdict' | 'message'>): NotWorseResult => ({
    project: options.project,
    task: null,
    candidate: cand.label,
    baseline: base.label,
    margin,
    alpha,
    method: null,
    pairing: null,
    difference: null,
    upper: null,
    ...fields,
  });
  const fitsOf = (s: LabelledSubject) =>
    s.fits.filter(
      (f) =>
        f.project === options.project &&
        (options.task === undefined || f.task === options.task) &&
        (options.variant === undefined || f.variant === options.variant),
    );
  const candFits = fitsOf(cand);
  if (candFits.length !== 1) {
    const which =
      candFits.length === 0
        ? 'has no retention fit'
        : `has ${candFits.length} retention fits (${candFits.map((f) => `${f.task} ${f.variant}`).join(', ')}); name the task and variant`;
    return result({ verdict: 'insufficient', message: `${cand.label} ${which} in project '${options.project}'` });
  }
  const cf = candFits[0];
  const bf = fitsOf(base).find((f) => f.task === cf.task && f.variant === cf.variant && f.profile === cf.profile);
  if (!bf) {
    return result({
      verdict: 'insufficient',
      task: cf.task,
      message: `${base.label} has no retention fit for ${cf.task} (${cf.variant}, ${cf.profile}) in project '${options.project}'`,
    });
  }
  const sides = [retentionSide(cand, cf), retentionSide(base, bf)];
  const candidateFirst = cand.label < base.label;
  const [first, second] = candidateFirst ? sides : [sides[1], sides[0]];
  const draws = retentionDraws(first, second, cf.missing, settings);
  const pairing: NotWorseResult['pairing'] = draws.pairing.paired
    ? { paired: true, ...pairCounts(draws.pairing.tables) }
    : { paired: false, reason: draws.pairing.reason };
  if ('insufficient' in draws) {
    return result({
      verdict: 'insufficient',
      task: cf.task,
      pairing,
      message: `not decided: ${draws.insufficient}`,
    });
  }
  const sign = candidateFirst ? 1 : -1;
  const difference = sign * draws.difference;
  const { upper, fail, shortfall, power } = notWorseDecision(
    difference,
    draws.draws.map((d) => sign * d),
    margin,
    alpha,
  );
  const stated = `alpha ${alpha}, power ${power.toFixed(3)} at Δp_d = −${Number((margin + shortfall).toPrecision(6))}${power < 0.8 ? ' (under 0.8: a candidate that much worse may pass; more trials raise it)' : ''}`;
  const level = Number((100 * (1 - alpha)).toPrecision(6));
  const how = pairing.paired ? draws.method : `${draws.method}, unpaired: ${pairing.reason}`;
  return result({
    verdict: fail ? 'fail' : 'pass',
    task: cf.task,
    method: draws.method,
    pairing,
    difference,
    upper,
    power,
    shortfall,
    message: fail
      ? `${cand.label} is worse than ${base.label} on ${cf.task}: Δp_d = ${signed(difference)}, one-sided ${level}% upper bound ${signed(upper)} < −${margin} (${how}) — ${stated}`
      : `${cand.label} is not shown worse than ${base.label} by more than ${margin} on ${cf.task}: Δp_d = ${signed(difference)}, one-sided ${level}% upper bound ${signed(upper)} ≥ −${margin} (${how}) — ${stated}`,
  });
}

/** Where a notWorseThan gate states its power: one more margin worse (the default margin when the margin is 0). */
export const notWorseShortfall = (margin: number): number => (margin > 0 ? margin : DEFAULT_GATE_MARGIN);

/**
 * The decision on the estimate Δ̂ = candidate − baseline and its bootstrap draws: U = Δ̂ + z₁₋α · se (se the draws'
 * standard deviation), fail iff U < −margin, and the power one shortfall further, Φ(shortfall/se − z₁₋α) — the same
 * normal approximation, so the power stated is the test's own.
 *
 * Not the draws' (1 − α) percentile: at the grid's size (40 trials per depth a side) the percentile bound failed a
 * candidate exactly `margin` worse 0.062 ± 0.008 of the time at α = 0.05 (paired; 0.052 unpaired; BENCHMARKS.md,
 * "notWorseThan"): the bootstrap distribution of Δ̂ is skewed towards "worse", and its upper percentile sits low. The
 * bound on the bootstrap standard error holds α there (0.046 ± 0.007), at a few points of power (0.41 against 0.46
 * one margin further), and its power is the one the line states (0.42) rather than an under-statement of it.
 */
export function notWorseDecision(
  difference: number,
  draws: readonly number[],
  margin: number,
  alpha: number,
): { upper: number; fail: boolean; shortfall: number; power: number } {
  const se = standardDeviation(draws);
  const upper = difference + normalQuantile(1 - alpha) * se;
  const shortfall = notWorseShortfall(margin);
  return { upper, fail: upper < -margin, shortfall, power: boundTestPower(se, shortfall, alpha) };
}

function standardDeviation(values: readonly number[]): number {
  if (values.length < 2) return 0;
  const mean = values.reduce((s, v) => s + v, 0) / values.length;
  return Math.sqrt(values.reduce((s, v) => s + (v - mean) ** 2, 0) / (values.length - 1));
}
