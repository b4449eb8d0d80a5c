/** Holm–Bonferroni adjusted p-values (family-wise error control), in the input order. */
export function holmAdjust(pValues: readonly number[]): number[] {
  const order = pValues.map((p, i) => [p, i] as const).sort((a, b) => a[0] - b[0]);
  const adjusted = new Array<number>(pValues.length);
  let running = 0;
  order.forEach(([p, index], rank) => {
    running = Math.max(running, Math.min(1, (pValues.length - rank) * p));
    adjusted[index] = running;
  });
  return adjusted;
}
