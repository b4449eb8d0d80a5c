import { type DepthCount, normalizeCounts, totalTrials } from './depth-counts.js';
import { binomialConstant, maximizeConcaveRetention, packCounts } from './retention.js';

/** Information criteria from a maximised log-likelihood with k free parameters over nTrials Bernoulli trials. */
export function informationCriteria(logLik: number, parameters: number, nTrials: number) {
  return { aic: 2 * parameters - 2 * logLik, bic: parameters * Math.log(Math.max(nTrials, 1)) - 2 * logLik };
}

/** Accelerating decay P(correct | N) = p^(N^γ) (paper 000 §3 "Alternative decay models"). γ = 1 is geometric. */
export interface AcceleratingFit {
  model: 'accelerating';
  p: number;
  gamma: number;
  /** γ ended on an end of GAMMA_RANGE: the supremum may lie beyond it (e.g. a step-like collapse). */
  gammaAtBound: boolean;
  logLik: number;
  parameters: 2;
  aic: number;
  bic: number;
}

/** Linear decay P(correct | N) = max(0, 1 − λN). */
export interface LinearFit {
  model: 'linear';
  lambda: number;
  logLik: number;
  parameters: 1;
  aic: number;
  bic: number;
}

/** Search range for γ and lower bound for p in the accelerating model (documented, not estimated). */
export const GAMMA_RANGE: readonly [number, number] = [0.05, 5];
const ACCELERATING_X_LOWER = -50; // p ≥ e^−50: far below any per-step retention worth reporting

const INV_PHI = (Math.sqrt(5) - 1) / 2;

/** Golden-section maximisation of a unimodal function on [a, b] to an absolute width `tolerance`. */
function goldenSectionMax(f: (v: number) => number, a: number, b: number, tolerance: number): number {
  let c = b - INV_PHI * (b - a);
  let d = a + INV_PHI * (b - a);
  let fc = f(c);
  let fd = f(d);
  while (b - a > tolerance) {
    if (fc >= fd) {
      b = d;
      d = c;
      fd = fc;
      c = b - INV_PHI * (b - a);
      fc = f(c);
    } else {
      a = c;
      c = d;
      fc = fd;
      d = a + INV_PHI * (b - a);
      fd = f(d);
    }
  }
  return (a + b) / 2;
}

function kernelAt(counts: readonly DepthCount[], probability: (depth: number) => number): number {
  let total = 0;
  for (const { depth, correct, n } of counts) {
    const p = probability(depth);
    if (correct > 0) total += correct * Math.log(p);
    if (n > correct) total += (n - correct) * Math.log1p(-p);
  }
  return total;
}

/**
 * MLE of the accelerating model. With η = ln(−ln p) + γ ln N the log-likelihood is jointly concave in
 * (ln(−ln p), γ), so the profile over p is concave in γ: golden section on γ ∈ GAMMA_RANGE, and for each γ
 * the exact inner maximiser over p (the geometric solver with exponents N^γ).
 */
export function fitAccelerating(counts: DepthCount[]): AcceleratingFit {
  const data = normalizeCounts(counts);
  const constant = binomialConstant(data);
  const innerX = (gamma: number) => {
    const packed = packCounts(data, (depth) => depth ** gamma);
    return maximizeConcaveRetention(packed.exponents, packed.correct, packed.failed, ACCELERATING_X_LOWER);
  };
  const profile = (gamma: number) => {
    const x = innerX(gamma);
    return kernelAt(data, (depth) => (x === 0 ? 1 : Math.exp(x * depth ** gamma)));
  };
  const [gLow, gHigh] = GAMMA_RANGE;
  let gamma = 1;
  let gammaAtBound = false;
  if (data.length > 0) {
    gamma = goldenSectionMax(profile, gLow, gHigh, 1e-9);
    // A supremum approached as γ → bound (e.g. accuracy 0 beyond the first depth) leaves golden section on a
    // numerically flat plateau short of the bound: prefer the bound itself whenever it is at least as good.
    for (const bound of [gLow, gHigh]) {
      if (profile(bound) >= profile(gamma)) {
        gamma = bound;
        gammaAtBound = true;
      }
    }
  }
  const x = data.length === 0 ? 0 : innerX(gamma);
  const logLik = data.length === 0 ? 0 : profile(gamma) + constant;
  return {
    model: 'accelerating',
    p: Math.exp(x),
    gamma,
    gammaAtBound,
    logLik,
    parameters: 2,
    ...informationCriteria(logLik, 2, totalTrials(data)),
  };
}

/**
 * MLE of the linear model, λ ∈ [0, 1/N⁺] where N⁺ is the deepest depth with a correct answer (beyond it the
 * likelihood is zero). The log-likelihood Σ c ln(1 − λN) + (n − c) ln min(1, λN) is concave in λ, so golden
 * section finds the maximiser. All correct → λ = 0; nothing correct → λ = 1/N_min (every λ above is tied).
 */
export function fitLinear(counts: DepthCount[]): LinearFit {
  const data = normalizeCounts(counts);
  const constant = binomialConstant(data);
  const finish = (lambda: number): LinearFit => {
    const logLik = kernelAt(data, (depth) => Math.max(0, 1 - lambda * depth)) + constant;
    return { model: 'linear', lambda, logLik, parameters: 1, ...informationCriteria(logLik, 1, totalTrials(data)) };
  };
  if (data.length === 0) return finish(0);
  if (data.every((c) => c.correct === c.n)) return finish(0);
  const deepestCorrect = Math.max(0, ...data.filter((c) => c.correct > 0).map((c) => c.depth));
  if (deepestCorrect === 0) return finish(1 / data[0].depth);
  const upper = 1 / deepestCorrect;
  const objective = (lambda: number) => kernelAt(data, (depth) => Math.max(0, 1 - lambda * depth));
  return finish(goldenSectionMax(objective, 0, upper, upper * 1e-12));
}
