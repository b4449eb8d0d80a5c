import { normalQuantile } from './special.js';

/**
 * How many trials decide a gate: the normal-approximation sample size of a one-parameter test, the formula
 * docs/gates.md#sample-size states. To tell a true value θ₁ = θ₀ ± δ from the gate's threshold θ₀ with a two-sided
 * test of level α (95% confidence: z = 1.960) and power 1 − β (80%: z = 0.842), n independent units of Fisher
 * information I₁(θ) each need
 *
 *     n = ((z_{1−α/2} + z_{1−β}) / δ)² / I₁(θ₀)
 *
 * For p_d (the geometric model P(correct | N) = p^N) a unit is one trial in every cell of the grid's depths, and
 * one trial at depth N carries I_N(p) = N² p^(N−2) / (1 − p^N), so I₁(p) = Σ_N N² p^(N−2) / (1 − p^N) and n is
 * trials per cell. For a rate (TFBC among correct answers, a puzzle level's accuracy) the binomial form with the
 * variance at each hypothesis is used: n = ((z_{1−α/2} √(θ₀(1−θ₀)) + z_{1−β} √(θ₁(1−θ₁))) / δ)².
 * These are large-sample approximations (the gates' intervals are bootstrap ones): "about n", never a guarantee.
 */

/** The accuracy step between adjacent puzzle levels a collapse gate is planned for (λ* sits at the steepest step). */
export const COLLAPSE_STEP = 0.1;

export interface Power {
  /** Two-sided confidence level (default 0.95). */
  confidence?: number;
  /** Power against a true value δ away (default 0.8). */
  power?: number;
}

function zSum({ confidence = 0.95, power = 0.8 }: Power): number {
  return normalQuantile(1 - (1 - confidence) / 2) + normalQuantile(power);
}

/** Fisher information about p of one trial at each of `depths` under P(correct | N) = p^N. */
export function retentionInformation(p: number, depths: readonly number[]): number {
  let total = 0;
  for (const n of depths) {
    // at p = 1 every trial is right: one trial decides, the information is unbounded
    if (!(p ** n < 1)) return Number.POSITIVE_INFINITY;
    total += (n * n * p ** (n - 2)) / -Math.expm1(n * Math.log(p));
  }
  return total;
}

/**
 * Trials per cell of a grid at `depths` that tell p_d = p0 from p0 ± delta (rounded up); null when it cannot be
 * said (no depth, p0 outside (0, 1), delta not positive).
 */
export function retentionTrialsPerCell(
  p0: number,
  delta: number,
  depths: readonly number[],
  power: Power = {},
): number | null {
  if (depths.length === 0 || !(p0 > 0 && p0 < 1) || !(delta > 0)) return null;
  const information = retentionInformation(p0, depths);
  if (!(information > 0 && Number.isFinite(information))) return null;
  return Math.max(1, Math.ceil((zSum(power) / delta) ** 2 / information));
}

/**
 * Binomial trials that tell a rate p0 from p0 ± delta, planned for the alternative of the larger variance (the one
 * nearer 1/2) that lies in [0, 1]; null when it cannot be said.
 */
export function rateTrials(p0: number, delta: number, power: Power = {}): number | null {
  if (!(p0 >= 0 && p0 <= 1) || !(delta > 0)) return null;
  const up = p0 + delta <= 1;
  const down = p0 - delta >= 0;
  if (!up && !down) return null;
  // the alternative with the larger variance (closer to 1/2) needs more trials: plan for it
  const p1 = up && (!down || Math.abs(p0 + delta - 0.5) < Math.abs(p0 - delta - 0.5)) ? p0 + delta : p0 - delta;
  const { confidence = 0.95, power: pw = 0.8 } = power;
  const za = normalQuantile(1 - (1 - confidence) / 2);
  const zb = normalQuantile(pw);
  const n = ((za * Math.sqrt(p0 * (1 - p0)) + zb * Math.sqrt(p1 * (1 - p1))) / delta) ** 2;
  return Math.max(1, Math.ceil(n));
}

/**
 * Trials per group that tell two rates `delta` apart around `mean` (default 1/2, where it takes the most): the
 * two-sample binomial formula n = ((z_{1−α/2} √(2 p̄ q̄) + z_{1−β} √(p₁q₁ + p₂q₂)) / δ)², p₁,₂ = p̄ ± δ/2. For a
 * puzzle's collapse: the trials per level that see an accuracy step of δ between adjacent levels.
 */
export function twoRateTrials(delta: number, mean = 0.5, power: Power = {}): number | null {
  const p1 = mean + delta / 2;
  const p2 = mean - delta / 2;
  if (!(delta > 0) || p1 > 1 || p2 < 0) return null;
  const { confidence = 0.95, power: pw = 0.8 } = power;
  const za = normalQuantile(1 - (1 - confidence) / 2);
  const zb = normalQuantile(pw);
  const n = ((za * Math.sqrt(2 * mean * (1 - mean)) + zb * Math.sqrt(p1 * (1 - p1) + p2 * (1 - p2))) / delta) ** 2;
  return Math.max(1, Math.ceil(n));
}
