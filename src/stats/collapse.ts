import { PyRandom } from '../rng/index.js';
import { sampleBinomial } from './binomial.js';
import { quantileInvertedCdf } from './quantile.js';

/** Accuracy at one complexity level of a puzzle sweep; `knob` is the scalar λ when the family has one. */
export interface LevelAccuracy {
  level: number;
  knob?: number;
  correct: number;
  n: number;
}

export interface CollapseThreshold {
  /** λ* on the level index: the upper level of the steepest step (earliest on ties); null when flat. */
  levelIndex: number | null;
  /** λ* on the raw knob (its own argmax, uneven spacing included); null without a scalar increasing knob. */
  knob: number | null;
  /** Signed slope ΔAcc/Δlevel of the steepest step. */
  steepestSlope: number | null;
  /** The steepest step is a rise (non-monotone curve): λ* still follows the formula, flagged. */
  increasing: boolean;
  /** Percentile interval of λ* (level index) over trial resamples; inverse-CDF quantiles, no interpolation. */
  ci95: [number, number] | null;
  /** Resamples in which the curve was flat, so λ* undefined (excluded from ci95). */
  undefinedResamples: number;
  /** Level where a binomial logistic fit of accuracy on the level index crosses 50%; null unless status 'ok'. */
  logistic50: number | null;
  logisticStatus: LogisticStatus;
}

/**
 * 'separated': every success sits at or below every failure (or the reverse), so the maximum-likelihood slope is
 * infinite; 'degenerate': all successes, all failures, or a single level.
 */
export type LogisticStatus = 'ok' | 'separated' | 'degenerate';

const TIE_TOLERANCE = 1e-12;

/** Index i* of the steepest step between consecutive points, earliest on (numerical) ties; −1 when flat. */
function steepestStep(xs: readonly number[], accuracies: readonly number[]): number {
  let best = -1;
  let bestMagnitude = 0;
  for (let i = 0; i + 1 < xs.length; i++) {
    const magnitude = Math.abs((accuracies[i + 1] - accuracies[i]) / (xs[i + 1] - xs[i]));
    if (magnitude > bestMagnitude * (1 + TIE_TOLERANCE) + TIE_TOLERANCE) {
      best = i;
      bestMagnitude = magnitude;
    }
  }
  return best;
}

function normalizeLevels(levels: readonly LevelAccuracy[]): LevelAccuracy[] {
  levels.forEach(({ level, knob, correct, n }, index) => {
    if (!Number.isFinite(level)) throw new RangeError(`levels[${index}]: level=${level} must be a finite number`);
    if (knob !== undefined && !Number.isFinite(knob))
      throw new RangeError(`levels[${index}]: knob=${knob} must be finite`);
    if (!Number.isInteger(n) || n < 0) throw new RangeError(`levels[${index}]: n=${n} must be a non-negative integer`);
    if (!Number.isInteger(correct) || correct < 0 || correct > n) {
      throw new RangeError(`levels[${index}]: correct=${correct} must be an integer between 0 and n=${n}`);
    }
  });
  const used = levels.filter((l) => l.n > 0).sort((a, b) => a.level - b.level);
  for (let i = 1; i < used.length; i++) {
    if (used[i].level === used[i - 1].level)
      throw new RangeError(`level ${used[i].level} appears twice; merge its trials`);
  }
  return used;
}

