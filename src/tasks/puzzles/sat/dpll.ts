/**
 * A plain DPLL solver (unit propagation + branching on the first unassigned variable), exact and
 * instant at the sizes used here (n ≤ 50). Returns a satisfying assignment (index v−1) or null.
 */
export function dpll(n: number, clauses: readonly (readonly number[])[]): boolean[] | null {
  const values: (boolean | undefined)[] = new Array(n).fill(undefined);
  const result = search(values, clauses);
  return result === null ? null : result.map((v) => v ?? false);
}

const literalValue = (lit: number, values: readonly (boolean | undefined)[]): boolean | undefined => {
  const v = values[Math.abs(lit) - 1];
  return v === undefined ? undefined : v === lit > 0;
};

function search(
  values: (boolean | undefined)[],
  clauses: readonly (readonly number[])[],
): (boolean | undefined)[] | null {
  const current = [...values];
  for (;;) {
    let unit: number | null = null;
    let allSatisfied = true;
    for (const clause of clauses) {
      let satisfied = false;
      let open = 0;
      let lastOpen = 0;
      for (const lit of clause) {
        const value = literalValue(lit, current);
        if (value === true) {
          satisfied = true;
          break;
        }
        if (value === undefined) {
          open++;
          lastOpen = lit;
        }
      }
      if (satisfied) continue;
      allSatisfied = false;
      if (open === 0) return null;
      if (open === 1 && unit === null) unit = lastOpen;
    }
    if (allSatisfied) return current;
    if (unit === null) break;
    current[Math.abs(unit) - 1] = unit > 0;
  }
  const branch = current.indexOf(undefined);
  for (const choice of [true, false]) {
    const next = [...current];
    next[branch] = choice;
    const solved = search(next, clauses);
    if (solved !== null) return solved;
  }
  return null;
}
