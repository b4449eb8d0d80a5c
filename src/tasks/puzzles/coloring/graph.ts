import type { PyRandom } from '../../../rng/index.js';

/**
 * Graphs for the colouring family (docs/spec/puzzles.md §7): vertices 1…n, undirected edges [u, v] with u < v, sorted.
 * Colourings map vertex → colour 1…k (index 0 unused).
 */
export type Edge = [u: number, v: number];

export interface PlantedGraph {
  edges: Edge[];
  /** The planted colouring, colour[v] ∈ 1…k for v = 1…n (index 0 unused). */
  colour: number[];
}

/**
 * Planted k-partition: shuffle the vertices, deal them into k classes round-robin (balanced sizes), then sample
 * m distinct edges uniformly among the inter-class pairs. The planted classes are a proper colouring.
 */
export function plantedGraph(rng: PyRandom, n: number, m: number, k: number): PlantedGraph {
  const order = rng.shuffle(Array.from({ length: n }, (_, i) => i + 1));
  const colour = new Array<number>(n + 1).fill(0);
  order.forEach((v, i) => {
    colour[v] = (i % k) + 1;
  });
  const candidates: Edge[] = [];
  for (let u = 1; u <= n; u++) for (let v = u + 1; v <= n; v++) if (colour[u] !== colour[v]) candidates.push([u, v]);
  if (m > candidates.length)
    throw new RangeError(`coloring: ${m} edges exceed the ${candidates.length} inter-class pairs`);
  return { edges: sortEdges(rng.sample(candidates, m)), colour };
}

/** Uniform G(n, m): m distinct edges among all pairs (for the §7 colourability table only). */
export function uniformGraph(rng: PyRandom, n: number, m: number): Edge[] {
  const pairs: Edge[] = [];
  for (let u = 1; u <= n; u++) for (let v = u + 1; v <= n; v++) pairs.push([u, v]);
  return sortEdges(rng.sample(pairs, m));
}

const sortEdges = (edges: Edge[]): Edge[] => [...edges].sort((a, b) => a[0] - b[0] || a[1] - b[1]);

export function adjacency(n: number, edges: readonly Edge[]): number[][] {
  const adj: number[][] = Array.from({ length: n + 1 }, () => []);
  for (const [u, v] of edges) {
    adj[u].push(v);
    adj[v].push(u);
  }
  return adj;
}

/**
 * An exact k-colouring by backtracking with DSATUR ordering (most distinct neighbour colours first, then
 * highest degree, then lowest index), or null when none exists. Exponential in the worst case; instant at n ≤ 40
 * for the densities used here.
 */
export function findColouring(n: number, edges: readonly Edge[], k: number): number[] | null {
  const adj = adjacency(n, edges);
  const colour = new Array<number>(n + 1).fill(0);
  const pick = (): number => {
    let best = -1;
    let bestSat = -1;
    for (let v = 1; v <= n; v++) {
      if (colour[v] !== 0) continue;
      const sat = new Set(adj[v].map((w) => colour[w]).filter((c) => c !== 0)).size;
      if (sat > bestSat || (sat === bestSat && adj[v].length > adj[best].length)) {
        best = v;
        bestSat = sat;
      }
    }
    return best;
  };
  const assign = (placed: number): boolean => {
    if (placed === n) return true;
    const v = pick();
    const used = new Set(adj[v].map((w) => colour[w]));
    // Symmetry breaking: never open more than one new colour at a time.
    const maxUsed = Math.max(0, ...colour);
    for (let c = 1; c <= Math.min(k, maxUsed + 1); c++) {
      if (used.has(c)) continue;
      colour[v] = c;
      if (assign(placed + 1)) return true;
    }
    colour[v] = 0;
    return false;
  };
  return assign(0) ? colour : null;
}

/** Whether the graph is 2-colourable (bipartite). */
export function isBipartite(n: number, edges: readonly Edge[]): boolean {
  return findColouring(n, edges, 2) !== null;
}
