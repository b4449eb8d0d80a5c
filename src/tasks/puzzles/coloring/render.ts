import type { ColoringInstance } from './generate.js';

export function renderColoring(instance: ColoringInstance): string {
  const { vertices: n, colours: k, edges } = instance.data;
  return [
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
}

/** One `"vertex": colour` entry per line. */
export const writeColouring = (colouring: Readonly<Record<string, number>>): string =>
  `{\n${Object.entries(colouring)
    .map(([v, c]) => `  "${v}": ${c}`)
    .join(',\n')}\n}`;