/** Fits logit Acc = β0 + β1·x by Newton–Raphson with step halving (the log-likelihood is concave). */
export function logisticFit(
  xs: readonly number[],
  correct: readonly number[],
  n: readonly number[],
): { status: LogisticStatus; intercept: number | null; slope: number | null } {
  const successes = xs.filter((_, i) => correct[i] > 0);
  const failures = xs.filter((_, i) => correct[i] < n[i]);
  if (successes.length === 0 || failures.length === 0 || new Set(xs).size < 2) {
    return { status: 'degenerate', intercept: null, slope: null };
  }
  if (Math.max(...successes) <= Math.min(...failures) || Math.max(...failures) <= Math.min(...successes)) {
    return { status: 'separated', intercept: null, slope: null };
  }
  const logLik = (b0: number, b1: number) =>
    xs.reduce((sum, x, i) => {
      const eta = b0 + b1 * x;
      // ln σ(η) = −softplus(−η), ln(1 − σ(η)) = −softplus(η)
      const softplus = (v: number) => (v > 0 ? v + Math.log1p(Math.exp(-v)) : Math.log1p(Math.exp(v)));
      return sum - correct[i] * softplus(-eta) - (n[i] - correct[i]) * softplus(eta);
    }, 0);
  const total = n.reduce((s, v) => s + v, 0);
  const pooled = correct.reduce((s, v) => s + v, 0) / total;
  let b0 = Math.log(pooled / (1 - pooled));
  let b1 = 0;
  let current = logLik(b0, b1);
  for (let iteration = 0; iteration < 200; iteration++) {
    let g0 = 0;
    let g1 = 0;
    let h00 = 0;
    let h01 = 0;
    let h11 = 0;
    xs.forEach((x, i) => {
      const p = 1 / (1 + Math.exp(-(b0 + b1 * x)));
      const residual = correct[i] - n[i] * p;
      const weight = n[i] * p * (1 - p);
      g0 += residual;
      g1 += residual * x;
      h00 += weight;
      h01 += weight * x;
      h11 += weight * x * x;
    });
    const det = h00 * h11 - h01 * h01;
    if (!(det > 0)) break;
    let s0 = (h11 * g0 - h01 * g1) / det;
    let s1 = (h00 * g1 - h01 * g0) / det;
    let next = logLik(b0 + s0, b1 + s1);
    for (let halvings = 0; halvings < 60 && !(next >= current); halvings++) {
      s0 /= 2;
      s1 /= 2;
      next = logLik(b0 + s0, b1 + s1);
    }
    b0 += s0;
    b1 += s1;
    current = next;
    if (Math.abs(s0) + Math.abs(s1) < 1e-12 * (1 + Math.abs(b0) + Math.abs(b1))) break;
  }
  return { status: 'ok', intercept: b0, slope: b1 };
}

/**
 * Collapse threshold λ* = argmax |ΔAcc/Δλ| (paper 001 §1.2; discrete rule of docs/spec/puzzles.md §1.3), on the level
 * index and on the raw knob, with a seeded bootstrap over trials (each level's correct count redrawn as
 * Binomial(n, observed accuracy), i.e. its trials resampled with replacement) and a logistic 50% point.
 * Levels with n = 0 are dropped.
 */
export function collapseThreshold(
  levels: LevelAccuracy[],
  opts: { seed: number; resamples?: number },
): CollapseThreshold {
  const data = normalizeLevels(levels);
  const resamples = opts.resamples ?? 2000;
  if (!Number.isInteger(resamples) || resamples < 1) throw new RangeError(`resamples=${resamples} must be ≥ 1`);
  const xs = data.map((l) => l.level);
  const accuracies = data.map((l) => l.correct / l.n);
  const step = steepestStep(xs, accuracies);
  const knobs = data.map((l) => l.knob);
  const knobUsable =
    knobs.every((k): k is number => k !== undefined) && knobs.every((k, i) => i === 0 || k > (knobs[i - 1] as number));
  const knobStep = knobUsable ? steepestStep(knobs as number[], accuracies) : -1;
  const logistic = logisticFit(
    xs,
    data.map((l) => l.correct),
    data.map((l) => l.n),
  );
  const logistic50 =
    logistic.status === 'ok' && logistic.slope !== 0
      ? -(logistic.intercept as number) / (logistic.slope as number)
      : null;
  const base = { undefinedResamples: 0, logistic50, logisticStatus: logistic.status };
  if (step < 0) {
    return { levelIndex: null, knob: null, steepestSlope: null, increasing: false, ci95: null, ...base };
  }
  const slope = (accuracies[step + 1] - accuracies[step]) / (xs[step + 1] - xs[step]);
  const rng = new PyRandom(opts.seed);
  const draws: number[] = [];
  let undefinedResamples = 0;
  const resampled = new Array<number>(data.length);
  for (let b = 0; b < resamples; b++) {
    for (let i = 0; i < data.length; i++) resampled[i] = sampleBinomial(rng, data[i].n, accuracies[i]) / data[i].n;
    const s = steepestStep(xs, resampled);
    if (s < 0) undefinedResamples++;
    else draws.push(xs[s + 1]);
  }
  return {
    levelIndex: xs[step + 1],
    knob: knobStep >= 0 ? (knobs[knobStep + 1] as number) : null,
    steepestSlope: slope,
    increasing: slope > 0,
    ci95: draws.length === 0 ? null : [quantileInvertedCdf(draws, 0.025), quantileInvertedCdf(draws, 0.975)],
    ...base,
    undefinedResamples,
  };
}
