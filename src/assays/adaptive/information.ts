/**
 * Fisher information about p carried by one Bernoulli trial at depth N under P(correct | N) = p^N:
 * I_N(p) = (dq/dp)² / (q(1 − q)) with q = p^N, i.e. N² p^(N−2) / (1 − p^N). Pure; no I/O.
 */
export function trialInformation(p: number, depth: number): number {
  if (!(p > 0 && p < 1)) throw new RangeError(`trialInformation: p=${p} must lie strictly between 0 and 1`);
  if (!(Number.isInteger(depth) && depth >= 1)) throw new RangeError(`trialInformation: depth=${depth} must be ≥ 1`);
  // 1 − p^N as −expm1(N ln p) keeps precision for p near 1.
  return (depth * depth * Math.exp((depth - 2) * Math.log(p))) / -Math.expm1(depth * Math.log(p));
}

/**
 * The depth in [minDepth, maxDepth] whose trial carries the most information about p (ties: the shallower,
 * cheaper depth). p ≥ 1 (every trial correct so far) has no interior optimum: the deepest depth is the one
 * that can first show a failure. p ≤ 0 is treated as the shallowest depth.
 */
export function mostInformativeDepth(p: number, maxDepth: number, minDepth = 1): number {
  if (!(Number.isInteger(minDepth) && Number.isInteger(maxDepth) && minDepth >= 1 && maxDepth >= minDepth)) {
    throw new RangeError(`mostInformativeDepth: need integers 1 ≤ minDepth=${minDepth} ≤ maxDepth=${maxDepth}`);
  }
  if (p >= 1) return maxDepth;
  if (p <= 0) return minDepth;
  let best = minDepth;
  let bestInformation = trialInformation(p, minDepth);
  for (let depth = minDepth + 1; depth <= maxDepth; depth++) {
    const information = trialInformation(p, depth);
    if (information > bestInformation) {
      best = depth;
      bestInformation = information;
    }
  }
  return best;
}

/** Total information of a design (trials per depth) at p. */
export function designInformation(p: number, design: readonly { depth: number; n: number }[]): number {
  return design.reduce((sum, { depth, n }) => sum + n * trialInformation(p, depth), 0);
}

/**
 * The asymptotic lower bound on calls, as a fraction of `design`'s calls, for any design restricted to depths
 * [minDepth, maxDepth] to match `design`'s information at the true p: (information per call of `design`) /
 * (information of one call at the most informative depth). A CI width scales as 1/√information, so no
 * allocation rule can reach the same width with fewer calls (asymptotically).
 */
export function callsFractionBound(
  p: number,
  design: readonly { depth: number; n: number }[],
  maxDepth: number,
  minDepth = 1,
): number {
  const calls = design.reduce((sum, { n }) => sum + n, 0);
  const best = trialInformation(p, mostInformativeDepth(p, maxDepth, minDepth));
  return designInformation(p, design) / calls / best;
}

/**
 * The 95% interval width a design reaches at p, asymptotically: 2·1.96 / √(information). Used as a stopping
 * target that needs no width chosen in advance: "as narrow as the grid would be at the current p̂".
 * Infinity when p is not strictly inside (0, 1) (no finite information there).
 */
export function asymptoticWidth(p: number, design: readonly { depth: number; n: number }[]): number {
  if (!(p > 0 && p < 1)) return Number.POSITIVE_INFINITY;
  return (2 * 1.959963984540054) / Math.sqrt(designInformation(p, design));
}

/**
 * The priced cost of one trial at a depth, in any unit (USD, tokens): finite and > 0 at every depth the design
 * may use. Pure and deterministic; the design tabulates it once per depth.
 */
export type TrialCost = (depth: number) => number;

/** A discrete belief about p: points strictly inside (0, 1), each with a weight ≥ 0 (not all 0). */
export type PBelief = readonly { p: number; weight: number }[];

/**
 * The depth in [minDepth, maxDepth] with the most expected information about p per unit of cost,
 * Σ weight·I_N(p) / cost(N) over the belief (ties: the shallower depth). At a one-point belief with a constant
 * cost this is mostInformativeDepth at that point. With any cost that does not fall as N grows it is never
 * deeper than the same choice at a constant cost: a deeper depth has no more expected information and costs
 * at least as much.
 */
export function mostInformativeDepthPerCost(belief: PBelief, cost: TrialCost, maxDepth: number, minDepth = 1): number {
  if (!(Number.isInteger(minDepth) && Number.isInteger(maxDepth) && minDepth >= 1 && maxDepth >= minDepth)) {
    throw new RangeError(`mostInformativeDepthPerCost: need integers 1 ≤ minDepth=${minDepth} ≤ maxDepth=${maxDepth}`);
  }
  const bad = belief.find(({ p, weight }) => !(p > 0 && p < 1 && weight >= 0 && Number.isFinite(weight)));
  if (bad !== undefined || !belief.some(({ weight }) => weight > 0)) {
    throw new RangeError(
      'mostInformativeDepthPerCost: the belief needs points 0 < p < 1 with finite weights ≥ 0, not all 0',
    );
  }
  let best = minDepth;
  let bestValue = Number.NEGATIVE_INFINITY;
  for (let depth = minDepth; depth <= maxDepth; depth++) {
    const c = cost(depth);
    if (!(Number.isFinite(c) && c > 0)) {
      throw new RangeError(`mostInformativeDepthPerCost: cost(${depth})=${c} must be finite and > 0`);
    }
    let information = 0;
    for (const { p, weight } of belief) if (weight > 0) information += weight * trialInformation(p, depth);
    const value = information / c;
    if (value > bestValue) {
      best = depth;
      bestValue = value;
    }
  }
  return best;
}

/** Total cost of a design (trials per depth). */
export function designCost(design: readonly { depth: number; n: number }[], cost: TrialCost): number {
  return design.reduce((sum, { depth, n }) => sum + n * cost(depth), 0);
}

/**
 * The asymptotic lower bound on cost, as a fraction of `design`'s cost, for any design restricted to depths
 * [minDepth, maxDepth] to match `design`'s information at the true p (p known): design information /
 * (information per unit cost at the best depth) / design cost. callsFractionBound is the constant-cost case.
 */
export function costFractionBound(
  p: number,
  design: readonly { depth: number; n: number }[],
  cost: TrialCost,
  maxDepth: number,
  minDepth = 1,
): number {
  const best = mostInformativeDepthPerCost([{ p, weight: 1 }], cost, maxDepth, minDepth);
  return designInformation(p, design) / (trialInformation(p, best) / cost(best)) / designCost(design, cost);
}
