import type { PyRandom } from '../../../rng/index.js';
import type { TaskInstance } from '../../task.js';
import type { PerLevel, PuzzleContent } from '../common/index.js';
import { type Edge, isBipartite, plantedGraph } from './graph.js';

export type ColoringLevel = readonly [vertices: number, edges: number, colours: number];

/** (vertices n, edges m, colours k) per level (docs/spec/puzzles.md §1.2), planted k-partitions; m/n rises 1.5 → 2.3. */
export const COLORING_LEVELS: PerLevel<ColoringLevel> = [
  [8, 12, 3],
  [12, 22, 3],
  [16, 32, 3],
  [20, 42, 3],
  [30, 66, 3],
  [40, 92, 3],
];

export interface ColoringData {
  vertices: number;
  colours: number;
  edges: Edge[];
  /** Sizes of the planted colour classes (balanced: they differ by at most one). */
  classSizes: number[];
  isolatedVertices: number;
  /** Whether 2 colours would already suffice (recorded, not filtered). */
  bipartite: boolean;
  /** Planted sampling cannot fail (m ≤ inter-class pairs is checked), so this is always 1. */
  generationAttempts: 1;
}
/** Answer: the planted colouring as a map vertex → colour, keys "1"…"n". */
export type ColoringInstance = TaskInstance<ColoringData, never, Record<string, number>>;

export function generateColoring(
  [n, m, k]: ColoringLevel,
  rng: PyRandom,
): PuzzleContent<ColoringData, never, Record<string, number>> {
  const { edges, colour } = plantedGraph(rng, n, m, k);
  const degree = new Array<number>(n + 1).fill(0);
  for (const [u, v] of edges) {
    degree[u]++;
    degree[v]++;
  }
  const answer: Record<string, number> = {};
  for (let v = 1; v <= n; v++) answer[String(v)] = colour[v];
  return {
    data: {
      vertices: n,
      colours: k,
      edges,
      classSizes: Array.from({ length: k }, (_, c) => colour.filter((x) => x === c + 1).length),
      isolatedVertices: degree.slice(1).filter((d) => d === 0).length,
      bipartite: isBipartite(n, edges),
      generationAttempts: 1,
    },
    answer,
  };
}
