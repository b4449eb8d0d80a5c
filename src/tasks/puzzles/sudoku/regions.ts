import type { PyRandom } from '../../../rng/index.js';

/** Region ids (row-major) of an N×N grid tiled by boxes of boxRows × boxCols (boxRows · boxCols = N). */
export function boxRegions(n: number, boxRows: number, boxCols: number): number[] {
  if (boxRows * boxCols !== n) throw new RangeError(`sudoku: ${boxRows}×${boxCols} boxes do not tile ${n}×${n}`);
  const boxesPerRow = n / boxCols;
  return Array.from({ length: n * n }, (_, i) => {
    const r = Math.floor(i / n);
    const c = i % n;
    return Math.floor(r / boxRows) * boxesPerRow + Math.floor(c / boxCols);
  });
}

const neighbours = (i: number, n: number): number[] => {
  const r = Math.floor(i / n);
  const c = i % n;
  const out: number[] = [];
  if (r > 0) out.push(i - n);
  if (r < n - 1) out.push(i + n);
  if (c > 0) out.push(i - 1);
  if (c < n - 1) out.push(i + 1);
  return out;
};

/** True when the cells of region `id` form one 4-connected piece. */
export function regionConnected(regions: readonly number[], n: number, id: number): boolean {
  const members = regions.flatMap((g, i) => (g === id ? [i] : []));
  if (members.length === 0) return false;
  const seen = new Set([members[0]]);
  const stack = [members[0]];
  while (stack.length > 0) {
    const cell = stack.pop() as number;
    for (const next of neighbours(cell, n)) {
      if (regions[next] === id && !seen.has(next)) {
        seen.add(next);
        stack.push(next);
      }
    }
  }
  return seen.size === members.length;
}

/**
 * Steps 1–2 of the validator (docs/spec/puzzles.md §9) on an explicit region map: exactly N regions (ids 0…N−1), N cells each.
 * Connectivity is not a Sudoku rule and is not required here; the jigsaw generator guarantees it.
 */
export function regionIssues(regions: readonly number[], n: number): string[] {
  if (regions.length !== n * n) return [`the region map has ${regions.length} cells, not ${n * n}`];
  const sizes = new Map<number, number>();
  for (const id of regions) sizes.set(id, (sizes.get(id) ?? 0) + 1);
  const issues: string[] = [];
  if (sizes.size !== n) issues.push(`the region map has ${sizes.size} regions, not ${n}`);
  for (const [id, size] of [...sizes].sort((a, b) => a[0] - b[0])) {
    if (!Number.isInteger(id) || id < 0 || id >= n) issues.push(`region id ${id} is outside 0–${n - 1}`);
    if (size !== n) issues.push(`region ${regionLabel(id)} has ${size} cells, not ${n}`);
  }
  return issues;
}

export const regionLabel = (id: number): string => String.fromCharCode(65 + id);

/**
 * Jigsaw regions by random boundary swaps from the box layout: pick a cell a of region A next to region
 * B and a cell b of B next to A, exchange their regions, and keep the swap only if A and B stay connected.
 * Sizes never change, so the result is always N connected regions of N cells. Returns the swaps kept.
 */
export function jigsawRegions(
  rng: PyRandom,
  n: number,
  boxRows: number,
  boxCols: number,
  swapTries: number,
): { regions: number[]; swaps: number } {
  const regions = boxRegions(n, boxRows, boxCols);
  let swaps = 0;
  for (let t = 0; t < swapTries; t++) {
    const a = rng.randbelow(n * n);
    const across = neighbours(a, n).filter((x) => regions[x] !== regions[a]);
    if (across.length === 0) continue;
    const regionA = regions[a];
    const regionB = regions[rng.choice(across)];
    const candidates = regions.flatMap((g, i) =>
      g === regionB && neighbours(i, n).some((x) => regions[x] === regionA && x !== a) ? [i] : [],
    );
    if (candidates.length === 0) continue;
    const b = rng.choice(candidates);
    regions[a] = regionB;
    regions[b] = regionA;
    if (regionConnected(regions, n, regionA) && regionConnected(regions, n, regionB)) {
      swaps++;
    } else {
      regions[a] = regionA;
      regions[b] = regionB;
    }
  }
  return { regions, swaps };
}
