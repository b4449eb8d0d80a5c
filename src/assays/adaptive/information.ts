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
