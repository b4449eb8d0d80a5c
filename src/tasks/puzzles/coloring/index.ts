import type { PyRandom } from '../../../rng/index.js';
import type { AnyTaskPlugin, Prompt, SimKnobs, TaskInstance, TaskPlugin } from '../../task.js';
import { gradeSolvable, levelRow, PUZZLE_LEVELS, PUZZLE_SYSTEM_PROMPT, parseJsonObject } from '../common/index.js';
import { PUZZLE_SIM_DEFAULT } from '../common/levels.js';
import { type Edge, isBipartite, plantedGraph } from './graph.js';
import { validateColouring } from './validate.js';

/** (vertices n, edges m, colours k) per level (docs/spec/puzzles.md §1.2), planted k-partitions; m/n rises 1.5 → 2.3. */
export const COLORING_LEVELS: readonly (readonly [n: number, m: number, k: number])[] = [
  [8, 12, 3],
  [12, 22, 3],
  [16, 32, 3],
  [20, 42, 3],
  [30, 66, 3],
  [40, 92, 3],
];
/** Output-token budget per level; the L6 map is ≈ 40 × 6 tokens, the budget is for the search. */
export const COLORING_MAX_TOKENS = [4096, 4096, 8192, 8192, 16384, 16384] as const;

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

function renderColoring(instance: ColoringInstance): Prompt {
  const { vertices: n, colours: k, edges } = instance.data;
  const user = [
    `Graph colouring: colour each of the ${n} vertices of the graph below with one of ${k} colours so that the two`,
    'ends of every edge get different colours.',
    '',
    `Vertices: the integers 1 to ${n}.`,
    `Colours: the integers 1 to ${k}.`,
    `Edges (${edges.length}, undirected): ${JSON.stringify(edges)}`,
    '',
    'Output format:',
    'End your response with the colouring as one strict JSON object assigned to `coloring`, mapping every vertex',
    '(as a string key) to its colour (as an integer). For example, vertex 1 coloured 2 and vertex 2 coloured 1 is',
    'written',
    'coloring = {"1": 2, "2": 1}',
  ].join('\n');
  return { system: PUZZLE_SYSTEM_PROMPT, user };
}

const formatColouring = (colouring: Readonly<Record<string, number>>): string =>
  `coloring = {\n${Object.entries(colouring)
    .map(([v, c]) => `  "${v}": ${c}`)
    .join(',\n')}\n}`;

/** Each vertex gets its planted colour with probability `retention`, otherwise one of the other k − 1 colours. */
function simulateColoring(instance: ColoringInstance, rng: PyRandom, knobs: SimKnobs): string {
  const k = instance.data.colours;
  const colouring: Record<string, number> = {};
  for (const [v, c] of Object.entries(instance.answer)) {
    colouring[v] = rng.random() < knobs.retention ? c : ((c - 1 + 1 + rng.randbelow(k - 1)) % k) + 1;
  }
  return `Assigning colours vertex by vertex, checking neighbours.\n\n${formatColouring(colouring)}`;
}

export const coloringPlugin: TaskPlugin<ColoringInstance, Record<string, unknown>> = {
  id: 'coloring',
  family: 'puzzle',
  project: 'puzzles',
  analysis: 'collapse',
  simDefault: PUZZLE_SIM_DEFAULT,
  title: 'Graph colouring',
  // Tuple-valued knob (n, m, k): λ* only on the level index (docs/spec/puzzles.md §1.3).
  levels: { kind: 'level', values: PUZZLE_LEVELS },
  variants: ['standard'],
  profiles: ['default'],
  generate(rng, level, options) {
    const [n, m, k] = levelRow('coloring', COLORING_LEVELS, level);
    const { edges, colour } = plantedGraph(rng, n, m, k);
    const degree = new Array<number>(n + 1).fill(0);
    for (const [u, v] of edges) {
      degree[u]++;
      degree[v]++;
    }
    const answer: Record<string, number> = {};
    for (let v = 1; v <= n; v++) answer[String(v)] = colour[v];
    return {
      task: 'coloring',
      level,
      seed: options.seed,
      profile: options.profile ?? 'default',
      data: {
        vertices: n,
        colours: k,
        edges,
        classSizes: Array.from({ length: k }, (_, c) => colour.filter((x) => x === c + 1).length),
        isolatedVertices: degree.slice(1).filter((d) => d === 0).length,
        bipartite: isBipartite(n, edges),
        generationAttempts: 1,
      },
      trace: [],
      answer,
    };
  },
  instanceKey: (i) =>
    `coloring:${i.data.vertices},${i.data.colours}:${i.data.edges.map(([u, v]) => `${u}-${v}`).join(',')}`,
  render: (instance) => renderColoring(instance),
  canonicalResponse: (instance) => formatColouring(instance.answer),
  parse: (text) => parseJsonObject(text, 'coloring'),
  grade: (instance, text, context) =>
    gradeSolvable(
      text,
      context,
      (t) => parseJsonObject(t, 'coloring'),
      (colouring) => validateColouring(instance.data.vertices, instance.data.colours, instance.data.edges, colouring),
      (colouring) => Object.keys(colouring).length === 0,
    ),
  simulate: simulateColoring,
  maxOutputTokens: (level) => levelRow('coloring', COLORING_MAX_TOKENS, level),
};

export const coloringTask: AnyTaskPlugin = coloringPlugin;
